/* The access-size histogram of sized events and the per-process imbalance of
 * I/O time (union of each process's I/O events). */
#include "summary_internal.h"

#include <stdlib.h>

const int64_t spoor_summary_bin_limit[SPOOR_SUMMARY_BINS - 1] = {
    4LL << 10, 64LL << 10, 1LL << 20, 16LL << 20, 1LL << 30,
};
const char *const spoor_summary_bin_name[SPOOR_SUMMARY_BINS] = {
    "<4KiB", "4KiB-64KiB", "64KiB-1MiB", "1MiB-16MiB", "16MiB-1GiB", ">=1GiB",
};

static int bin_of(int64_t bytes)
{
    int b = 0;
    while (b < SPOOR_SUMMARY_BINS - 1 && bytes >= spoor_summary_bin_limit[b])
        b++;
    return b;
}

static void histogram(const struct spoor_table *t, const struct summary_rows *rows, struct spoor_summary *out)
{
    for (size_t r = 0; r < t->nrows; r++) {
        if (!summary_is_event(t, r) || rows->bytes[r] == SPOOR_NULL)
            continue;
        int b = bin_of(rows->bytes[r]);
        out->bin_count[b]++;
        out->bin_bytes[b] += rows->bytes[r];
    }
}

static void imbalance(const struct spoor_table *t, const struct summary_rows *rows, struct spoor_summary *out)
{
    struct summary_keys pids = {0};
    uint32_t *group = spoor_xmalloc((t->nrows ? t->nrows : 1) * sizeof *group);
    for (size_t r = 0; r < t->nrows; r++)
        group[r] = summary_is_event(t, r) && summary_is_io(rows, r) ? summary_keys_id(&pids, (uint64_t)t->pid[r])
                                                                     : SUMMARY_NO_GROUP;
    size_t n = pids.n;
    struct grouped_spans spans;
    grouped_spans_build(t, rows, group, n, &spans);
    out->slowest_pid = SPOOR_NULL;
    int64_t sum = 0;
    for (uint32_t p = 0; p < n; p++) {
        int64_t time = grouped_spans_length(&spans, p);
        int64_t pid = (int64_t)pids.keys[p];
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
    grouped_spans_free(&spans);
    free(group);
    summary_keys_free(&pids);
}

void summary_io(const struct spoor_table *t, const struct summary_rows *rows, struct spoor_summary *out)
{
    histogram(t, rows, out);
    imbalance(t, rows, out);
}
