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

/* From each local group's rows (in local_end): where its places begin
 * (local_end[g] as a start, to be moved past each place given out), and the
 * chunks: consecutive groups whose places together stay within
 * SERIES_CHUNK_PLACES, at least one a chunk. */
static void count_places(struct series_worker *w, size_t nlocal)
{
    uint32_t *next = w->local_end, at = 0;
    size_t n = 0;
    for (size_t g = 0; g < nlocal; g++) {
        uint32_t count = next[g];
        if (g == 0 || at + count - w->chunk_next[n - 1] > SERIES_CHUNK_PLACES) {
            w->chunk_group[n] = (uint32_t)g;
            w->chunk_next[n++] = at;
        }
        w->local_chunk[g] = (uint32_t)n - 1;
        next[g] = at;
        at += count;
    }
    w->chunk_group[n] = (uint32_t)nlocal;
    w->nchunks = n;
}

/* In row order, so each time's bucket and slot are computed once while
 * consecutive rows share it: each row's place (after its group's earlier
 * rows), listed in its chunk with its row, and a span's start where a row's
 * bucket or slot differs from its group's previous row's. A row without time
 * has bucket SPOOR_NULL. Returns the number of span starts. */
static size_t place_rows(struct spoor_series_run *run, struct series_worker *w, const struct spoor_table *b,
                         size_t nlocal)
{
    bool resample = run->opts.resample_ns > 0, profile = run->opts.profile && !run->opts.profile_from_buckets;
    int64_t offset = run->opts.utc_offset_ns, last_ts = SPOOR_NULL, bucket = SPOOR_NULL, *local_bucket = w->local_bucket;
    const int64_t *ts = b->ts;
    const uint32_t *row_local = w->row_local;
    uint32_t *next = w->local_end, *local_slot = w->local_slot, slot = SERIES_NO_KEY;
    for (size_t g = 0; g < nlocal; g++) {
        local_bucket[g] = SPOOR_NULL;
        local_slot[g] = SERIES_SLOTS; /* no slot: a group's first row starts a span */
        w->local_spans[g] = 0;
    }
    size_t nfound = 0;
    uint64_t without_time = 0;
    for (size_t r = 0; r < b->nrows; r++) {
        uint32_t local = row_local[r], p = next[local]++, i = w->chunk_next[w->local_chunk[local]]++;
        w->chunk_row[i] = (uint32_t)r;
        w->chunk_place[i] = p;
        if (ts[r] != last_ts) {
            last_ts = ts[r];
            bool timed = last_ts != SPOOR_NULL;
            bucket = !timed ? SPOOR_NULL : resample ? floor_div(last_ts + offset, run->opts.resample_ns) : 0;
            slot = timed && profile ? series_hour_weekday_slot(last_ts + offset) : SERIES_NO_KEY;
        }
        without_time += last_ts == SPOOR_NULL;
        if (bucket != local_bucket[local] || slot != local_slot[local]) {
            local_bucket[local] = bucket;
            local_slot[local] = slot;
            w->found[nfound++] = (struct series_span_start){bucket, local, p, slot};
            w->local_spans[local]++;
        }
    }
    w->rows_without_time += without_time;
    return nfound;
}

/* The spans in place order (a group's starts were found in place order), each
 * with its resample entry (asked in row order, so entries keep the order of
 * first sight), and each span's rows counted into its entry and slot. */
static void list_spans(struct series_worker *w, size_t rows, size_t nlocal, size_t nfound, bool resample)
{
    uint32_t at = 0;
    for (size_t g = 0; g < nlocal; g++) {
        w->group_spans[g] = at;
        at += w->local_spans[g];
        w->local_spans[g] = w->group_spans[g];
    }
    w->group_spans[nlocal] = at;
    for (size_t i = 0; i < nfound; i++) {
        const struct series_span_start *f = &w->found[i];
        uint32_t entry = resample && f->bucket != SPOOR_NULL
                             ? (uint32_t)series_buckets_get(&w->part->buckets, w->local_gid[f->local], f->bucket)
                             : SERIES_NO_KEY;
        w->spans[w->local_spans[f->local]++] = (struct series_span){f->start, entry, f->slot};
    }
    w->spans[nfound].start = (uint32_t)rows;
    for (size_t s = 0; s < nfound; s++) {
        uint32_t len = w->spans[s + 1].start - w->spans[s].start;
        if (w->spans[s].entry != SERIES_NO_KEY)
            w->part->buckets.rows[w->spans[s].entry] += len;
        if (w->spans[s].slot != SERIES_NO_KEY)
            w->hour_weekday_rows[w->spans[s].slot] += len;
    }
}

void series_order_rows(struct spoor_series_run *run, struct series_worker *w, const struct spoor_table *b,
                       size_t nlocal)
{
    count_places(w, nlocal);
    list_spans(w, b->nrows, nlocal, place_rows(run, w, b, nlocal), run->opts.resample_ns > 0);
}
