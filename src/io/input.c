/* Opening an input: map the file, tell its kind from magic bytes, and for
 * gzip load the checkpoint index sidecar if it still describes this file. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/gzip.h"
#include "io/index.h"
#include "io/index_file.h"
#include "io/internal.h"
#include "io/zstd.h"

static enum spoor_input_kind kind_of(const uint8_t *p, uint64_t size)
{
    if (size >= 2 && p[0] == 0x1f && p[1] == 0x8b)
        return SPOOR_INPUT_GZIP;
    if (size >= 4 && p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f && p[3] == 0xfd)
        return SPOOR_INPUT_ZSTD;
    return SPOOR_INPUT_PLAIN;
}

static const char *reason(int e)
{
    switch (e) {
    case ENOENT: return "no such file";
    case EACCES: return "permission denied";
    case ENOTDIR: return "a path component is not a directory";
    default: return strerror(e);
    }
}

static void attach_index(struct spoor_input *in, bool no_index)
{
    if (in->kind != SPOOR_INPUT_GZIP || no_index)
        return;
    char sidecar[4200];
    spoor_index_path(in->path, sidecar, sizeof sidecar);
    in->index = io_index_load(sidecar, &in->fp);
    in->index_mode = in->index ? IO_INDEX_LOADED : IO_INDEX_BUILDING;
    if (!in->index)
        in->index = io_index_new();
}

int spoor_input_open(const char *path, const struct spoor_input_opts *opts,
                     struct spoor_input **out, struct spoor_error *err)
{
    *out = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return spoor_fail(err, SPOOR_EIO, "%s: %s", path, reason(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return spoor_fail(err, SPOOR_EIO, "%s: %s", path, reason(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return spoor_fail(err, SPOOR_EIO, "%s: %s", path,
                          S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
    }
    const uint8_t *map = NULL;
    if (st.st_size > 0) {
        void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED) {
            int e = errno;
            close(fd);
            return spoor_fail(err, SPOOR_EIO, "%s: cannot map the file (%s)", path, strerror(e));
        }
        madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
        map = m;
    }
    close(fd);

    struct spoor_input *in = spoor_xcalloc(1, sizeof *in);
    in->path = spoor_xstrdup(path);
    in->map = map;
    in->size = (uint64_t)st.st_size;
    in->kind = kind_of(map, in->size);
    in->chunk_size = opts && opts->chunk_size ? opts->chunk_size : IO_DEFAULT_CHUNK;
    if (in->kind == SPOOR_INPUT_GZIP)
        io_fingerprint(map, in->size, &st, &in->fp);
    attach_index(in, opts && opts->no_index);
    *out = in;
    return SPOOR_OK;
}

void io_release(const struct spoor_input *in, uint64_t from, uint64_t to)
{
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    from = (from + page - 1) / page * page;
    to = to / page * page;
    if (to > from)
        madvise((void *)(in->map + from), (size_t)(to - from), MADV_DONTNEED);
}

void spoor_input_close(struct spoor_input *in)
{
    if (!in)
        return;
    if (in->map)
        munmap((void *)in->map, (size_t)in->size);
    io_index_free(in->index);
    free(in->bounds);
    free(in->path);
    free(in);
}

const char *spoor_input_path(const struct spoor_input *in) { return in->path; }
enum spoor_input_kind spoor_input_kind(const struct spoor_input *in) { return in->kind; }
uint64_t spoor_input_size(const struct spoor_input *in) { return in->size; }

size_t spoor_input_head(struct spoor_input *in, char *dst, size_t max)
{
    switch (in->kind) {
    case SPOOR_INPUT_GZIP:
        return io_gzip_head(in, dst, max);
    case SPOOR_INPUT_ZSTD:
        return io_zstd_head(in, dst, max);
    case SPOOR_INPUT_PLAIN:
        break;
    }
    size_t n = in->size < max ? (size_t)in->size : max;
    if (n)
        memcpy(dst, in->map, n);
    return n;
}
