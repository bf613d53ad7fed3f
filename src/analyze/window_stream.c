/* Windows of block requests closed as they come (window_stream.h).
 *
 * Requests wait in arrival order until the watermark passes the end of their
 * issue's window; then those of the windows to finish are sorted by (window,
 * device, issue time, arrival) and go through one accumulator per device,
 * window by window. A completion in a later window than its issue waits in
 * `late` for that window (completions only add latencies: their order within
 * a window does not matter). */
#include "analyze/window_stream.h"

#include <stdlib.h>
#include <string.h>

#include "spoor/error.h"
#include "util/grow.h"
#include "util/radix_sort.h"

/* A completion waiting for the window of its completion time. */
struct late {
    uint64_t group;
    uint32_t dev;
    uint8_t op;
    uint64_t latency_ns;
};

/* A request of a window being finished, with its sort key. */
struct closing {
    uint64_t group;
    struct window_request r;
};

struct window_stream {
    int64_t every_ns, t0;
    bool started, every_window;
    uint64_t next;                      /* the first window not finished */
    struct window_request *reqs;        /* waiting, in arrival order */
    size_t n, cap;
    struct late *late;
    size_t nlate, late_cap;
    struct closing *closing;
    size_t closing_cap;
    struct spoor_strpool *devs;
    struct spoor_wf_track *tracks;      /* by device, outliving windows */
    struct spoor_wf_window *acc;        /* by device, the window being filled */
    bool *touched;                      /* by device: the window has an issue or completion */
    size_t dev_cap;
    uint64_t other;
    uint64_t added;
};

struct window_stream *window_stream_new(int64_t every_ns, int64_t t0, bool every_window)
{
    struct window_stream *ws = spoor_xcalloc(1, sizeof *ws);
    ws->every_ns = every_ns;
    ws->t0 = t0;
    ws->every_window = every_window;
    ws->devs = spoor_strpool_new();
    return ws;
}

void window_stream_free(struct window_stream *ws)
{
    if (!ws)
        return;
    free(ws->reqs);
    free(ws->late);
    free(ws->closing);
    free(ws->tracks);
    free(ws->acc);
    free(ws->touched);
    spoor_strpool_free(ws->devs);
    free(ws);
}

struct spoor_strpool *window_stream_devices(struct window_stream *ws) { return ws->devs; }
uint64_t window_stream_requests(const struct window_stream *ws) { return ws->added; }
uint64_t window_stream_others(const struct window_stream *ws) { return ws->other; }

void window_stream_add_batch(struct window_stream *ws, const struct spoor_table *b)
{
    size_t before = ws->n;
    window_requests_of_batch(b, ws->devs, &ws->reqs, &ws->n, &ws->cap, &ws->other);
    ws->added += ws->n - before;
}

/* The window of time ts; a time before the first window still open counts
 * in it (a late arrival, live). */
static uint64_t group_of(const struct window_stream *ws, int64_t ts)
{
    uint64_t g = ts <= ws->t0 ? 0 : (uint64_t)((ts - ws->t0) / ws->every_ns);
    return g < ws->next ? ws->next : g;
}

/* Room for every device named so far. */
static void fit_devices(struct window_stream *ws)
{
    size_t ndevs = spoor_strpool_count(ws->devs), old = ws->dev_cap;
    if (ndevs <= old)
        return;
    ws->dev_cap = ndevs * 2;
    ws->tracks = spoor_xrealloc(ws->tracks, ws->dev_cap * sizeof *ws->tracks);
    ws->acc = spoor_xrealloc(ws->acc, ws->dev_cap * sizeof *ws->acc);
    ws->touched = spoor_xrealloc(ws->touched, ws->dev_cap * sizeof *ws->touched);
    memset(ws->tracks + old, 0, (ws->dev_cap - old) * sizeof *ws->tracks);
    memset(ws->touched + old, 0, (ws->dev_cap - old) * sizeof *ws->touched);
    for (size_t d = old; d < ws->dev_cap; d++)
        spoor_wf_clear(&ws->acc[d]);
}

/* The number of windows the watermark finishes: those ending at or before
 * it; at INT64_MAX, every window a waiting request or completion falls in. */
static uint64_t windows_before(const struct window_stream *ws, int64_t watermark)
{
    if (watermark != INT64_MAX)
        return watermark <= ws->t0 ? 0 : (uint64_t)((watermark - ws->t0) / ws->every_ns);
    uint64_t end = ws->next;
    for (size_t i = 0; i < ws->n; i++) {
        uint64_t done = group_of(ws, ws->reqs[i].ts + ws->reqs[i].dur) + 1;
        end = done > end ? done : end;
    }
    for (size_t i = 0; i < ws->nlate; i++)
        end = ws->late[i].group + 1 > end ? ws->late[i].group + 1 : end;
    return end;
}

/* Moves the waiting requests issued before window `limit` to ws->closing,
 * ordered by (window, device, issue time), ties in arrival order, as
 * windows.c orders them: radix sorts, by issue time, then again (stable) by
 * window and device, since the window follows from the time. Returns how
 * many. */
static size_t take_closing(struct window_stream *ws, uint64_t limit)
{
    size_t n = 0, ndevs = spoor_strpool_count(ws->devs), room = ws->n ? ws->n : 1;
    uint32_t *at = spoor_xmalloc(room * sizeof *at), *rows = spoor_xmalloc(room * sizeof *rows);
    uint64_t *key = spoor_xmalloc(room * sizeof *key), *spare = spoor_xmalloc(room * sizeof *spare);
    struct spoor_key_span span = spoor_key_span_start();
    for (size_t i = 0; i < ws->n; i++)
        if (group_of(ws, ws->reqs[i].ts) < limit) {
            at[n] = (uint32_t)i;
            key[n] = spoor_radix_signed_key(ws->reqs[i].ts);
            spoor_key_span_add(&span, key[n++]);
        }
    spoor_radix_sort_rows(rows, NULL, n, key, spare, &span);
    for (size_t i = 0; i < n; i++)
        key[i] = (group_of(ws, ws->reqs[at[i]].ts) - ws->next) * ndevs + ws->reqs[at[i]].dev;
    spoor_radix_sort_rows_again(rows, n, key);
    spoor_reserve((void **)&ws->closing, &ws->closing_cap, n ? n : 1, sizeof *ws->closing);
    for (size_t i = 0; i < n; i++) {
        const struct window_request *q = &ws->reqs[at[rows[i]]];
        ws->closing[i] = (struct closing){.group = group_of(ws, q->ts), .r = *q};
    }
    size_t kept = 0;    /* the rest wait, in arrival order */
    for (size_t i = 0, k = 0; i < ws->n; i++) {
        if (k < n && at[k] == i)
            k++;
        else
            ws->reqs[kept++] = ws->reqs[i];
    }
    ws->n = kept;
    free(at);
    free(rows);
    free(key);
    free(spare);
    return n;
}

/* The next window with something in it, from k on (and before limit). */
static uint64_t next_busy(const struct window_stream *ws, uint64_t k, const struct closing *c, const struct closing *end,
                          uint64_t limit)
{
    uint64_t busy = c < end ? c->group : limit;
    for (size_t i = 0; i < ws->nlate; i++)
        busy = ws->late[i].group < busy ? ws->late[i].group : busy;
    return busy > k ? busy : k;
}

/* Window k: its issues (c up to the first of a later window), the
 * completions waiting for it, then one finished window per device with
 * something in it (or every device). Returns the first request not in k. */
static const struct closing *fill_window(struct window_stream *ws, uint64_t k, const struct closing *c,
                                         const struct closing *end)
{
    for (; c < end && c->group == k; c++) {
        const struct window_request *q = &c->r;
        spoor_wf_issue(&ws->acc[q->dev], &ws->tracks[q->dev], q->op, q->sector, q->bytes, q->queue_depth);
        ws->touched[q->dev] = true;
        uint64_t done = group_of(ws, q->ts + q->dur);
        if (done <= k) { /* < k: issued and completed in windows finished before it came (live) */
            spoor_wf_complete(&ws->acc[q->dev], q->op, (uint64_t)q->dur);
        } else {
            spoor_reserve((void **)&ws->late, &ws->late_cap, ws->nlate + 1, sizeof *ws->late);
            ws->late[ws->nlate++] = (struct late){done, q->dev, q->op, (uint64_t)q->dur};
        }
    }
    for (size_t i = 0; i < ws->nlate;) {
        if (ws->late[i].group != k) {
            i++;
            continue;
        }
        spoor_wf_complete(&ws->acc[ws->late[i].dev], ws->late[i].op, ws->late[i].latency_ns);
        ws->touched[ws->late[i].dev] = true;
        ws->late[i] = ws->late[--ws->nlate];
    }
    return c;
}

int window_stream_advance(struct window_stream *ws, int64_t watermark, window_done_fn done, void *ctx)
{
    if (!ws->started) {
        if (ws->t0 == INT64_MIN) {
            /* the first issue: known once the watermark is past the earliest
             * one waiting (no request issued before the watermark is to come) */
            int64_t first = INT64_MAX;
            for (size_t i = 0; i < ws->n; i++)
                first = ws->reqs[i].ts < first ? ws->reqs[i].ts : first;
            if (!ws->n || (first >= watermark && watermark != INT64_MAX))
                return 0;
            ws->t0 = first;
        }
        ws->started = true;
    }
    uint64_t limit = windows_before(ws, watermark);
    if (limit <= ws->next)
        return 0;
    fit_devices(ws);
    size_t ndevs = spoor_strpool_count(ws->devs);
    size_t nclosing = take_closing(ws, limit);
    const struct closing *c = ws->closing, *end = ws->closing + nclosing;
    for (uint64_t k = ws->next; k < limit; k++) {
        if (!ws->every_window && (k = next_busy(ws, k, c, end, limit)) >= limit)
            break;
        c = fill_window(ws, k, c, end);
        ws->next = k + 1;
        for (uint32_t d = 0; d < ndevs; d++) {
            if (!ws->touched[d] && !ws->every_window)
                continue;
            ws->touched[d] = false;
            struct window_done w = {.index = k, .start_ns = ws->t0 + (int64_t)k * ws->every_ns, .dev = d};
            spoor_wf_finish(&ws->acc[d], (uint64_t)ws->every_ns, w.f);
            int st = done(ctx, &w);
            if (st)
                return st;
        }
    }
    ws->next = limit > ws->next ? limit : ws->next;
    return 0;
}
