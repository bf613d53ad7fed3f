/* vmread: reads a block device in the VM with O_DIRECT, one read() of a
 * fixed size at a time, so that each read is one block request the module
 * must count. Built static by the VM test (the initramfs has no libc).
 *
 *   vmread DEVICE seq|rand SIZE_KIB TOTAL_KIB [SEED]
 *
 * seq reads from offset 0 on; rand reads at offsets drawn uniformly among
 * the device's SIZE-aligned ones (xorshift64 from SEED). Prints
 * "reads=N bytes=B". */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t xorshift64(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static int usage(void)
{
    fprintf(stderr, "usage: vmread DEVICE seq|rand SIZE_KIB TOTAL_KIB [SEED]\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 5 || argc > 6)
        return usage();
    const char *dev = argv[1];
    int random = !strcmp(argv[2], "rand");
    size_t size = strtoull(argv[3], NULL, 10) * 1024, total = strtoull(argv[4], NULL, 10) * 1024;
    uint64_t seed = argc == 6 ? strtoull(argv[5], NULL, 10) : 1;
    if ((!random && strcmp(argv[2], "seq")) || !size || total % size || !seed)
        return usage();
    int fd = open(dev, O_RDONLY | O_DIRECT);
    if (fd < 0) {
        fprintf(stderr, "vmread: %s: %s\n", dev, strerror(errno));
        return 1;
    }
    off_t dev_bytes = lseek(fd, 0, SEEK_END);
    if (dev_bytes < (off_t)total) {
        fprintf(stderr, "vmread: %s: %lld bytes, fewer than %zu\n", dev, (long long)dev_bytes, total);
        return 1;
    }
    void *buf;
    if (posix_memalign(&buf, 4096, size))
        return 1;
    uint64_t slots = (uint64_t)dev_bytes / size, reads = 0, bytes = 0;
    for (size_t done = 0; done < total; done += size) {
        off_t at = random ? (off_t)(xorshift64(&seed) % slots * size) : (off_t)done;
        ssize_t got = pread(fd, buf, size, at);
        if (got != (ssize_t)size) {
            fprintf(stderr, "vmread: %s at %lld: %s\n", dev, (long long)at, got < 0 ? strerror(errno) : "short read");
            return 1;
        }
        reads++;
        bytes += (uint64_t)got;
    }
    printf("reads=%llu bytes=%llu\n", (unsigned long long)reads, (unsigned long long)bytes);
    free(buf);
    close(fd);
    return 0;
}
