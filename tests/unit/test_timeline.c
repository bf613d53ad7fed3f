/* The timeline's pyramid and tiles against a brute-force reference on
 * generated events: every level's cells (count, busy, dominant key) exactly,
 * for process and thread lanes; every tile's event count and kept events (the
 * K longest, K the largest within the budget); the same answer for 1 worker
 * and for 3 workers fed batches in a shuffled order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyze/timeline.h"
#include "events_fixture.h"
#include "util/rng.h"

static const char *const cats[] = {"app", "sys", "vfs", "ext4"};
static const char *const names[] = {"read", "write", "open", "compute", "load"};

struct ev {
    int64_t ts, dur, pid, tid;
    const char *cat, *name;
};

/* n events over about `span` ns: short calls, some long ones, some instants. */
static struct ev *make_events(size_t n, int64_t span, uint64_t seed)
{
    struct spoor_rng rng;
    spoor_rng_seed(&rng, seed);
    struct ev *e = calloc(n, sizeof *e);
    for (size_t i = 0; i < n; i++) {
        uint64_t r = spoor_rng_next(&rng);
        e[i].pid = 100 + (int64_t)(r % 3);
        e[i].tid = e[i].pid * 10 + (int64_t)(r / 3 % 2);
        e[i].cat = cats[r / 7 % 4];
        e[i].name = names[r / 29 % 5];
        e[i].ts = 1000000 + (int64_t)(spoor_rng_next(&rng) % (uint64_t)span);
        uint64_t d = spoor_rng_next(&rng);
        e[i].dur = d % 10 == 0 ? (int64_t)(d % (uint64_t)(span / 4)) : d % 10 == 1 ? 0 : (int64_t)(d % 5000);
    }
    return e;
}

static struct spoor_table *table_of(const struct ev *e, size_t from, size_t to)
{
    struct spoor_table *t = spoor_table_new();
    for (size_t i = from; i < to; i++)
        fx_row(t, e[i].ts, e[i].dur, e[i].name, e[i].cat, e[i].pid, e[i].tid, 'X');
    fx_row(t, FX_NULL, FX_NULL, "FH", "dftracer", 1, 1, 'M'); /* metadata: not placed */
    return t;
}

static struct timeline_opts small = {
    .cells = 4000, .columns = 16, .tile_events = 6, .events = 200, .min_shift = 4, .tile_min_shift = 4, .phase_cats = "app"};

/* Feeds the events in `batches` batches, batch b to worker b % threads, in a
 * shuffled order. */
static void run(const struct ev *e, size_t n, int threads, size_t batches, struct timeline *out)
{
    struct timeline_run *r = timeline_begin(&small, threads);
    size_t *order = malloc(batches * sizeof *order);
    for (size_t b = 0; b < batches; b++)
        order[b] = (b * 7 + 3) % batches; /* batches coprime with 7 */
    for (size_t k = 0; k < batches; k++) {
        size_t b = order[k];
        struct spoor_table *t = table_of(e, n * b / batches, n * (b + 1) / batches);
        timeline_add(r, (int)(b % (size_t)threads), t);
        spoor_table_free(t);
    }
    free(order);
    timeline_end(r, out);
}

static bool is_phase(const struct ev *e) { return !strcmp(e->cat, "app"); }
static const char *key_of(const struct ev *e) { return is_phase(e) ? e->name : e->cat; }

static bool in_lane(const struct timeline_lane *l, const struct ev *e)
{
    return l->pid == e->pid && l->phases == is_phase(e) && (l->tid == SPOOR_NULL || l->tid == e->tid);
}

/* The reference cell of lane l, bucket b at width 2^shift. */
static void reference_cell(const struct timeline *t, const struct ev *e, size_t n, const struct timeline_lane *l,
                           int shift, int64_t b, struct timeline_cell *want)
{
    uint64_t count[8] = {0};
    int64_t busy[8] = {0};
    const char *keys[8];
    size_t nkeys = 0;
    int64_t from = b << shift, to = from + ((int64_t)1 << shift);
    for (size_t i = 0; i < n; i++) {
        if (!in_lane(l, &e[i]))
            continue;
        int64_t start = e[i].ts, end = e[i].ts + e[i].dur;
        int64_t lo = start > from ? start : from, hi = end < to ? end : to;
        bool starts = start >= from && start < to;
        if (!starts && hi <= lo)
            continue;
        size_t k = 0;
        while (k < nkeys && strcmp(keys[k], key_of(&e[i])))
            k++;
        if (k == nkeys)
            keys[nkeys++] = key_of(&e[i]);
        count[k] += starts;
        busy[k] += hi > lo ? hi - lo : 0;
    }
    *want = (struct timeline_cell){0, b, 0, 0, 0};
    size_t best = 0;
    for (size_t k = 0; k < nkeys; k++) {
        want->count += count[k];
        want->busy += busy[k];
        if (k && (busy[k] > busy[best] ||
                  (busy[k] == busy[best] && (count[k] > count[best] ||
                                             (count[k] == count[best] && strcmp(keys[k], keys[best]) < 0)))))
            best = k;
    }
    want->key = nkeys ? (uint32_t)best : UINT32_MAX;
    if (nkeys) /* the key as a string id of t */
        for (uint32_t id = 0; id < t->nstrings; id++)
            if (!strcmp(t->strings[id], keys[best]))
                want->key = id;
}

static void check_levels(const struct timeline *t, const struct ev *e, size_t n)
{
    assert_true(t->nlevels >= 1);
    for (size_t j = 0; j < t->nlevels; j++) {
        const struct timeline_level *lv = &t->levels[j];
        assert_int_equal(lv->shift, t->shift + (int)(j + t->nlevels_dropped));
        /* Every stored cell is right, and every bucket with events is stored. */
        uint64_t cells_with_events = 0;
        for (size_t c = 0; c < lv->ncells; c++) {
            const struct timeline_cell *got = &lv->cells[c];
            struct timeline_cell want;
            reference_cell(t, e, n, &t->lanes[got->lane], lv->shift, got->bucket, &want);
            assert_int_equal(got->count, want.count);
            assert_int_equal(got->busy, want.busy);
            assert_int_equal(got->key, want.key);
        }
        for (size_t l = 0; l < t->nlanes; l++) {
            if (l >= t->nprocess_lanes && !t->thread_lanes)
                continue;
            for (int64_t b = t->first_ts >> lv->shift; b <= (t->last_end - 1) >> lv->shift; b++) {
                struct timeline_cell want;
                reference_cell(t, e, n, &t->lanes[l], lv->shift, b, &want);
                cells_with_events += want.key != UINT32_MAX;
            }
        }
        assert_int_equal(cells_with_events, lv->ncells);
    }
    const struct timeline_level *top = &t->levels[t->nlevels - 1];
    assert_true(((t->last_end - 1) >> top->shift) - (t->first_ts >> top->shift) + 1 <= (int64_t)small.columns);
}

static int ev_order(const void *a, const void *b)
{
    const struct ev *x = a, *y = b;
    if (x->dur != y->dur)
        return x->dur > y->dur ? -1 : 1;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    int c = strcmp(x->cat, y->cat);
    return c ? c : strcmp(x->name, y->name);
}

/* Sum over the tiles of width 2^shift of min(events, k), by brute force. */
static uint64_t kept_at(const struct timeline *t, const struct ev *e, size_t n, int shift, size_t k)
{
    uint64_t sum = 0;
    for (size_t l = t->nprocess_lanes; l < t->nlanes; l++) {
        int64_t lo = t->first_ts >> shift, hi = (t->last_end - 1) >> shift;
        for (int64_t b = lo; b <= hi; b++) {
            size_t m = 0;
            for (size_t i = 0; i < n; i++)
                m += in_lane(&t->lanes[l], &e[i]) && e[i].ts >> shift == b;
            sum += m < k ? m : k;
        }
    }
    return sum;
}

static void check_tiles(const struct timeline *t, const struct ev *e, size_t n)
{
    int shift = t->tile_shift;
    struct ev *in = malloc(n * sizeof *in);
    uint64_t kept = 0, with_k1 = 0, events = 0;
    for (size_t i = 0; i < t->ntiles; i++) {
        const struct timeline_tile *tile = &t->tiles[i];
        const struct timeline_lane *l = &t->lanes[tile->lane];
        assert_true(tile->lane >= t->nprocess_lanes);
        size_t m = 0;
        for (size_t k = 0; k < n; k++)
            if (in_lane(l, &e[k]) && e[k].ts >> shift == tile->index)
                in[m++] = e[k];
        assert_int_equal(tile->events, m);
        qsort(in, m, sizeof *in, ev_order);
        assert_int_equal(tile->nkept, m < t->tile_events ? m : t->tile_events);
        for (size_t k = 0; k < tile->nkept; k++) {
            assert_int_equal(tile->kept[k].ts, in[k].ts);
            assert_int_equal(tile->kept[k].dur, in[k].dur);
            assert_string_equal(t->strings[tile->kept[k].cat], in[k].cat);
            assert_string_equal(t->strings[tile->kept[k].name], in[k].name);
        }
        kept += tile->nkept;
        events += m;
        with_k1 += m < t->tile_events + 1 ? m : t->tile_events + 1;
    }
    assert_int_equal(events, n);
    assert_int_equal(kept + t->omitted, n);
    assert_true(kept <= small.events);
    if (t->tile_events == small.tile_events) {
        /* K whole: the narrowest width within the budget. */
        assert_true(shift == small.tile_min_shift || kept_at(t, e, n, shift - 1, small.tile_events) > small.events);
    } else {
        /* Even a tile per lane passes the budget: K is the largest that fits. */
        assert_true(with_k1 > small.events);
    }
    free(in);
}

static void pyramid_and_tiles_match_the_reference(void **state)
{
    (void)state;
    size_t n = 3000;
    struct ev *e = make_events(n, 4000000, 7);
    struct timeline one;
    run(e, n, 1, 1, &one);
    assert_int_equal(one.events, n);
    assert_true(one.shift > small.min_shift); /* the cell cap made it wider */
    assert_true(one.thread_lanes);
    check_levels(&one, e, n);
    assert_true(one.nlevels >= 3);
    check_tiles(&one, e, n);
    assert_int_equal(one.tile_events, small.tile_events);
    assert_true(one.tile_shift > small.tile_min_shift); /* the budget widened the tiles */
    timeline_free(&one);
    /* A budget below a tile per lane: fewer events per tile. */
    small.events = 40;
    run(e, n, 2, 5, &one);
    check_tiles(&one, e, n);
    assert_true(one.tile_events < small.tile_events);
    small.events = 200;
    timeline_free(&one);
    free(e);
}

/* Same cells and tiles, whatever the workers and batches. */
static void same_answer_for_any_workers(void **state)
{
    (void)state;
    size_t n = 4000;
    struct ev *e = make_events(n, 9000000, 11);
    small.cells = 300; /* each worker alone passes 2 x cells, and widens */
    small.min_shift = 12;
    struct timeline a, b;
    run(e, n, 1, 1, &a);
    run(e, n, 3, 20, &b);
    assert_int_equal(a.shift, b.shift);
    assert_int_equal(a.nlevels, b.nlevels);
    for (size_t j = 0; j < a.nlevels; j++) {
        assert_int_equal(a.levels[j].ncells, b.levels[j].ncells);
        for (size_t c = 0; c < a.levels[j].ncells; c++) {
            const struct timeline_cell *x = &a.levels[j].cells[c], *y = &b.levels[j].cells[c];
            assert_true(x->lane == y->lane && x->bucket == y->bucket && x->count == y->count && x->busy == y->busy &&
                        x->key == y->key);
        }
    }
    assert_int_equal(a.ntiles, b.ntiles);
    assert_int_equal(a.tile_events, b.tile_events);
    for (size_t i = 0; i < a.ntiles; i++) {
        assert_int_equal(a.tile_shift, b.tile_shift);
        assert_int_equal(a.tiles[i].events, b.tiles[i].events);
        assert_int_equal(a.tiles[i].nkept, b.tiles[i].nkept);
        assert_memory_equal(a.tiles[i].kept, b.tiles[i].kept, a.tiles[i].nkept * sizeof *a.tiles[i].kept);
    }
    check_levels(&b, e, n);
    small.cells = 4000;
    small.min_shift = 4;
    timeline_free(&a);
    timeline_free(&b);
    free(e);
}

/* Nothing timed: no levels, no tiles. */
static void empty_run(void **state)
{
    (void)state;
    struct timeline_run *r = timeline_begin(&small, 2);
    struct spoor_table *t = table_of(NULL, 0, 0);
    timeline_add(r, 1, t);
    spoor_table_free(t);
    struct timeline out;
    timeline_end(r, &out);
    assert_int_equal(out.events, 0);
    assert_int_equal(out.nlevels, 0);
    assert_int_equal(out.ntiles, 0);
    assert_true(out.first_ts == SPOOR_NULL);
    timeline_free(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pyramid_and_tiles_match_the_reference),
        cmocka_unit_test(same_answer_for_any_workers),
        cmocka_unit_test(empty_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
