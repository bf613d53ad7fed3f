/* A batch in group order. Groups come interleaved row by row (one row per
 * node and time), so sums kept per (group, metric) while walking the rows load
 * and store an accumulator for every value. A counting sort by batch-local
 * group gives each row a place where its group's rows lie together, and the
 * places split into spans sharing group, resample bucket and hour x weekday
 * slot: the group pass sums each span's values in registers and adds them to
 * those tables once (series_group_pass.c). */
#include "analyze/series_run.h"

enum { DAY_HOURS = 24 };
static const int64_t ns_per_hour = 3600000000000LL;
static const int64_t ns_per_day = 86400000000000LL;

static int64_t floor_div(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

unsigned series_hour_weekday_slot(int64_t local_ns)
{
    int64_t day = floor_div(local_ns, ns_per_day);
    int64_t hour = (local_ns - day * ns_per_day) / ns_per_hour;
    int64_t weekday = ((day + 3) % 7 + 7) % 7; /* 1970-01-01 was a Thursday */
    return (unsigned)(weekday * DAY_HOURS + hour);
}

/* The resample entry of a row's group and bucket: each group's last one is
 * remembered, as a group's rows mostly stay in its bucket. */
static uint32_t bucket_entry(struct series_worker *w, uint32_t local, int64_t bucket)
{
    if (w->local_bucket[local] != bucket) {
        w->local_bucket[local] = bucket;
        w->local_entry[local] = series_buckets_get(&w->buckets, w->local_gid[local], bucket);
    }
    return (uint32_t)w->local_entry[local];
}

/* The rows in group order: each group's rows in row order, groups one after
 * another; local_end[g] ends as one past group g's last place. */
static void place_rows(struct series_worker *w, size_t rows, size_t nlocal)
{
    uint32_t *next = w->local_end;
    for (size_t g = 0; g < nlocal; g++)
        next[g] = 0;
    for (size_t r = 0; r < rows; r++)
        next[w->row_local[r]]++;
    uint32_t at = 0;
    for (size_t g = 0; g < nlocal; g++) {
        uint32_t count = next[g];
        next[g] = at;
        at += count;
    }
    for (size_t r = 0; r < rows; r++)
        w->place_row[next[w->row_local[r]]++] = (uint32_t)r;
}

/* Each row's resample entry and hour x weekday slot, in row order so they are
 * computed once per time while consecutive rows share it. */
static void key_rows(struct spoor_series_run *run, struct series_worker *w, const struct spoor_table *b,
                     size_t nlocal)
{
    bool resample = run->opts.resample_ns > 0, profile = run->opts.profile && !run->opts.profile_from_buckets;
    int64_t offset = run->opts.utc_offset_ns, last_ts = SPOOR_NULL, bucket = 0;
    uint32_t slot = 0;
    for (size_t g = 0; g < nlocal; g++)
        w->local_bucket[g] = SPOOR_NULL;
    for (size_t r = 0; r < b->nrows; r++) {
        w->row_entry[r] = w->row_slot[r] = SERIES_NO_KEY;
        if (b->ts[r] == SPOOR_NULL)
            continue;
        if (b->ts[r] != last_ts) {
            last_ts = b->ts[r];
            if (resample)
                bucket = floor_div(last_ts + offset, run->opts.resample_ns);
            if (profile)
                slot = series_hour_weekday_slot(last_ts + offset);
        }
        if (resample)
            w->row_entry[r] = bucket_entry(w, w->row_local[r], bucket);
        if (profile)
            w->row_slot[r] = slot;
    }
}

/* Cuts each group's places where the entry or the slot changes, and counts
 * each span's rows into its entry and slot. */
static void split_spans(struct series_worker *w, size_t rows, size_t nlocal)
{
    size_t n = 0;
    uint32_t start = 0, entry = 0, slot = 0;
    for (size_t g = 0; g < nlocal; g++) {
        w->group_spans[g] = (uint32_t)n;
        for (uint32_t p = start; p < w->local_end[g]; p++) {
            uint32_t r = w->place_row[p];
            if (p == start || w->row_entry[r] != entry || w->row_slot[r] != slot)
                w->spans[n++] = (struct series_span){p, entry = w->row_entry[r], slot = w->row_slot[r]};
        }
        start = w->local_end[g];
    }
    w->group_spans[nlocal] = (uint32_t)n;
    w->spans[n].start = (uint32_t)rows;
    for (size_t s = 0; s < n; s++) {
        uint32_t len = w->spans[s + 1].start - w->spans[s].start;
        if (w->spans[s].entry != SERIES_NO_KEY)
            w->buckets.rows[w->spans[s].entry] += len;
        if (w->spans[s].slot != SERIES_NO_KEY)
            w->hour_weekday_rows[w->spans[s].slot] += len;
    }
}

void series_order_rows(struct spoor_series_run *run, struct series_worker *w, const struct spoor_table *b,
                       size_t nlocal)
{
    place_rows(w, b->nrows, nlocal);
    key_rows(run, w, b, nlocal);
    split_spans(w, b->nrows, nlocal);
}
