/* The windows made as the requests come (analyze/window_stream.h), as
 * spoor tune makes them live:
 * - the trace's lines fed a few at a time through the ftrace reader and its
 *   join, each time with the truthful watermark (the last line's time, or
 *   the oldest request in flight if earlier): the windows of spoor windows
 *   --by dev (all requests, then the watermark INT64_MAX; checked against
 *   the Python reference by tests/cli/windows.sh), feature for feature,
 *   finished before the trace ends;
 * - live: a grid from a given start finishes idle windows too, and a request
 *   that comes after its window was finished counts in the first open one;
 * - a window callback's error stops the windows and is returned. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analyze/window_stream.h"
#include "features/window_columns.h"
#include "read/blk.h"
#include "spoor/windows.h"

/* tests/data/blk/NAME, from this file's path. */
static const char *blk_data(const char *name)
{
    static char path[4096];
    const char *unit = strstr(__FILE__, "unit/test_window_stream.c");
    assert_non_null(unit);
    snprintf(path, sizeof path, "%.*sdata/blk/%s", (int)(unit - __FILE__), __FILE__, name);
    return path;
}

struct collected {
    struct window_done *w;
    size_t n;
    uint64_t finished_early;    /* windows finished before the final watermark */
    bool final;
};

static int collect(void *ctx, const struct window_done *w)
{
    struct collected *c = ctx;
    c->w = realloc(c->w, (c->n + 1) * sizeof *c->w);
    c->w[c->n++] = *w;
    c->finished_early += !c->final;
    return 0;
}

/* c's windows are spoor windows' on path, names and features exact. */
static void assert_same_as_windows(const char *path, int64_t every, struct window_stream *ws,
                                   const struct collected *c)
{
    struct spoor_load_opts opts = {.threads = 1, .no_cache = true};
    struct spoor_windows_opts wo = {.every_ns = every, .by_dev = true};
    struct spoor_windows w;
    struct spoor_load_result res;
    struct spoor_error err;
    assert_int_equal(spoor_windows_load(&path, 1, &opts, &wo, &w, &res, &err), SPOOR_OK);
    assert_true(w.nwindows > 0);
    assert_int_equal(c->n, w.nwindows);
    for (size_t i = 0; i < w.nwindows; i++) {
        const struct spoor_window *a = &w.windows[i];
        const struct window_done *b = &c->w[i];
        assert_int_equal(a->start_ns, b->start_ns);
        assert_int_equal((a->start_ns - w.windows[0].start_ns) / every, b->index);
        assert_string_equal(w.devs[a->dev], spoor_strpool_get(window_stream_devices(ws), b->dev, NULL));
        for (unsigned op = 0; op < SPOOR_WF_NOPS; op++) {
            const struct spoor_window_op *o = &a->ops[op];
            /* spoor_window_op's fields in the order of the window columns */
            const double want[SPOOR_WF_NCOLUMNS] = {
                (double)o->requests, (double)o->bytes, o->size_mean,    o->size_median, o->iops,
                o->bandwidth,        (double)o->completions, o->lat_mean, o->lat_p50,  o->lat_p99,
                o->distance_mean,    o->jump_ratio,   o->sequential_ratio, o->queue_depth_mean};
            for (unsigned col = 0; col < SPOOR_WF_NCOLUMNS; col++) {
                double got = (double)spoor_wf_column_q16(b->f, op, col) / 65536.0;
                if (got != want[col])
                    fail_msg("%s window %zu %s_%s: windows %.17g, stream %.17g", path, i, spoor_wf_op_names[op],
                             spoor_wf_columns[col].name, want[col], got);
            }
        }
    }
    spoor_windows_free(&w);
    spoor_load_result_free(&res);
}

/* The time of an ftrace event line ("... 23398.758381: block_rq_issue: ..."), or -1. */
static int64_t line_time(const char *line, const char *end)
{
    const char *colon = strstr(line, ": block_rq_");
    if (!colon || colon > end)
        return -1;
    const char *p = colon;
    while (p > line && p[-1] != ' ')
        p--;
    int64_t ns;
    return blk_seconds(p, (size_t)(colon - p), &ns) ? ns : -1;
}

/* Feeds path's text `step` lines at a time through the ftrace reader and
 * its join, advancing to the truthful watermark after each. */
static void feed_lines(const char *path, int64_t every, size_t step)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char text[1 << 20];
    size_t len = fread(text, 1, sizeof text, f);
    fclose(f);
    assert_true(len < sizeof text);
    struct spoor_read_opts ro = {0};
    struct spoor_dialect d = {0};
    struct spoor_error err;
    assert_int_equal(spoor_format_ftrace.detect(text, len, &ro, &d, &err), SPOOR_OK);
    struct spoor_table *batch = spoor_table_new();
    struct spoor_skips skips = {0};
    struct window_stream *ws = window_stream_new(every, INT64_MIN, 0);
    struct collected c = {0};
    int64_t last = INT64_MIN;
    for (const char *p = text, *end = text + len; p < end;) {
        const char *q = p;
        for (size_t n = 0; n < step && q < end; n++) {
            const char *nl = memchr(q, '\n', (size_t)(end - q));
            int64_t t = line_time(q, nl ? nl : end);
            last = t > last ? t : last;
            q = nl ? nl + 1 : end;
        }
        spoor_table_clear(batch, true);
        struct spoor_parse_job job = {.dialect = &d, .opts = &ro, .out = batch, .skips = &skips};
        assert_int_equal(spoor_format_ftrace.parse(&job, p, (size_t)(q - p), &err), SPOOR_OK);
        struct spoor_table *view = batch;
        assert_int_equal(d.format->in_order(&d, batch, &skips, path, false, &view, &err), SPOOR_OK);
        window_stream_add_batch(ws, view);
        int64_t pending = blk_format_oldest_pending(&d, INT64_MIN);
        assert_int_equal(window_stream_advance(ws, pending < last ? pending : last, collect, &c), 0);
        p = q;
    }
    c.final = true;
    assert_int_equal(window_stream_advance(ws, INT64_MAX, collect, &c), 0);
    assert_same_as_windows(path, every, ws, &c);
    assert_true(c.n < 3 || c.finished_early > 0); /* windows were finished as the lines came */
    free(c.w);
    window_stream_free(ws);
    spoor_table_free(batch);
    d.format->release(&d);
}

static void lines_fed_live_equal_windows(void **state)
{
    (void)state;
    feed_lines(blk_data("ftrace_dd.txt"), 1000000, 1);
    feed_lines(blk_data("ftrace_dd.txt"), 1000000, 37);
    feed_lines(blk_data("ftrace_dd.txt"), 250000, 500);
    feed_lines(blk_data("ftrace_edge.txt"), 2000, 1);
    feed_lines(blk_data("ftrace_edge.txt"), 1000, 3);
}

/* One request row of device "8,0" (a batch as the join gives it). */
static void add_request(struct window_stream *ws, int64_t ts, int64_t dur, uint64_t sector)
{
    struct spoor_table *t = spoor_table_new();
    char line[256];
    snprintf(line, sizeof line,
             "x-1 [000] ..... %lld.%09lld: block_rq_issue: 8,0 R 4096 () %llu + 8 [x]\n"
             "x-1 [000] ..... %lld.%09lld: block_rq_complete: 8,0 R () %llu + 8 [0]\n",
             (long long)(ts / 1000000000), (long long)(ts % 1000000000), (unsigned long long)sector,
             (long long)((ts + dur) / 1000000000), (long long)((ts + dur) % 1000000000),
             (unsigned long long)sector);
    struct spoor_read_opts ro = {0};
    struct spoor_dialect d = {0};
    struct spoor_error err;
    struct spoor_skips skips = {0};
    assert_int_equal(spoor_format_ftrace.detect(line, strlen(line), &ro, &d, &err), SPOOR_OK);
    struct spoor_parse_job job = {.dialect = &d, .opts = &ro, .out = t, .skips = &skips};
    assert_int_equal(spoor_format_ftrace.parse(&job, line, strlen(line), &err), SPOOR_OK);
    struct spoor_table *view = t;
    assert_int_equal(d.format->in_order(&d, t, &skips, "test", false, &view, &err), SPOOR_OK);
    window_stream_add_batch(ws, view);
    d.format->release(&d);
    spoor_table_free(t);
}

static void live_grid_finishes_idle_and_late_windows(void **state)
{
    (void)state;
    const int64_t s = 1000000000;
    struct window_stream *ws = window_stream_new(s, 10 * s, WINDOW_STREAM_EMPTY_TOO);
    spoor_strpool_intern(window_stream_devices(ws), "8,0", 3);
    struct collected c = {0};
    assert_int_equal(window_stream_advance(ws, 12 * s + 1, collect, &c), 0);
    assert_int_equal(c.n, 2 * 2);   /* windows 0 and 1, idle, of "" and "8,0" */
    assert_int_equal(c.w[3].index, 1);
    assert_int_equal(c.w[3].start_ns, 11 * s);
    assert_int_equal(c.w[3].f[SPOOR_WF_READ].requests, 0);
    add_request(ws, 11 * s + 5, 1000, 64);         /* issued in window 1, finished already */
    add_request(ws, 12 * s + 5, s + 10, 128);      /* issued in 2, completed in 3 */
    assert_int_equal(window_stream_advance(ws, 13 * s, collect, &c), 0);
    assert_int_equal(c.n, 6);
    assert_int_equal(c.w[5].index, 2);
    assert_int_equal(c.w[5].f[SPOOR_WF_READ].requests, 2);     /* the late one counts in window 2 */
    assert_int_equal(c.w[5].f[SPOOR_WF_READ].completions, 1);
    assert_int_equal(window_stream_advance(ws, 14 * s, collect, &c), 0);
    assert_int_equal(c.n, 8);
    assert_int_equal(c.w[7].f[SPOOR_WF_READ].requests, 0);
    assert_int_equal(c.w[7].f[SPOOR_WF_READ].completions, 1); /* its completion's window */
    assert_int_equal(c.w[7].f[SPOOR_WF_READ].latency_p50, spoor_wf_bucket_floor(spoor_wf_bucket(s + 10)));
    free(c.w);
    window_stream_free(ws);
}

static int fail_second(void *ctx, const struct window_done *w)
{
    (void)w;
    return ++*(int *)ctx == 2 ? 7 : 0;
}

static void callback_error_stops(void **state)
{
    (void)state;
    const int64_t s = 1000000000;
    struct window_stream *ws = window_stream_new(s, 0, 0);
    add_request(ws, s / 2, 1000, 64);
    add_request(ws, 3 * s / 2, s, 128);             /* completed in window 2 */
    add_request(ws, 7 * s / 2, 1000, 256);
    int calls = 0;
    assert_int_equal(window_stream_advance(ws, INT64_MAX, fail_second, &calls), 7);
    assert_int_equal(calls, 2);
    calls = 2;     /* the windows up to the watermark are gone with the error */
    assert_int_equal(window_stream_advance(ws, INT64_MAX, fail_second, &calls), 0);
    assert_int_equal(calls, 2);
    window_stream_free(ws);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lines_fed_live_equal_windows),
        cmocka_unit_test(live_grid_finishes_idle_and_late_windows),
        cmocka_unit_test(callback_error_stops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
