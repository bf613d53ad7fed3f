/* File identity for sidecars: size, mtime, ctime, inode and crc32 of both
 * ends; and whether a sidecar may be written next to a file at all.
 *
 * ctime is what catches a same-size rewrite in place whose mtime was put
 * back (touch -r, cp -p, rsync -t, tar x): no user tool sets ctime. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "io/internal.h"
#include "io/input.h"

static int edge_crc(int fd, const char *path, uint64_t size, uint64_t off, size_t len, uint32_t *crc,
                    struct spoor_error *err)
{
    uint8_t buf[SPOOR_FINGERPRINT_BYTES];
    size_t got = 0;
    while (got < len) {
        ssize_t r = pread(fd, buf + got, len - got, (off_t)(off + got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return spoor_fail(err, SPOOR_EIO, "%s: cannot read (%s)", path, strerror(errno));
        if (r == 0)
            return spoor_fail(err, SPOOR_EIO, "%s: shrank from %llu bytes while being read", path,
                              (unsigned long long)size);
        got += (size_t)r;
    }
    *crc = (uint32_t)crc32(0, buf, (uInt)len);
    return SPOOR_OK;
}

int io_fingerprint_fd(int fd, const char *path, const struct stat *st, struct spoor_fingerprint *fp,
                      struct spoor_error *err)
{
    uint64_t size = (uint64_t)st->st_size;
    size_t edge = size < SPOOR_FINGERPRINT_BYTES ? (size_t)size : SPOOR_FINGERPRINT_BYTES;
    *fp = (struct spoor_fingerprint){
        .size = size,
        .mtime_sec = (int64_t)st->st_mtim.tv_sec,
        .mtime_nsec = (uint32_t)st->st_mtim.tv_nsec,
        .ctime_sec = (int64_t)st->st_ctim.tv_sec,
        .ctime_nsec = (uint32_t)st->st_ctim.tv_nsec,
        .inode = (uint64_t)st->st_ino,
    };
    int rc = edge_crc(fd, path, size, 0, edge, &fp->head_crc, err);
    if (rc == SPOOR_OK)
        rc = edge_crc(fd, path, size, size - edge, edge, &fp->tail_crc, err);
    return rc;
}

int spoor_fingerprint_file(const char *path, struct spoor_fingerprint *fp, struct spoor_error *err)
{
    /* stat first: opening a FIFO would take it from its reader. */
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return spoor_fail(err, SPOOR_EIO, "%s: cannot fingerprint the file", path);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        if (fd >= 0)
            close(fd);
        return spoor_fail(err, SPOOR_EIO, "%s: cannot fingerprint the file", path);
    }
    int rc = io_fingerprint_fd(fd, path, &st, fp, err);
    close(fd);
    return rc;
}

bool spoor_dir_read_only(const char *path)
{
    char *copy = spoor_xstrdup(path);
    struct stat st;
    bool ro = stat(dirname(copy), &st) == 0 && (st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0;
    free(copy);
    return ro;
}
