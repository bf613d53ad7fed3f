/* `spoor tune`'s system side: block devices named as the user names them,
 * their readahead in sysfs, and the block request tracepoints read live from
 * a tracefs instance of its own. */
#ifndef SPOOR_TUNE_LIVE_H
#define SPOOR_TUNE_LIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "spoor/tune.h"

/* A whole disk: its name (sda), numbers, and readahead file. */
struct tune_device {
    char name[64];
    unsigned major, minor;
    char readahead[160];            /* /sys/block/NAME/queue/read_ahead_kb */
    char trace_name[32];            /* "major,minor", as traces print it */
};

/* Resolves DEV (a name: vda, nvme0n1; or MAJ:MIN) to its disk through
 * /sys/class/block and /sys/dev/block; a partition gives its disk (said on
 * stderr). Prints one line and returns false when there is no such device. */
bool tune_device_find(const char *arg, struct tune_device *d);

/* The readahead now in force, in KiB; false (one line printed) on error. */
bool tune_readahead_read(const struct tune_device *d, uint32_t *kb);
/* Sets it; false (one line printed) on error. */
bool tune_readahead_write(const struct tune_device *d, uint32_t kb);
/* Whether the readahead file can be written: else prints that applying needs
 * root (or --dry-run). */
bool tune_readahead_writable(const struct tune_device *d);

struct tune_live_opts {
    int64_t duration_ns;            /* 0: until SIGINT or SIGTERM */
    bool dry_run, keep;
    spoor_tune_row_fn row;          /* prints a row */
    void *ctx;
};

/* Traces d live through a tracefs instance made for it (removed at the end,
 * on SIGINT and SIGTERM too) and tunes it; on exit, puts back the readahead
 * it had unless it was changed by someone else since or opts->keep. Returns
 * the exit code. */
int tune_live_run(struct spoor_tuner *t, const struct tune_device *d, const struct tune_live_opts *opts);

#endif
