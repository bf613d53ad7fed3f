/* Reading an input's bytes: pread on a regular file, into the caller's
 * buffer, up to the size the file had at open; read() on a stream, whose
 * first bytes are recorded so they can be read twice (kind and format
 * sniffing, then the cursor).
 *
 * The bulk of a file is read through mapped windows under the SIGBUS guard
 * (plain chunks, compressed windows: map_guard.c); pread serves what is
 * small or must not meet zeros (sniffing, `spoor cat`, a fallback when every
 * guard is in use). docs/perf-notes.md, "Reading", has the figures. */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/internal.h"

/* A stream's recording stops growing here: a head needing more is cut short. */
#define MAX_RECORD ((size_t)16 << 20)

int io_shrank(const struct spoor_input *in, struct spoor_error *err)
{
    struct stat st;
    unsigned long long now = fstat(in->fd, &st) == 0 ? (unsigned long long)st.st_size : 0;
    return spoor_fail(err, SPOOR_EIO, "%s: shrank from %llu to %llu bytes while being read", in->path,
                      (unsigned long long)in->size, now);
}

bool io_input_shrank(struct spoor_input *in)
{
    struct stat st;
    return !in->stream &&
           (atomic_load(&in->shrank) || (fstat(in->fd, &st) == 0 && (uint64_t)st.st_size < in->size));
}

static int read_error(const struct spoor_input *in, int e, struct spoor_error *err)
{
    return spoor_fail(err, SPOOR_EIO, "%s: cannot read (%s)", in->path, strerror(e));
}

static int file_read(struct spoor_input *in, uint64_t off, uint8_t *dst, size_t len, size_t *got,
                     struct spoor_error *err)
{
    if (off >= in->size)
        return SPOOR_OK;
    if (len > in->size - off)
        len = (size_t)(in->size - off);
    while (*got < len) {
        ssize_t r = pread(in->fd, dst + *got, len - *got, (off_t)(off + *got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return read_error(in, errno, err);
        if (r == 0)
            return io_shrank(in, err);
        *got += (size_t)r;
    }
    return SPOOR_OK;
}

/* Reads from the stream itself, appending to the recording while it lasts. */
static int pull(struct spoor_input *in, uint8_t *dst, size_t len, size_t *got, struct spoor_error *err)
{
    while (*got < len && !in->stream_eof) {
        ssize_t r = read(in->fd, dst + *got, len - *got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return read_error(in, errno, err);
        if (r == 0) {
            in->stream_eof = true;
            break;
        }
        if (in->recording && in->rec_len + (size_t)r <= MAX_RECORD) {
            if (in->rec_len + (size_t)r > in->rec_cap) {
                in->rec_cap = 2 * (in->rec_len + (size_t)r);
                in->rec = spoor_xrealloc(in->rec, in->rec_cap);
            }
            memcpy(in->rec + in->rec_len, dst + *got, (size_t)r);
            in->rec_len += (size_t)r;
        } else {
            in->recording = false;
        }
        *got += (size_t)r;
        in->size += (uint64_t)r;
    }
    return SPOOR_OK;
}

static int stream_read(struct spoor_input *in, uint64_t off, uint8_t *dst, size_t len, size_t *got,
                       struct spoor_error *err)
{
    if (off < in->rec_len) {
        *got = in->rec_len - (size_t)off < len ? in->rec_len - (size_t)off : len;
        memcpy(dst, in->rec + off, *got);
        off += *got;
        if (*got == len)
            return SPOOR_OK;
    }
    /* Past the recording, only from where the stream is: going back there
     * is a bug, or a head that needed more than MAX_RECORD to decode. */
    if (off != in->size)
        return spoor_fail(err, SPOOR_EIO, "%s: cannot go back in a stream to byte %llu", in->path,
                          (unsigned long long)off);
    return pull(in, dst, len, got, err);
}

int io_read(struct spoor_input *in, uint64_t off, void *dst, size_t len, size_t *got, struct spoor_error *err)
{
    *got = 0;
    return in->stream ? stream_read(in, off, dst, len, got, err) : file_read(in, off, dst, len, got, err);
}
