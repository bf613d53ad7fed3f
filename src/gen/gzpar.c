/* Parallel deflate into a single gzip member (see gzpar.h). The caller's
 * thread fills blocks and writes finished ones in order; workers deflate
 * blocks in submission order as they become ready. */
#include "gen/gzpar.h"
#include "util/parallel.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

enum {
    BLOCK = 1 << 20,
    DICT = 32 * 1024,
    MAX_THREADS = 8,
};

struct slot {
    unsigned char *in, *out;
    size_t in_len, out_len, out_cap;
    unsigned char dict[DICT];
    size_t dict_len;
    uint32_t crc;
    bool done, failed;
};

struct gen_gzpar {
    int fd, level;
    char *name;
    pthread_mutex_t lock;
    pthread_cond_t work, finished;
    struct spoor_thread_group *workers;  /* NULL: none could start */
    bool stop;

    struct slot *slots;
    size_t nslots;
    /* Block sequence numbers: filled < next_submit; compressing or done <
     * next_compress; written < next_write. Block s lives in slots[s % nslots]. */
    uint64_t next_submit, next_compress, next_write;

    unsigned char tail[DICT];   /* last bytes of the latest submitted block */
    size_t tail_len;
    uint32_t crc;
    uint64_t total_in, disk_bytes;
    bool header_written;
};

static bool deflate_block(z_stream *z, struct slot *s)
{
    if (deflateReset(z) != Z_OK)
        return false;
    if (s->dict_len && deflateSetDictionary(z, s->dict, (uInt)s->dict_len) != Z_OK)
        return false;
    size_t need = deflateBound(z, (uLong)s->in_len) + 16;
    if (s->out_cap < need) {
        free(s->out);
        s->out = malloc(need);
        s->out_cap = s->out ? need : 0;
        if (!s->out)
            return false;
    }
    z->next_in = s->in;
    z->avail_in = (uInt)s->in_len;
    z->next_out = s->out;
    z->avail_out = (uInt)s->out_cap;
    int rc = deflate(z, Z_SYNC_FLUSH);
    /* The bound covers a sync flush; all input consumed and room left means done. */
    if (rc != Z_OK || z->avail_in != 0 || z->avail_out == 0)
        return false;
    s->out_len = s->out_cap - z->avail_out;
    s->crc = (uint32_t)crc32(0, s->in, (uInt)s->in_len);
    return true;
}

static void deflate_worker(void *ctx, int worker)
{
    struct gen_gzpar *g = ctx;
    (void)worker;
    z_stream z;
    memset(&z, 0, sizeof z);
    bool ok = deflateInit2(&z, g->level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) == Z_OK;
    pthread_mutex_lock(&g->lock);
    for (;;) {
        while (!g->stop && g->next_compress == g->next_submit)
            pthread_cond_wait(&g->work, &g->lock);
        if (g->stop)
            break;
        struct slot *s = &g->slots[g->next_compress++ % g->nslots];
        pthread_mutex_unlock(&g->lock);
        bool good = ok && deflate_block(&z, s);
        pthread_mutex_lock(&g->lock);
        s->failed = !good;
        s->done = true;
        pthread_cond_broadcast(&g->finished);
    }
    pthread_mutex_unlock(&g->lock);
    if (ok)
        deflateEnd(&z);
}

struct gen_gzpar *gen_gzpar_start(int fd, const char *name, int level, int threads)
{
    if (threads <= 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (int)n : 1;
    }
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    struct gen_gzpar *g = spoor_xcalloc(1, sizeof *g);
    g->fd = fd;
    g->name = spoor_xstrdup(name);
    g->level = level;
    g->nslots = (size_t)threads * 3;
    g->slots = spoor_xcalloc(g->nslots, sizeof *g->slots);
    for (size_t i = 0; i < g->nslots; i++)
        g->slots[i].in = spoor_xmalloc(BLOCK);
    g->crc = (uint32_t)crc32(0, NULL, 0);
    pthread_mutex_init(&g->lock, NULL);
    pthread_cond_init(&g->work, NULL);
    pthread_cond_init(&g->finished, NULL);
    /* Any number of deflate threads writes the same bytes: take as many as start. */
    for (int n = threads; n > 0 && !g->workers; n--)
        g->workers = spoor_thread_group_start(n, deflate_worker, g);
    return g;
}

static int write_all(struct gen_gzpar *g, const void *data, size_t len, struct spoor_error *err)
{
    const unsigned char *p = data;
    while (len > 0) {
        ssize_t w = write(g->fd, p, len);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return spoor_fail(err, SPOOR_EIO, "cannot write %s: %s", g->name, strerror(errno));
        }
        p += w;
        len -= (size_t)w;
        g->disk_bytes += (uint64_t)w;
    }
    return 0;
}

/* Waits for the oldest unwritten block and writes it. */
static int write_oldest(struct gen_gzpar *g, struct spoor_error *err)
{
    struct slot *s = &g->slots[g->next_write % g->nslots];
    pthread_mutex_lock(&g->lock);
    while (!s->done)
        pthread_cond_wait(&g->finished, &g->lock);
    pthread_mutex_unlock(&g->lock);
    if (s->failed)
        return spoor_fail(err, SPOOR_ENOMEM, "zlib deflate failed on a block");
    int rc = write_all(g, s->out, s->out_len, err);
    g->crc = (uint32_t)crc32_combine(g->crc, s->crc, (z_off_t)s->in_len);
    s->in_len = 0;
    s->done = false;
    g->next_write++;
    return rc;
}

/* The slot being filled: block next_submit, once its previous use is written. */
static int filling_slot(struct gen_gzpar *g, struct slot **out, struct spoor_error *err)
{
    if (g->next_submit - g->next_write == g->nslots) {
        int rc = write_oldest(g, err);
        if (rc)
            return rc;
    }
    *out = &g->slots[g->next_submit % g->nslots];
    return 0;
}

static void submit(struct gen_gzpar *g, struct slot *s)
{
    memcpy(s->dict, g->tail, g->tail_len);
    s->dict_len = g->tail_len;
    /* The next block's dictionary: the last 32 KiB seen, which may span blocks. */
    if (s->in_len >= DICT) {
        memcpy(g->tail, s->in + s->in_len - DICT, DICT);
        g->tail_len = DICT;
    } else {
        size_t keep = g->tail_len + s->in_len > DICT ? DICT - s->in_len : g->tail_len;
        memmove(g->tail, g->tail + g->tail_len - keep, keep);
        memcpy(g->tail + keep, s->in, s->in_len);
        g->tail_len = keep + s->in_len;
    }
    pthread_mutex_lock(&g->lock);
    g->next_submit++;
    pthread_cond_signal(&g->work);
    pthread_mutex_unlock(&g->lock);
}

static int write_header(struct gen_gzpar *g, struct spoor_error *err)
{
    /* mtime 0 for reproducible output; XFL as zlib sets it; OS 3 = Unix. */
    unsigned char h[10] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};
    h[8] = g->level == 1 ? 4 : g->level == 9 ? 2 : 0;
    g->header_written = true;
    return write_all(g, h, sizeof h, err);
}

int gen_gzpar_write(struct gen_gzpar *g, const void *data, size_t len, struct spoor_error *err)
{
    if (!g->workers)
        return spoor_fail(err, SPOOR_ENOMEM, "cannot start a deflate thread");
    int rc = g->header_written ? 0 : write_header(g, err);
    const unsigned char *p = data;
    while (!rc && len > 0) {
        struct slot *s;
        if ((rc = filling_slot(g, &s, err)))
            break;
        size_t n = BLOCK - s->in_len < len ? BLOCK - s->in_len : len;
        memcpy(s->in + s->in_len, p, n);
        s->in_len += n;
        p += n;
        len -= n;
        g->total_in += n;
        if (s->in_len == BLOCK)
            submit(g, s);
    }
    return rc;
}

int gen_gzpar_finish(struct gen_gzpar *g, uint64_t *disk_bytes, struct spoor_error *err)
{
    int rc = g->header_written ? 0 : write_header(g, err);
    struct slot *s;
    if (!rc && !(rc = filling_slot(g, &s, err)) && s->in_len > 0)
        submit(g, s);
    while (!rc && g->next_write < g->next_submit)
        rc = write_oldest(g, err);
    if (!rc) {
        /* An empty final fixed-Huffman block, then CRC-32 and size mod 2^32. */
        unsigned char t[10] = {0x03, 0x00};
        for (int i = 0; i < 4; i++) {
            t[2 + i] = (unsigned char)(g->crc >> (8 * i));
            t[6 + i] = (unsigned char)(g->total_in >> (8 * i));
        }
        rc = write_all(g, t, sizeof t, err);
    }
    *disk_bytes += g->disk_bytes;
    return rc;
}

void gen_gzpar_free(struct gen_gzpar *g)
{
    if (!g)
        return;
    pthread_mutex_lock(&g->lock);
    g->stop = true;
    pthread_cond_broadcast(&g->work);
    pthread_mutex_unlock(&g->lock);
    if (g->workers)
        spoor_thread_group_join(g->workers);
    for (size_t i = 0; i < g->nslots; i++) {
        free(g->slots[i].in);
        free(g->slots[i].out);
    }
    free(g->slots);
    free(g->name);
    pthread_mutex_destroy(&g->lock);
    pthread_cond_destroy(&g->work);
    pthread_cond_destroy(&g->finished);
    free(g);
}
