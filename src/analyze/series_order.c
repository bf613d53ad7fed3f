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

/* Where each local group's places begin: local_end[g] as a start, to be
 * moved past each place given out. */
static void count_places(struct series_worker *w, size_t rows, size_t nlocal)
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
}

/* In row order, so each time's bucket and slot are computed once while
 * consecutive rows share it: each row's place (after its group's earlier
 * rows), and whether it starts a span, as its entry or slot differs from its
 * group's previous row's; a span's start keeps its entry and slot. */
static void place_rows(struct spoor_series_run *run, struct series_worker *w, const struct spoor_table *b,
                       size_t nlocal)
{
    bool resample = run->opts.resample_ns > 0, profile = run->opts.profile && !run->opts.profile_from_buckets;
    int64_t offset = run->opts.utc_offset_ns, last_ts = SPOOR_NULL, bucket = 0;
    const int64_t *ts = b->ts;
    const uint32_t *row_local = w->row_local;
    uint32_t *next = w->local_end, *place_row = w->place_row, *last_entry = w->local_last_entry,
             *last_slot = w->local_last_slot, time_slot = 0;
    bool *starts = w->place_starts;
    for (size_t g = 0; g < nlocal; g++) {
        w->local_bucket[g] = SPOOR_NULL;
        last_slot[g] = SERIES_SLOTS; /* no slot: a group's first row starts a span */
    }
    for (size_t r = 0; r < b->nrows; r++) {
        uint32_t local = row_local[r], p = next[local]++, entry = SERIES_NO_KEY, slot = SERIES_NO_KEY;
        place_row[p] = (uint32_t)r;
        if (ts[r] != SPOOR_NULL) {
            if (ts[r] != last_ts) {
                last_ts = ts[r];
                if (resample)
                    bucket = floor_div(last_ts + offset, run->opts.resample_ns);
                if (profile)
                    time_slot = series_hour_weekday_slot(last_ts + offset);
            }
            if (resample)
                entry = bucket_entry(w, local, bucket);
            if (profile)
                slot = time_slot;
        }
        starts[p] = entry != last_entry[local] || slot != last_slot[local];
        if (starts[p]) {
            w->place_entry[p] = last_entry[local] = entry;
            w->place_slot[p] = last_slot[local] = slot;
        }
    }
}

/* The spans in place order, and each span's rows counted into its entry and
 * slot. */
static void list_spans(struct series_worker *w, size_t rows, size_t nlocal)
{
    size_t n = 0;
    uint32_t start = 0;
    for (size_t g = 0; g < nlocal; g++) {
        w->group_spans[g] = (uint32_t)n;
        for (uint32_t p = start; p < w->local_end[g]; p++)
            if (w->place_starts[p])
                w->spans[n++] = (struct series_span){p, w->place_entry[p], w->place_slot[p]};
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
    count_places(w, b->nrows, nlocal);
    place_rows(run, w, b, nlocal);
    list_spans(w, b->nrows, nlocal);
}
