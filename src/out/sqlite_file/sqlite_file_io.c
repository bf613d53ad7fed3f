/* The database file: page numbers handed out from one counter, pages written
 * in blocks by sinks (several at once, one thread each: the index b-trees
 * are built concurrently), numbers a sink claimed but did not use put on
 * the freelist, page 1 written last. */
#include "out/sqlite_file/sqlite_file_pages.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A sink's blocks double from 1 page up to this: a small b-tree wastes at
 * most about half its pages, a large one a block's worth. */
enum { MAX_BLOCK = 64, FREELIST_PER_TRUNK = SQLF_PAGE / 4 - 8 };

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (24 - 8 * i));
}

static void note_error(struct sqlf_file *f, int e)
{
    pthread_mutex_lock(&f->mu);
    if (!f->error)
        f->error = e ? e : EIO;
    pthread_mutex_unlock(&f->mu);
}

void sqlf_file_write(struct sqlf_file *f, uint32_t first, const uint8_t *pages, size_t n)
{
    size_t len = n * SQLF_PAGE;
    off_t at = (off_t)(first - 1) * SQLF_PAGE;
    while (len) {
        ssize_t w = pwrite(f->fd, pages, len, at);
        if (w <= 0) {
            note_error(f, w < 0 ? errno : EIO);
            return;
        }
        pages += w;
        at += w;
        len -= (size_t)w;
    }
}

int sqlf_file_open(struct sqlf_file *f, const char *path, const char *name, struct spoor_error *err)
{
    memset(f, 0, sizeof *f);
    f->name = name;
    /* Not O_TRUNC (path is empty or absent): on ext4 a truncated file that
     * was written is flushed to disk when closed, ~70 ms for 150 MB. */
    f->fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
    struct stat st;
    if (f->fd >= 0 && fstat(f->fd, &st) == 0 && st.st_size > 0 && ftruncate(f->fd, 0) != 0) {
        int e = errno;
        close(f->fd);
        f->fd = -1;
        errno = e;
    }
    if (f->fd < 0)
        return spoor_fail(err, SPOOR_EIO, "cannot create %s: %s", name, strerror(errno));
    pthread_mutex_init(&f->mu, NULL);
    f->opened = true;
    f->npages = 1;  /* page 1, written last */
    return SPOOR_OK;
}

uint32_t sqlf_file_claim(struct sqlf_file *f, size_t n)
{
    pthread_mutex_lock(&f->mu);
    uint32_t first = f->npages + 1;
    f->npages += (uint32_t)n;
    pthread_mutex_unlock(&f->mu);
    return first;
}

void sqlf_sink_start(struct sqlf_sink *s, struct sqlf_file *f)
{
    memset(s, 0, sizeof *s);
    s->f = f;
}

static void flush(struct sqlf_sink *s)
{
    if (s->used)
        sqlf_file_write(s->f, s->first, s->buf, s->used);
}

/* A full block is written and followed by a larger one, whose numbers are
 * claimed when its first page is appended (as many pages as before then). */
uint8_t *sqlf_sink_page(struct sqlf_sink *s)
{
    if (s->used == s->size) {
        flush(s);
        s->size = s->size ? (s->size < MAX_BLOCK ? s->size * 2 : MAX_BLOCK) : 1;
        s->buf = spoor_xrealloc(s->buf, s->size * SQLF_PAGE);
        s->used = 0;
    }
    return s->buf + s->used * SQLF_PAGE;
}

uint32_t sqlf_sink_append(struct sqlf_sink *s)
{
    if (!s->used)
        s->first = sqlf_file_claim(s->f, s->size);
    return s->first + (uint32_t)s->used++;
}

void sqlf_sink_finish(struct sqlf_sink *s)
{
    flush(s);
    struct sqlf_file *f = s->f;
    pthread_mutex_lock(&f->mu);
    uint32_t end = s->first + (uint32_t)s->size;
    if (!s->used) {
        /* no page appended to this block: no numbers claimed for it */
    } else if (end == f->npages + 1) {
        f->npages -= (uint32_t)(s->size - s->used);     /* the last block: give the rest back */
    } else if (s->used < s->size) {
        size_t n = s->size - s->used;
        f->spare = spoor_xrealloc(f->spare, (f->nspare + n) * sizeof *f->spare);
        for (uint32_t p = s->first + (uint32_t)s->used; p < end; p++)
            f->spare[f->nspare++] = p;
    }
    pthread_mutex_unlock(&f->mu);
    free(s->buf);
    memset(s, 0, sizeof *s);
}

uint32_t sqlf_file_freelist(struct sqlf_file *f, uint32_t *count)
{
    *count = (uint32_t)f->nspare;
    uint32_t next = 0;
    uint8_t page[SQLF_PAGE];
    /* Trunks from the last: each one lists leaves and points to the one after it. */
    size_t groups = (f->nspare + FREELIST_PER_TRUNK) / (FREELIST_PER_TRUNK + 1);
    for (size_t g = groups; g-- > 0;) {
        size_t start = g * (FREELIST_PER_TRUNK + 1), end = start + FREELIST_PER_TRUNK + 1;
        end = end < f->nspare ? end : f->nspare;
        memset(page, 0, sizeof page);
        put_u32(page, next);
        put_u32(page + 4, (uint32_t)(end - start - 1));
        for (size_t i = start + 1; i < end; i++)
            put_u32(page + 8 + 4 * (i - start - 1), f->spare[i]);
        next = f->spare[start];
        sqlf_file_write(f, next, page, 1);
    }
    return next;
}

int sqlf_file_close(struct sqlf_file *f, const uint8_t *page1, struct spoor_error *err)
{
    sqlf_file_write(f, 1, page1, 1);
    /* The last pages handed out may be unwritten freelist leaves. */
    if (!f->error && ftruncate(f->fd, (off_t)f->npages * SQLF_PAGE) != 0)
        f->error = errno ? errno : EIO;
    if (close(f->fd) && !f->error)
        f->error = errno ? errno : EIO;
    f->fd = -1;
    int e = f->error;
    sqlf_file_abort(f);
    if (e)
        return spoor_fail(err, SPOOR_EIO, "cannot write %s: %s", f->name, strerror(e));
    return SPOOR_OK;
}

void sqlf_file_abort(struct sqlf_file *f)
{
    if (!f->opened)
        return;
    f->opened = false;
    if (f->fd >= 0)
        close(f->fd);
    f->fd = -1;
    free(f->spare);
    f->spare = NULL;
    f->nspare = 0;
    pthread_mutex_destroy(&f->mu);
}
