#include "gen/out.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

bool gen_out_is_gzip_path(const char *path)
{
    size_t n = strlen(path);
    return n > 3 && !strcmp(path + n - 3, ".gz");
}

int gen_out_open(struct gen_out *o, const char *path, int gzip_level, struct spoor_error *err)
{
    memset(o, 0, sizeof *o);
    int rc = spoor_atomic_file_open(&o->file, path, err);
    if (rc)
        return rc;
    /* Bytes go to the descriptor, never through o->file.fp's buffer, so the
     * deflate threads' writes and ours interleave in order. */
    o->fd = fileno(o->file.fp);
    if (gzip_level > 0)
        o->gz = gen_gzpar_start(o->fd, o->file.path ? o->file.path : "stdout", gzip_level, 0);
    return 0;
}

static int write_all(struct gen_out *o, const char *p, size_t len, struct spoor_error *err)
{
    while (len > 0) {
        ssize_t w = write(o->fd, p, len);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return spoor_fail(err, SPOOR_EIO, "cannot write %s: %s", o->file.path ? o->file.path : "stdout",
                              strerror(errno));
        }
        p += w;
        len -= (size_t)w;
        o->disk_bytes += (uint64_t)w;
    }
    return 0;
}

int gen_out_write(struct gen_out *o, const void *data, size_t len, struct spoor_error *err)
{
    o->bytes += len;
    if (o->gz)
        return gen_gzpar_write(o->gz, data, len, err);
    return write_all(o, data, len, err);
}

int gen_out_commit(struct gen_out *o, uint64_t *disk_bytes, struct spoor_error *err)
{
    int rc = o->gz ? gen_gzpar_finish(o->gz, &o->disk_bytes, err) : 0;
    gen_gzpar_free(o->gz);
    o->gz = NULL;
    if (rc) {
        gen_out_abort(o);
        return rc;
    }
    if (disk_bytes)
        *disk_bytes = o->disk_bytes;
    rc = spoor_atomic_file_commit(&o->file, err);
    memset(o, 0, sizeof *o);
    return rc;
}

void gen_out_abort(struct gen_out *o)
{
    gen_gzpar_free(o->gz);
    if (o->file.fp)
        spoor_atomic_file_abort(&o->file);
    memset(o, 0, sizeof *o);
}
