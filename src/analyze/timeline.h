/* The timeline of `spoor report`: millions of events reduced, in one
 * streaming pass, to what a zoomable view draws (like Perfetto's quantized
 * tracks), plus the exact events a view zoomed in far enough shows.
 *
 * Lanes. Every thread has two lanes: its calls, and its application phases
 * (events of the phase cats, TIMELINE_PHASE_CATS by default: spoor's own
 * "app", MLPerf log records and intervals, plain log records), drawn on top.
 * Events without a pid (a log's records, an MLPerf run's epochs) form the
 * lanes of pid null: the run-wide row. Utilisation samples (counter_samples.h)
 * are no events here; their tracks are timeline_counters.h's. A process lane
 * is the sum of its threads' lanes of that kind; thread lanes (for a view that
 * opens a process) are kept when there are at most opts.thread_lanes threads.
 * A cell's key, what colours it, is the cat in a calls lane and the event's
 * name in a phases lane.
 *
 * The pyramid. Buckets are 2^shift ns wide, aligned to 0. Per (lane, bucket):
 *   count  events that start in the bucket;
 *   busy   the sum over events of their ns inside the bucket (nested calls
 *          and threads each count, so busy can pass the width);
 *   key    the dominant key: most busy ns, then most starts, then first by
 *          text.
 * Both sums add up exactly over buckets, levels and lanes. Level 0 is the
 * finest; each next level doubles the width, up to the first whose buckets
 * over the run are at most opts.columns (about a screen's pixel columns). The
 * finest width is the smallest 2^shift >= 2^opts.min_shift at which the
 * distinct (thread lane, key, bucket) cells number at most opts.cells, and so
 * do the buckets spanned by events longer than TIMELINE_SHORT of them: while
 * streaming, a worker whose own cells pass opts.cells (counted whenever its
 * log reaches 2 x opts.cells records) widens its buckets (merging
 * them) to the narrowest width at which its own cells number at most
 * opts.cells; the whole run's cells pass opts.cells at every narrower width
 * too, so the answer is the same for any --threads, and the sooner a worker
 * widens, the fewer cells it logs. Only buckets with events are stored. Levels are
 * emitted coarsest first while the cells so far stay within 3 x opts.cells;
 * finer ones past that are left out (`levels` says how many are in).
 *
 * Tiles. The exact events of one thread lane that start in one window of
 * 2^tile_shift ns. A tile keeps its opts.tile_events (K) longest events
 * (then earliest, then by cat and name), and records how many started in it.
 * The width is the narrowest (from 2^opts.tile_min_shift) at which all tiles
 * together keep at most opts.events: where events are dense the windows
 * widen until K per window fits, so the kept events spread evenly over the
 * run, the long calls that shape a view stay, and a tile says how many of
 * its events are not embedded. Workers widen their own tiles as the cells
 * (once theirs keep more than opts.events), so again any --threads gives the same
 * tiles. Should even one tile per lane keep more than the budget, every tile
 * keeps its K' longest, K' the largest that fits. A view zoomed past the
 * finest level draws the kept events of the tiles it shows. An event is in
 * the tile of its start: a view reads tiles from its left edge minus the
 * lane's longest kept event. */
#ifndef SPOOR_ANALYZE_TIMELINE_H
#define SPOOR_ANALYZE_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/table.h"

#define TIMELINE_PHASE_CATS "app,mllog,log"

struct timeline_opts {
    const char *phase_cats;     /* comma-separated; NULL = TIMELINE_PHASE_CATS */
    size_t cells;               /* finest cells; 0 = 131072 */
    size_t columns;             /* coarsest level's buckets over the run; 0 = 2048 */
    size_t tile_events;         /* K per tile; 0 = 64 */
    size_t events;              /* exact events kept in all; 0 = 150000 */
    size_t thread_lanes;        /* thread lanes kept up to this many threads; 0 = 256 */
    int min_shift;              /* finest width at least 2^min_shift ns; 0 = 14 (16 us) */
    int tile_min_shift;         /* tiles at least 2^tile_min_shift ns wide; 0 = 20 (1 ms) */
};

struct timeline_lane {
    int64_t pid, tid;           /* tid SPOOR_NULL: a process lane */
    bool phases;                /* the phases lane, else the calls lane */
    int64_t longest;            /* the longest kept event's dur (thread lanes) */
};

struct timeline_cell {
    uint32_t lane;
    int64_t bucket;             /* index at the level's width, aligned to 0 */
    uint64_t count;
    int64_t busy;
    uint32_t key;               /* a string id */
};

struct timeline_level {
    int shift;                  /* width 2^shift ns */
    struct timeline_cell *cells; /* by lane, then bucket */
    size_t ncells;
};

struct timeline_event {
    int64_t ts, dur, bytes;     /* bytes SPOOR_NULL when none */
    uint32_t cat, name;         /* string ids */
};

struct timeline_tile {
    uint32_t lane;              /* a thread lane */
    int64_t index;              /* window index at width 2^tile_shift */
    uint64_t events;            /* events that start in it */
    struct timeline_event *kept; /* the kept ones, longest first */
    size_t nkept;
};

struct timeline {
    int64_t first_ts, last_end; /* SPOOR_NULL when no timed event */
    uint64_t events;            /* timed events placed */
    uint64_t out_of_range;      /* events too far from the first to place */
    int shift;                  /* the finest width */
    size_t columns;
    struct timeline_lane *lanes; /* process lanes (by pid, calls first), then thread lanes */
    size_t nlanes, nprocess_lanes;
    bool thread_lanes;          /* thread lanes are in */
    struct timeline_level *levels; /* finest first */
    size_t nlevels, nlevels_dropped;
    struct timeline_tile *tiles; /* by lane, then index */
    size_t ntiles;
    int tile_shift;             /* tiles are 2^tile_shift ns wide */
    size_t tile_events;         /* the K every tile keeps at most */
    uint64_t kept, omitted;
    const char **strings;       /* by id, sorted */
    size_t nstrings;
    struct spoor_strpool *pool; /* owns the strings */
};

struct timeline_run;

/* Per-worker state for `threads` workers; timeline_add is a loader map():
 * any worker may be given any batch, in any order. */
struct timeline_run *timeline_begin(const struct timeline_opts *opts, int threads);
void timeline_add(struct timeline_run *run, int worker, const struct spoor_table *batch);
/* Merges the workers into out and frees the run. */
void timeline_end(struct timeline_run *run, struct timeline *out);
void timeline_free(struct timeline *t);

/* The timeline_* sheets of a report (timeline_sheets.c has their layout);
 * names name the lanes. */
struct spoor_report;
struct proc_names;
void timeline_sheets(struct spoor_report *r, const struct timeline *t, const struct proc_names *names);

#endif
