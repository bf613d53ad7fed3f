/* Stage 2 of the series recipe (see series_internal.h): one batch's pass, on
 * the worker that maps it. Its rows are put in group order, then chunk by
 * chunk each metric's values are read in that order and summed per group
 * into the batch's partial, which reduce (series.c) merges into the totals. */
#include "analyze/series_internal.h"
#include "spoor/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* A span with no resample entry or no hour x weekday slot. */
#define SERIES_NO_KEY UINT32_MAX
/* A chunk's values, 64 KiB a metric, stay in the cache for the group pass. */
enum { SERIES_CHUNK_PLACES = 8192 };

/* A batch in group order. Groups come interleaved row by row (one row per
 * node and time), so sums kept per (group, metric) while walking the rows load
 * and store an accumulator for every value. A counting sort by batch-local
 * group gives each row a place where its group's rows lie together, and the
 * places split into spans sharing group, resample bucket and hour x weekday
 * slot: the group pass sums each span's values in registers and adds them to
 * those tables once (the group pass, below). */

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
            bucket = !timed ? SPOOR_NULL : resample ? series_floor_div(last_ts + offset, run->opts.resample_ns) : 0;
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

/* Orders the batch's rows by local group (each row's place), groups them in
 * chunks of about SERIES_CHUNK_PLACES places and splits the places into
 * spans; counts the rows of each resample entry and hour x weekday slot, and
 * the rows without time. */
static void order_rows(struct spoor_series_run *run, struct series_worker *w, const struct spoor_table *b,
                       size_t nlocal)
{
    count_places(w, nlocal);
    list_spans(w, b->nrows, nlocal, place_rows(run, w, b, nlocal), run->opts.resample_ns > 0);
}

/* A metric column's values at a chunk's places in group order (above) as
 * dense doubles, NaN where a row holds no number: I64,
 * F64 and text columns alike, text parsed with strtod. A float column whose
 * rows all hold a value (the usual metric) is read as it is; any other is
 * converted once a batch, in row order. */

/* Whether text is a whole finite number; its value in *v. */
static bool text_number(const char *s, double *v)
{
    char *end;
    *v = strtod(s, &end);
    return end != s && *end == '\0' && isfinite(*v);
}

/* Whether a column is a float column whose validity words are full: every
 * row holds a value (the usual metric), so its own array serves as it is. */
static bool plain_floats(const struct spoor_column *c, size_t rows)
{
    if (!c->typed || c->type != SPOOR_F64)
        return false;
    for (size_t i = 0; i < rows / 64; i++)
        if (c->valid[i] != ~0ULL)
            return false;
    return rows % 64 == 0 || c->valid[rows / 64] == (1ULL << (rows % 64)) - 1;
}

double *series_column_source(const struct spoor_table *b, const struct spoor_column *c, double *scratch,
                             uint64_t *non_numeric)
{
    if (plain_floats(c, b->nrows))
        return c->f64;
    for (size_t r = 0; r < b->nrows; r++) {
        scratch[r] = NAN;
        if (!c->typed || !spoor_column_valid(c, r))
            continue;
        double v;
        if (c->type == SPOOR_F64)
            v = c->f64[r];
        else if (c->type == SPOOR_I64)
            v = (double)c->i64[r];
        else if (!text_number(spoor_table_str(b, c->str[r]), &v))
            v = NAN;
        if (isfinite(v))
            scratch[r] = v;
        else
            ++*non_numeric;
    }
    return scratch;
}

/* out[place[i] - first] = x[row[i]], two a step; returns how many are numbers
 * (not NaN), and in *finite whether all are finite (1e999 reads as inf): no
 * v - v is other than 0 (an OR over the pairs, not a chain of adds). */
static size_t copy_values(const double *x, const uint32_t *row, const uint32_t *place, size_t n, uint32_t first,
                          double *out, bool *finite)
{
    typedef double pair __attribute__((vector_size(16)));
    typedef int64_t pair_mask __attribute__((vector_size(16)));
    /* The reads wait on memory (a batch's column is first touched here), and
     * skip through it where the chunk's groups interleave with others: asking
     * for the value this many rows of the list ahead gained ~8 % of the pass
     * (16 to 1024 tried). */
    enum { ahead = 192 };
    pair_mask odd = {0, 0}, numbers = {0, 0}; /* minus the count: a true compare is -1 */
    size_t i = 0;
    for (; i + 2 <= n; i += 2) {
        if (i + ahead < n)
            __builtin_prefetch(x + row[i + ahead]);
        pair v = {x[row[i]], x[row[i + 1]]};
        out[place[i] - first] = v[0];
        out[place[i + 1] - first] = v[1];
        odd |= v - v != (pair){0, 0};
        numbers += v == v;
    }
    bool any = odd[0] | odd[1];
    size_t count = (size_t)-(numbers[0] + numbers[1]);
    for (; i < n; i++) {
        double v = x[row[i]];
        out[place[i] - first] = v;
        any |= !(v - v == 0);
        count += v == v;
    }
    *finite = !any;
    return count;
}

/* out[place[i] - first] = source[row[i]] for n rows; returns how many are
 * numbers. A non-finite value in a column's `own` array (rare) becomes NaN
 * and counts as there but not a number. */
static size_t column_values(const double *source, bool own, const uint32_t *row, const uint32_t *place, size_t n,
                            uint32_t first, double *out, uint64_t *non_numeric)
{
    bool finite;
    size_t numbers = copy_values(source, row, place, n, first, out, &finite);
    if (finite || !own)
        return numbers; /* a converted source holds no non-finite number: its NaN are no number */
    numbers = 0;
    for (size_t i = 0; i < n; i++) {
        double *v = &out[place[i] - first];
        bool number = *v - *v == 0;
        *v = number ? *v : NAN;
        numbers += number;
        *non_numeric += !number;
    }
    return numbers;
}

/* The group pass over a batch in group order, group by group: per metric
 * each span's count, sum, minimum and maximum, summed in registers and added
 * whole to the group's moments, its resample bucket and its hour x weekday
 * slot; then the squared deviations about the group's mean and the
 * co-moments, while the group's values are in the cache. */

typedef double pair __attribute__((vector_size(16)));

/* Lane by lane: x when x < lo, else lo (so a NaN x keeps lo); one minpd on SSE2. */
static pair lower(pair x, pair lo)
{
#if defined(__SSE2__)
    return (pair)_mm_min_pd((__m128d)x, (__m128d)lo);
#else
    typedef int64_t pair_mask __attribute__((vector_size(16)));
    pair_mask less = x < lo;
    return (pair)(((pair_mask)x & less) | ((pair_mask)lo & ~less));
#endif
}

/* Lane by lane: x when x > hi, else hi. */
static pair higher(pair x, pair hi)
{
#if defined(__SSE2__)
    return (pair)_mm_max_pd((__m128d)x, (__m128d)hi);
#else
    typedef int64_t pair_mask __attribute__((vector_size(16)));
    pair_mask more = x > hi;
    return (pair)(((pair_mask)x & more) | ((pair_mask)hi & ~more));
#endif
}

static pair load_pair(const double *x)
{
    pair v;
    memcpy(&v, x, sizeof v);
    return v;
}

/* Count, sum, minimum and maximum of the numbers in x[0..len). Values with
 * gaps (NaN) take the scalar loop that tests each; gap-free ones go four pairs
 * of lanes a step first, folded two by two before the running values, so
 * each of those waits on one add, min or max per eight values (-20 % of the
 * group pass against one per four). */
static struct spoor_moments span_sums(const double *x, size_t len, bool gap_free)
{
    pair sum0 = {0, 0}, sum1 = {0, 0}, lo0 = {INFINITY, INFINITY}, lo1 = lo0, hi0 = -lo0, hi1 = hi0;
    size_t i = 0;
    if (gap_free)
        for (; i + 8 <= len; i += 8) {
            pair a = load_pair(x + i), b = load_pair(x + i + 2), c = load_pair(x + i + 4), d = load_pair(x + i + 6);
            sum0 += a + c;
            sum1 += b + d;
            lo0 = lower(lower(a, c), lo0);
            lo1 = lower(lower(b, d), lo1);
            hi0 = higher(higher(a, c), hi0);
            hi1 = higher(higher(b, d), hi1);
        }
    pair lo = lower(lo0, lo1), hi = higher(hi0, hi1);
    struct spoor_moments m = {.n = i,
                              .sum = (sum0[0] + sum1[0]) + (sum0[1] + sum1[1]),
                              .min = lo[0] < lo[1] ? lo[0] : lo[1],
                              .max = hi[0] > hi[1] ? hi[0] : hi[1]};
    for (; i < len; i++)
        if (x[i] == x[i]) {
            m.n++;
            m.sum += x[i];
            m.min = x[i] < m.min ? x[i] : m.min;
            m.max = x[i] > m.max ? x[i] : m.max;
        }
    return m;
}

/* Sum of the squared deviations about mean of the numbers in x[0..len); with
 * `write` each value becomes its deviation. Gap-free values go two pairs of
 * lanes a step first (four, as in span_sums, gained nothing here). */
static double squared_deviations(double *x, size_t len, double mean, bool gap_free, bool write)
{
    pair centre = {mean, mean}, sum0 = {0, 0}, sum1 = {0, 0};
    size_t i = 0;
    if (gap_free)
        for (; i + 4 <= len; i += 4) {
            pair a = load_pair(x + i), b = load_pair(x + i + 2);
            a -= centre;
            b -= centre;
            if (write) {
                memcpy(x + i, &a, sizeof a);
                memcpy(x + i + 2, &b, sizeof b);
            }
            sum0 += a * a;
            sum1 += b * b;
        }
    double sum = (sum0[0] + sum1[0]) + (sum0[1] + sum1[1]);
    for (; i < len; i++)
        if (x[i] == x[i]) {
            double d = x[i] - mean;
            sum += d * d;
            if (write)
                x[i] = d;
        }
    return sum;
}

/* Metric k's count, sum, minimum and maximum over local group g, span by
 * span, each span's also added to its bucket's and slot's sums. */
static void group_sums(struct series_worker *w, const struct batch_view *v, size_t k, size_t g,
                       struct spoor_moments *m)
{
    series_moments_init(m);
    const double *x = v->values[k];
    struct series_partial *p = w->part;
    bool gap_free = v->numbers[k] == v->places;
    const struct series_span *end = &w->spans[w->group_spans[g + 1]];
    for (const struct series_span *s = &w->spans[w->group_spans[g]]; s < end; s++) {
        struct spoor_moments part = span_sums(x + (s->start - v->first), s[1].start - s->start, gap_free);
        m->n += part.n;
        m->sum += part.sum;
        m->min = part.min < m->min ? part.min : m->min;
        m->max = part.max > m->max ? part.max : m->max;
        if (s->entry != SERIES_NO_KEY)
            series_bucket_add(&p->buckets.sums[(size_t)s->entry * p->n + k], part.n, part.sum);
        if (s->slot != SERIES_NO_KEY)
            series_bucket_add(&p->hour_weekday[(size_t)s->slot * p->n + k], part.n, part.sum);
    }
}

/* The group's co-moments per metric pair (a, c), merged into the batch's.
 * With deviations (every value a number) the products of metric a with
 * metrics c and c + 1 are taken in one pass (series_dot2). */
static void group_comoments(struct series_worker *w, const struct batch_view *v, const struct spoor_moments *m,
                            uint32_t start, uint32_t len, bool deviate)
{
    size_t n = v->n;
    for (size_t a = 0; a < n; a++)
        for (size_t c = a + 1; c < n; c += 2) {
            const double *x = v->values[a] + (start - v->first);
            double dot[2];
            if (deviate)
                series_dot2(x, v->values[c] + (start - v->first), v->values[c + 1 < n ? c + 1 : c] + (start - v->first),
                            len, dot);
            for (size_t j = c; j < c + 2 && j < n; j++) {
                struct spoor_comoments part;
                if (deviate)
                    part = (struct spoor_comoments){len, m[a].mean, m[j].mean, m[a].m2, m[j].m2, dot[j - c]};
                else
                    series_comoments_of(x, v->values[j] + (start - v->first), len, &part);
                series_comoments_merge(&w->part->comoments[a * n + j], &part);
            }
        }
}

/* One local group, its values at places [start, start + len): per metric the
 * moments; with corr per pair the co-moments, as dot products of deviations
 * when every metric has a number in every row (the usual case; the
 * deviations are made in place while summing their squares), else over the
 * rows where both have one. Each group's moments are the batch's for that
 * group; the co-moments merge group by group into the batch's (the pairwise
 * update), so a batch with gaps in some groups costs the slow path in those
 * only, and a group's values are still in the cache. */
static void pass_group(struct series_worker *w, const struct batch_view *v, size_t g, bool corr)
{
    size_t n = v->n;
    struct spoor_moments *m = &w->part->moments[g * n];
    uint32_t start = w->spans[w->group_spans[g]].start, len = w->local_end[g] - start;
    bool complete = true;
    for (size_t k = 0; k < n; k++) {
        group_sums(w, v, k, g, &m[k]);
        complete = complete && m[k].n == len;
    }
    bool deviate = corr && complete && n >= 2;
    for (size_t k = 0; k < n; k++) {
        if (m[k].n) {
            m[k].mean = m[k].sum / (double)m[k].n;
            m[k].m2 = squared_deviations(v->values[k] + (start - v->first), len, m[k].mean,
                                         v->numbers[k] == v->places, deviate);
        }
    }
    if (corr)
        group_comoments(w, v, m, start, len, deviate);
}

/* Gathers the values of chunk c's groups (rows in row order, each value to
 * its place). */
static void gather_chunk(struct series_worker *w, struct batch_view *v, size_t c)
{
    uint32_t first = w->spans[w->group_spans[w->chunk_group[c]]].start;
    v->first = first;
    v->places = w->local_end[w->chunk_group[c + 1] - 1] - first;
    for (size_t k = 0; k < v->n; k++)
        v->numbers[k] = column_values(v->source[k], v->source[k] == v->cols[k]->f64, w->chunk_row + first,
                                             w->chunk_place + first, v->places, first, v->values[k],
                                             &w->non_numeric[v->id[k]]);
}

static void group_pass(struct series_worker *w, struct batch_view *v, bool corr)
{
    for (size_t c = 0; c < w->nchunks; c++) {
        gather_chunk(w, v, c);
        for (size_t g = w->chunk_group[c]; g < w->chunk_group[c + 1]; g++)
            pass_group(w, v, g, corr);
    }
}

void series_rows_pass(struct spoor_series_run *run, struct series_worker *w, const struct spoor_table *b,
                      struct batch_view *v, size_t nlocal)
{
    order_rows(run, w, b, nlocal);
    group_pass(w, v, run->opts.corr);
}
