/* Opening an input: a regular file, standard input ("-") or a FIFO; its kind
 * told from magic bytes; for a gzip file, the checkpoint index sidecar loaded
 * if it still describes this file. */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/gzip.h"
#include "io/index.h"
#include "io/index_file.h"
#include "io/internal.h"
#include "io/zstd.h"
#include "io/input.h"

static enum spoor_input_kind kind_of(const uint8_t *p, size_t n)
{
    if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
        return SPOOR_INPUT_GZIP;
    if (n >= 4 && p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f && p[3] == 0xfd)
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
    if (in->kind != SPOOR_INPUT_GZIP || no_index || in->stream)
        return;
    char sidecar[4200];
    spoor_index_path(in->path, sidecar, sizeof sidecar);
    in->index = io_index_load(sidecar, &in->fp);
    in->index_mode = in->index ? IO_INDEX_LOADED : IO_INDEX_BUILDING;
    if (!in->index)
        in->index = io_index_new();
}

/* Standard input can be read once in a process. */
static atomic_bool stdin_taken;

static int open_stdin(struct spoor_input *in, struct spoor_error *err)
{
    if (atomic_exchange(&stdin_taken, true))
        return spoor_fail(err, SPOOR_EUSAGE, "-: standard input can be read only once");
    in->fd = STDIN_FILENO;
    in->stream = true;
    return SPOOR_OK;
}

/* A FIFO is opened without blocking, so one that no writer holds open is an
 * error rather than a wait for ever. Writer there: the first bytes (if any
 * came yet) start the recording, and reads block from then on. */
static int open_fifo(struct spoor_input *in, struct spoor_error *err)
{
    in->stream = true;
    in->rec_cap = 64 << 10;
    in->rec = spoor_xmalloc(in->rec_cap);
    ssize_t r;
    while ((r = read(in->fd, in->rec, in->rec_cap)) < 0 && errno == EINTR)
        ;
    if (r == 0)
        return spoor_fail(err, SPOOR_EIO, "%s: a FIFO with no writer (start the writer first)", in->path);
    if (r < 0 && errno != EAGAIN)
        return spoor_fail(err, SPOOR_EIO, "%s: cannot read (%s)", in->path, strerror(errno));
    in->rec_len = in->size = r > 0 ? (size_t)r : 0;
    int flags = fcntl(in->fd, F_GETFL);
    fcntl(in->fd, F_SETFL, flags & ~O_NONBLOCK);
    return SPOOR_OK;
}

static int open_path(struct spoor_input *in, struct spoor_error *err)
{
    in->fd = open(in->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (in->fd < 0)
        return spoor_fail(err, SPOOR_EIO, "%s: %s", in->path, reason(errno));
    struct stat st;
    if (fstat(in->fd, &st) != 0)
        return spoor_fail(err, SPOOR_EIO, "%s: %s", in->path, reason(errno));
    if (S_ISFIFO(st.st_mode))
        return open_fifo(in, err);
    if (!S_ISREG(st.st_mode))
        return spoor_fail(err, SPOOR_EIO, "%s: %s", in->path,
                          S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
    in->size = (uint64_t)st.st_size;
    return io_fingerprint_fd(in->fd, in->path, &st, &in->fp, err);
}

int spoor_input_open(const char *path, const struct spoor_input_opts *opts,
                     struct spoor_input **out, struct spoor_error *err)
{
    *out = NULL;
    struct spoor_input *in = spoor_xcalloc(1, sizeof *in);
    in->path = spoor_xstrdup(path);
    in->fd = -1;
    in->chunk_size = opts && opts->chunk_size ? opts->chunk_size : IO_DEFAULT_CHUNK;
    int st = strcmp(path, "-") == 0 ? open_stdin(in, err) : open_path(in, err);
    in->recording = in->stream;
    uint8_t magic[4];
    size_t got = 0;
    if (st == SPOOR_OK)
        st = io_read(in, 0, magic, sizeof magic, &got, err);
    if (st != SPOOR_OK) {
        spoor_input_close(in);
        return st;
    }
    in->kind = kind_of(magic, got);
    attach_index(in, opts && opts->no_index);
    *out = in;
    return SPOOR_OK;
}

bool spoor_input_is_stream(const char *path)
{
    struct stat st;
    return strcmp(path, "-") == 0 || (stat(path, &st) == 0 && S_ISFIFO(st.st_mode));
}

void spoor_input_close(struct spoor_input *in)
{
    if (!in)
        return;
    if (in->fd >= 0 && strcmp(in->path, "-") != 0)
        close(in->fd);
    io_index_free(in->index);
    free(in->rec);
    free(in->path);
    free(in);
}

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
    size_t n = 0;
    struct spoor_error err;
    io_read(in, 0, dst, max, &n, &err); /* a read error comes back from the cursor */
    return n;
}

void spoor_input_set_records(struct spoor_input *in, enum spoor_records records)
{
    in->records = records;
    /* Its chunks start at events, not lines: an index built from them
     * would give `spoor cat` wrong line numbers, and none can split it. */
    if (records == SPOOR_RECORDS_JSON_EVENTS && in->index_mode == IO_INDEX_BUILDING)
        in->index_mode = IO_INDEX_OFF;
}
