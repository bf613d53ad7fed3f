/* File identity for sidecars: size, mtime and crc32 of both ends; and whether
 * a sidecar may be written next to a file at all. */
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "io/internal.h"

void io_fingerprint(const uint8_t *map, uint64_t size, const struct stat *st, struct spoor_fingerprint *fp)
{
    size_t edge = size < SPOOR_FINGERPRINT_BYTES ? (size_t)size : SPOOR_FINGERPRINT_BYTES;
    *fp = (struct spoor_fingerprint){
        .size = size,
        .mtime_sec = (int64_t)st->st_mtim.tv_sec,
        .mtime_nsec = (uint32_t)st->st_mtim.tv_nsec,
        .head_crc = (uint32_t)crc32(0, map, (uInt)edge),
        .tail_crc = (uint32_t)crc32(0, map ? map + size - edge : NULL, (uInt)edge),
    };
}

int spoor_fingerprint_file(const char *path, struct spoor_fingerprint *fp, struct spoor_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        if (fd >= 0)
            close(fd);
        return spoor_fail(err, SPOOR_EIO, "%s: cannot fingerprint the file", path);
    }
    const uint8_t *map = NULL;
    if (st.st_size > 0) {
        void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED) {
            close(fd);
            return spoor_fail(err, SPOOR_EIO, "%s: cannot map the file", path);
        }
        map = m;
    }
    close(fd);
    io_fingerprint(map, (uint64_t)st.st_size, &st, fp);
    if (map)
        munmap((void *)map, (size_t)st.st_size);
    return SPOOR_OK;
}

bool spoor_dir_read_only(const char *path)
{
    char *copy = spoor_xstrdup(path);
    struct stat st;
    bool ro = stat(dirname(copy), &st) == 0 && (st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0;
    free(copy);
    return ro;
}
