/* vmread: reads a block device in the VM with O_DIRECT, one read of a fixed
 * size at a time, so that each read is one block request the module must
 * count. Built static by the VM test (the initramfs has no libc).
 *
 *   vmread DEVICE seq|rand SIZE_KIB TOTAL_KIB [SEED [DEPTH]]
 *
 * seq reads from offset 0 on; rand reads at offsets drawn uniformly among
 * the device's SIZE-aligned ones (xorshift64 from SEED). DEPTH (default 1)
 * reads are kept in flight with Linux AIO (io_submit), so that queue depths
 * above 1 do not hang on how the host schedules the VM: one pread at a time
 * from two processes overlaps only if the guest switches between them before
 * the emulated disk answers. Prints "reads=N bytes=B". */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { MAX_DEPTH = 64 };

static uint64_t xorshift64(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static int usage(void)
{
    fprintf(stderr, "usage: vmread DEVICE seq|rand SIZE_KIB TOTAL_KIB [SEED [DEPTH]]\n");
    return 2;
}

static int fail(const char *dev, const char *what, long long at, const char *why)
{
    fprintf(stderr, "vmread: %s: %s at %lld: %s\n", dev, what, at, why);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 5 || argc > 7)
        return usage();
    const char *dev = argv[1];
    int random = !strcmp(argv[2], "rand");
    size_t size = strtoull(argv[3], NULL, 10) * 1024, total = strtoull(argv[4], NULL, 10) * 1024;
    uint64_t seed = argc >= 6 ? strtoull(argv[5], NULL, 10) : 1;
    unsigned depth = argc == 7 ? (unsigned)strtoul(argv[6], NULL, 10) : 1;
    if ((!random && strcmp(argv[2], "seq")) || !size || total % size || !seed || !depth || depth > MAX_DEPTH)
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
    char *buf;
    if (posix_memalign((void **)&buf, 4096, size * depth))
        return 1;
    aio_context_t ctx = 0;
    if (syscall(SYS_io_setup, depth, &ctx) < 0)
        return fail(dev, "io_setup", 0, strerror(errno));
    struct iocb cbs[MAX_DEPTH];
    uint64_t slots = (uint64_t)dev_bytes / size, reads = 0, bytes = 0;
    size_t issued = 0;
    unsigned in_flight = 0;
    /* Slot k's buffer and control block are free again once its read is reaped. */
    unsigned free_slots[MAX_DEPTH], nfree = depth;
    for (unsigned k = 0; k < depth; k++)
        free_slots[k] = depth - 1 - k;
    while (issued < total || in_flight) {
        struct iocb *batch[MAX_DEPTH];
        unsigned nb = 0;
        for (; issued < total && nfree; issued += size) {
            unsigned k = free_slots[--nfree];
            off_t at = random ? (off_t)(xorshift64(&seed) % slots * size) : (off_t)issued;
            cbs[k] = (struct iocb){.aio_data = k, .aio_lio_opcode = IOCB_CMD_PREAD, .aio_fildes = (uint32_t)fd,
                                   .aio_buf = (uint64_t)(uintptr_t)(buf + k * size), .aio_nbytes = size,
                                   .aio_offset = at};
            batch[nb++] = &cbs[k];
        }
        if (nb && syscall(SYS_io_submit, ctx, (long)nb, batch) != (long)nb)
            return fail(dev, "io_submit", (long long)issued, strerror(errno));
        in_flight += nb;
        struct io_event ev[MAX_DEPTH];
        long got = syscall(SYS_io_getevents, ctx, 1L, (long)in_flight, ev, NULL);
        if (got < 0)
            return fail(dev, "io_getevents", (long long)issued, strerror(errno));
        for (long e = 0; e < got; e++) {
            unsigned k = (unsigned)ev[e].data;
            if (ev[e].res != (int64_t)size)
                return fail(dev, "read", (long long)cbs[k].aio_offset,
                            ev[e].res < 0 ? strerror((int)-ev[e].res) : "short read");
            free_slots[nfree++] = k;
            in_flight--;
            reads++;
            bytes += size;
        }
    }
    printf("reads=%llu bytes=%llu\n", (unsigned long long)reads, (unsigned long long)bytes);
    syscall(SYS_io_destroy, ctx);
    free(buf);
    close(fd);
    return 0;
}
