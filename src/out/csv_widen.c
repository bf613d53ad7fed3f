/* The second writing of a default CSV (writer.c): its rows, read back from a
 * file, copied after the final header. When args columns were first met after
 * the header was written, the header gained them and every row written before
 * one existed gets an empty cell for it; otherwise the rows are copied as
 * they are. Only outputs that need it pay for this copy. */
#include "out/csv_widen.h"
#include "spoor/write.h"
#include "spoor/error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <unistd.h>

enum { BLOCK = 1 << 20 };

/* A file without a name (O_TMPFILE), or where the file system has none, one
 * unlinked as soon as made: nothing is left behind, whatever ends the process. */
static int open_unnamed(const char *dir)
{
    int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
        return fd;
    size_t cap = strlen(dir) + 32;
    char *name = spoor_xmalloc(cap);
    snprintf(name, cap, "%s/spoor-rows-XXXXXX", dir);
    fd = mkostemp(name, O_CLOEXEC);
    if (fd >= 0)
        unlink(name);
    free(name);
    return fd;
}

FILE *csv_spill_open(const char *beside, struct spoor_error *err)
{
    const char *tmpdir = getenv("TMPDIR");
    char *dir = beside ? spoor_path_dir(beside) : spoor_xstrdup(tmpdir && *tmpdir ? tmpdir : "/tmp");
    int fd = open_unnamed(dir);
    FILE *fp = fd >= 0 ? fdopen(fd, "w+") : NULL;
    if (!fp) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        spoor_fail(err, SPOOR_EIO, "cannot create a temporary file in %s for the CSV rows: %s", dir, strerror(e));
    }
    free(dir);
    return fp;
}

/* Reads the next block of fd into buf; -1 on a read error (errno set). */
static ssize_t read_block(int fd, char *buf)
{
    ssize_t n;
    do
        n = read(fd, buf, BLOCK);
    while (n < 0 && errno == EINTR);
    return n;
}

/* The rest of fd appended to b's stream as it is: in the kernel when it can
 * (sendfile to a file or a pipe), else through b. */
static int copy_as_is(int fd, struct wbuf *b, char *buf, struct spoor_error *err)
{
    wbuf_flush(b);
    int out = b->fp && !b->error && fflush(b->fp) == 0 ? fileno(b->fp) : -1;
    ssize_t n = 1;
    while (out >= 0 && (n = sendfile(out, fd, NULL, BLOCK)) > 0)
        ;
    if (out >= 0 && n < 0 && errno != EINVAL && errno != ENOSYS) {
        b->error = errno; /* the output failed: wbuf_status() names it */
        return SPOOR_OK;
    }
    while ((n = read_block(fd, buf)) > 0)
        wbuf_put(b, buf, (size_t)n);
    if (n < 0)
        return spoor_fail(err, SPOOR_EIO, "cannot read back the CSV rows: %s", strerror(errno));
    return SPOOR_OK;
}

int csv_copy_rows(int fd, const struct csv_epoch *epochs, size_t nepochs, uint32_t ncols, bool skip_header,
                  struct wbuf *b, struct spoor_error *err)
{
    char *buf = spoor_xmalloc(BLOCK);
    bool quoted = false, header = skip_header;
    uint64_t row = 0;
    size_t e = 0;
    if (nepochs == 1 && epochs[0].ncols == ncols && !header) {
        int st = copy_as_is(fd, b, buf, err);
        free(buf);
        return st;
    }
    ssize_t n;
    while ((n = read_block(fd, buf)) > 0) {
        size_t from = 0, end = (size_t)n;
        for (size_t i = 0; i < end;) {
            /* Quotes are rare: a row's line break is found with memchr, then
             * checked for a quote before it. A doubled quote flips twice. */
            const char *q;
            if (quoted) {
                q = memchr(buf + i, '"', end - i);
                if (!q)
                    break;
                i = (size_t)(q - buf) + 1;
                quoted = false;
                continue;
            }
            const char *nl = memchr(buf + i, '\n', end - i);
            size_t stop = nl ? (size_t)(nl - buf) : end;
            q = memchr(buf + i, '"', stop - i);
            if (q) {
                i = (size_t)(q - buf) + 1;
                quoted = true;
                continue;
            }
            if (!nl)
                break;
            i = stop + 1;
            if (header) {
                header = false; /* the old header: the new one is out already */
                from = i;
                continue;
            }
            while (e + 1 < nepochs && epochs[e + 1].row <= row)
                e++;
            wbuf_put(b, buf + from, stop - from);
            for (uint32_t k = epochs[e].ncols; k < ncols; k++)
                wbuf_byte(b, ',');
            from = stop;
            row++;
        }
        if (!header)
            wbuf_put(b, buf + from, (size_t)n - from);
    }
    int e_read = errno;
    free(buf);
    if (n < 0)
        return spoor_fail(err, SPOOR_EIO, "cannot read back the CSV rows: %s", strerror(e_read));
    return SPOOR_OK;
}
