/* The access-size bins and the per-process imbalance of I/O time (union of
 * each process's I/O events). */
#include "summary_internal.h"

const int64_t spoor_summary_bin_limit[SPOOR_SUMMARY_BINS - 1] = {
    4LL << 10, 64LL << 10, 1LL << 20, 16LL << 20, 1LL << 30,
};
const char *const spoor_summary_bin_name[SPOOR_SUMMARY_BINS] = {
    "<4KiB", "4KiB-64KiB", "64KiB-1MiB", "1MiB-16MiB", "16MiB-1GiB", ">=1GiB",
};

void summary_io(struct summary_acc *a, struct spoor_summary *out)
{
    for (int b = 0; b < SPOOR_SUMMARY_BINS; b++) {
        out->bin_count[b] = a->bin_count[b];
        out->bin_bytes[b] = a->bin_bytes[b];
    }
    size_t n = a->io_pids.n;
    out->slowest_pid = SPOOR_NULL;
    int64_t sum = 0;
    for (uint32_t p = 0; p < n; p++) {
        int64_t time = a->io_time[p];
        int64_t pid = (int64_t)a->io_pids.keys[p];
        sum += time;
        if (out->slowest_pid == SPOOR_NULL || time > out->io_time_max ||
            (time == out->io_time_max && pid < out->slowest_pid)) {
            out->io_time_max = time;
            out->slowest_pid = pid;
        }
    }
    out->io_processes = n;
    out->io_time_mean = n ? (double)sum / (double)n : 0;
    out->imbalance = out->io_time_mean > 0 ? (double)out->io_time_max / out->io_time_mean : 0;
}
