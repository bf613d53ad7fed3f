#include "gen/out.h"
#include "spoor/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool gen_out_is_gzip_path(const char *path)
{
    size_t n = strlen(path);
    return n > 3 && !strcmp(path + n - 3, ".gz");
}

/* The temporary file next to path that commit renames over it. */
static int open_temporary(struct gen_out *o, const char *path, struct spoor_error *err)
{
    size_t n = strlen(path) + 16;
    o->tmp_path = spoor_xmalloc(n);
    snprintf(o->tmp_path, n, "%s.tmp.XXXXXX", path);
    o->fd = mkstemp(o->tmp_path);
    if (o->fd < 0) {
        free(o->tmp_path);
        o->tmp_path = NULL;
        return spoor_fail(err, SPOOR_EIO, "%s: cannot create a temporary file next to it: %s", path,
                          strerror(errno));
    }
    /* mkstemp creates 0600; a trace is as readable as any file the user writes. */
    fchmod(o->fd, 0644);
    return 0;
}

int gen_out_open(struct gen_out *o, const char *path, int gzip_level, struct spoor_error *err)
{
    memset(o, 0, sizeof *o);
    o->fd = -1;
    o->path = spoor_xstrdup(path);
    int rc = 0;
    if (!spoor_path_is_special(path))
        rc = open_temporary(o, path, err);
    else if ((o->fd = open(path, O_WRONLY)) < 0) /* /dev/null, a FIFO: written in place, never renamed over */
        rc = spoor_fail(err, SPOOR_EIO, "%s: cannot write: %s", path, strerror(errno));
    if (rc) {
        gen_out_abort(o);
        return rc;
    }
    if (gzip_level > 0)
        o->gz = gen_gzpar_start(o->fd, gzip_level, 0);
    return 0;
}

static int write_all(struct gen_out *o, const char *p, size_t len, struct spoor_error *err)
{
    while (len > 0) {
        ssize_t w = write(o->fd, p, len);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return spoor_fail(err, SPOOR_EIO, "%s: write failed: %s", o->tmp_path ? o->tmp_path : o->path,
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

static void out_free(struct gen_out *o)
{
    gen_gzpar_free(o->gz);
    if (o->fd >= 0)
        close(o->fd);
    free(o->path);
    free(o->tmp_path);
    memset(o, 0, sizeof *o);
    o->fd = -1;
}

int gen_out_commit(struct gen_out *o, uint64_t *disk_bytes, struct spoor_error *err)
{
    int rc = o->gz ? gen_gzpar_finish(o->gz, &o->disk_bytes, err) : 0;
    if (!rc) {
        int fd = o->fd;
        o->fd = -1;
        if (close(fd) != 0)
            rc = spoor_fail(err, SPOOR_EIO, "%s: close failed: %s", o->tmp_path ? o->tmp_path : o->path,
                            strerror(errno));
    }
    if (!rc && o->tmp_path && rename(o->tmp_path, o->path) != 0)
        rc = spoor_fail(err, SPOOR_EIO, "%s: cannot rename %s to it: %s", o->path, o->tmp_path, strerror(errno));
    if (rc) {
        gen_out_abort(o);
        return rc;
    }
    if (disk_bytes)
        *disk_bytes = o->disk_bytes;
    out_free(o);
    return 0;
}

void gen_out_abort(struct gen_out *o)
{
    if (o->tmp_path)
        unlink(o->tmp_path);
    out_free(o);
}
