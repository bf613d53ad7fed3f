/* Windows of block requests closed as the requests come: the one way
 * windows are made, for `spoor tune` (live, or a replay) and `spoor windows`
 * (windows.c: every request added, then the watermark INT64_MAX), through
 * the accumulator the kernel module shares (features/window_features.c).
 *
 * Requests come joined (issue and completion one row), in any order, the
 * completion order of a trace. A window [start, start + every) of a device
 * can be finished once every request issued before its end is known and
 * every completion before its end too: the caller says so with a
 * *watermark*, a time before which nothing more will come. At the watermark
 * INT64_MAX (the end of a recorded trace) every window is finished: the
 * grid starts at the first issue, each device's requests reach the
 * accumulator in issue order (ties in arrival order), a completion counts in
 * the window of its completion time, and a window with neither an issue nor
 * a completion of its device is left out. The windows are the same whatever
 * watermarks came before, as long as they were true.
 *
 * Live, the grid may start at a given time instead, and every window of
 * every known device may be finished, empty or not (an idle disk still has
 * windows). A request that arrives after its issue's window was finished
 * (the watermark was wrong) is counted in the first window still open. */
#ifndef SPOOR_ANALYZE_WINDOW_STREAM_H
#define SPOOR_ANALYZE_WINDOW_STREAM_H

#include <stdint.h>

#include "analyze/window_requests.h"
#include "features/window_features.h"

struct window_stream;

/* A finished window of one device (or of all). */
struct window_done {
    uint64_t index;                             /* from the grid's start */
    int64_t start_ns;
    uint32_t dev;                               /* window_stream_devices() id; 0 for all */
    struct spoor_wf_features f[SPOOR_WF_NOPS];
};

typedef int (*window_done_fn)(void *ctx, const struct window_done *w);

enum {
    WINDOW_STREAM_EMPTY_TOO = 1,    /* every window of every known device is finished, empty or not */
    WINDOW_STREAM_ALL_DEVICES = 2,  /* one window for all devices (distances still per device) */
};

/* Windows every_ns (> 0) wide from t0, or from the first request's issue
 * when t0 is INT64_MIN; flags: WINDOW_STREAM_*, or 0. */
struct window_stream *window_stream_new(int64_t every_ns, int64_t t0, unsigned flags);
void window_stream_free(struct window_stream *ws);

/* The device names ("254,0"), ids in the order met; callers add requests
 * with these ids and may name a device before its first request. */
struct spoor_strpool *window_stream_devices(struct window_stream *ws);

/* Reads and writes of a loader batch (window_requests_of_batch). */
void window_stream_add_batch(struct window_stream *ws, const struct spoor_table *b);

/* Every batch of the block traces at paths added; an input read as another
 * format is an error: "PATH: not a block-layer trace (read as F); CMD
 * blkparse, ftrace or lttng", with cmd saying what reads them ("windows
 * reads", "tune replays"). */
int window_stream_load(struct window_stream *ws, const char *const *paths, size_t npaths,
                       const struct spoor_load_opts *opts, const char *cmd, struct spoor_load_result *res,
                       struct spoor_error *err);

/* Finishes, in order (by window, then device), every window that ends at or
 * before watermark, calling done for each; stops at done's first nonzero
 * return and returns it (the windows up to the watermark are then lost). */
int window_stream_advance(struct window_stream *ws, int64_t watermark, window_done_fn done, void *ctx);

/* Reads and writes added, and other requests left out. */
uint64_t window_stream_requests(const struct window_stream *ws);
uint64_t window_stream_others(const struct window_stream *ws);

#endif
