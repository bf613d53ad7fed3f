/* vmload: buffered (page-cache) read workloads on a block device in the VM,
 * where readahead decides the block requests. Built static by the VM tests
 * and the lab (the initramfs has no libc). Deterministic from its seed.
 *
 *   vmload DEVICE seq|rand|mixed [--files N | --ms MS] [--file-mib M]
 *          [--touches T] [--seed N] [--drop]
 *
 * The device is cut into "files", regions of --file-mib MiB (16). Each file
 * is opened, used and closed: readahead is copied into the open file
 * (file->f_ra) at open, so a change of read_ahead_kb applies from the next
 * file. The region of each file is drawn from the seed (xorshift64).
 *
 * - seq: the file read start to end with read() of 64 KiB.
 * - rand: the file mmap'ed and T (--touches, 64) random 4 KiB pages touched.
 *   A fault that misses the page cache reads around it: ra_pages centred on
 *   the page (6.1 mm/filemap.c, do_sync_mmap_readahead), so a large readahead
 *   reads a lot that random touches never use. The kernel stops reading
 *   around once a file's misses outnumber its hits by MMAP_LOTSAMISS (100):
 *   64 touches a file stay below that, so every miss of every file reads
 *   around, and the cost of the readahead setting is real. A file of 16 MiB
 *   against 64 touches of 4 KiB: at 1 MiB readahead the touches read most
 *   of the file, at 16 KiB a sixteenth of it.
 * - mixed: both at once on two files: the sequential stream through read(),
 *   interleaved with the random touches of a second, mmap'ed file (a touch
 *   after every few reads, spread over the stream).
 *
 * Closing the device's last open file drops its page cache (blkdev_put), so
 * a file never finds another's pages; --drop also drops all caches first.
 * --files N: N files (1); --ms MS: files until MS milliseconds have passed
 * (CLOCK_MONOTONIC: guest time). Prints "files=N bytes=B elapsed_ns=T", B the
 * bytes asked for (reads, and 4 KiB per touch). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

enum { CHUNK = 64 * 1024, PAGE = 4096 };

struct load {
    const char *dev;
    uint64_t file_bytes, regions, touches;
    uint64_t seed;
    uint64_t bytes;   /* asked for */
};

static uint64_t xorshift64(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void die(const char *what, const char *dev)
{
    fprintf(stderr, "vmload: %s: %s: %s\n", dev, what, strerror(errno));
    exit(1);
}

static int open_dev(const struct load *l)
{
    int fd = open(l->dev, O_RDONLY);
    if (fd < 0)
        die("open", l->dev);
    return fd;
}

/* The byte offset of a region drawn from the seed. */
static off_t next_region(struct load *l)
{
    return (off_t)(xorshift64(&l->seed) % l->regions * l->file_bytes);
}

/* One random touch of a mapped file: a byte of a page drawn from the seed. */
static void touch(struct load *l, const volatile unsigned char *map)
{
    uint64_t page = xorshift64(&l->seed) % (l->file_bytes / PAGE);
    (void)map[page * PAGE];
    l->bytes += PAGE;
}

static const unsigned char *map_file(const struct load *l, int fd, off_t at)
{
    void *map = mmap(NULL, l->file_bytes, PROT_READ, MAP_SHARED, fd, at);
    if (map == MAP_FAILED)
        die("mmap", l->dev);
    return map;
}

static void read_chunk(struct load *l, int fd, char *buf, off_t at)
{
    ssize_t got = pread(fd, buf, CHUNK, at);
    if (got != CHUNK)
        die(got < 0 ? "read" : "short read", l->dev);
    l->bytes += CHUNK;
}

static void seq_file(struct load *l, char *buf)
{
    int fd = open_dev(l);
    off_t at = next_region(l);
    for (uint64_t done = 0; done < l->file_bytes; done += CHUNK)
        read_chunk(l, fd, buf, at + (off_t)done);
    close(fd);
}

static void rand_file(struct load *l)
{
    int fd = open_dev(l);
    const unsigned char *map = map_file(l, fd, next_region(l));
    for (uint64_t i = 0; i < l->touches; i++)
        touch(l, map);
    munmap((void *)map, l->file_bytes);
    close(fd);
}

/* The stream's chunks and the touches spread evenly: touch i comes after
 * chunk (i + 1) * chunks / (touches + 1). Two regions drawn apart (the same
 * one twice would let the stream feed the touches). */
static void mixed_file(struct load *l, char *buf)
{
    int seq_fd = open_dev(l), rand_fd = open_dev(l);
    off_t seq_at = next_region(l), rand_at = next_region(l);
    while (rand_at == seq_at && l->regions > 1)
        rand_at = next_region(l);
    const unsigned char *map = map_file(l, rand_fd, rand_at);
    uint64_t chunks = l->file_bytes / CHUNK, touched = 0;
    for (uint64_t c = 0; c < chunks; c++) {
        read_chunk(l, seq_fd, buf, seq_at + (off_t)(c * CHUNK));
        while (touched < l->touches && (touched + 1) * chunks / (l->touches + 1) <= c) {
            touch(l, map);
            touched++;
        }
    }
    munmap((void *)map, l->file_bytes);
    close(rand_fd);
    close(seq_fd);
}

static int usage(void)
{
    fprintf(stderr, "usage: vmload DEVICE seq|rand|mixed [--files N | --ms MS] [--file-mib M] [--touches T]"
                    " [--seed N] [--drop]\n");
    return 2;
}

static int parse_count(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end || v == 0)
        return 0;
    *out = v;
    return 1;
}

static void drop_caches(void)
{
    int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
    if (fd < 0 || write(fd, "3\n", 2) != 2)
        die("drop_caches", "/proc/sys/vm/drop_caches");
    close(fd);
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return usage();
    struct load l = {.dev = argv[1], .touches = 64, .seed = 1};
    const char *pattern = argv[2];
    uint64_t files = 1, ms = 0, file_mib = 16;
    int drop = 0;
    for (int i = 3; i < argc; i++) {
        const char *opt = argv[i];
        if (!strcmp(opt, "--drop")) {
            drop = 1;
            continue;
        }
        if (i + 1 == argc)
            return usage();
        const char *val = argv[++i];
        uint64_t *dst = !strcmp(opt, "--files")      ? &files
                        : !strcmp(opt, "--ms")       ? &ms
                        : !strcmp(opt, "--file-mib") ? &file_mib
                        : !strcmp(opt, "--touches")  ? &l.touches
                        : !strcmp(opt, "--seed")     ? &l.seed
                                                     : NULL;
        if (!dst || !parse_count(val, dst))
            return usage();
    }
    int seq = !strcmp(pattern, "seq"), rnd = !strcmp(pattern, "rand"), mixed = !strcmp(pattern, "mixed");
    if (!seq && !rnd && !mixed)
        return usage();
    l.file_bytes = file_mib << 20;
    int fd = open_dev(&l);
    off_t dev_bytes = lseek(fd, 0, SEEK_END);
    close(fd);
    l.regions = (uint64_t)dev_bytes / l.file_bytes;
    if (l.regions < 2) {
        fprintf(stderr, "vmload: %s: %lld bytes, fewer than two files of %llu MiB\n", l.dev, (long long)dev_bytes,
                (unsigned long long)file_mib);
        return 1;
    }
    if (drop)
        drop_caches();
    char *buf = malloc(CHUNK);
    if (!buf)
        return 1;
    uint64_t start = now_ns(), done = 0;
    while (ms ? now_ns() - start < ms * 1000000u : done < files) {
        if (seq)
            seq_file(&l, buf);
        else if (rnd)
            rand_file(&l);
        else
            mixed_file(&l, buf);
        done++;
    }
    printf("files=%llu bytes=%llu elapsed_ns=%llu\n", (unsigned long long)done, (unsigned long long)l.bytes,
           (unsigned long long)(now_ns() - start));
    free(buf);
    return 0;
}
