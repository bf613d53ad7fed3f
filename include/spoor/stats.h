/* `spoor stats` as a streaming recipe: per-thread accumulators fed batch by
 * batch from the loader's map(), merged at the end into sorted, deterministic
 * totals. Memory is bounded by the number of distinct (cat, name) pairs, files,
 * hosts, processes and threads, never by the number of events. */
#ifndef SPOOR_STATS_H
#define SPOOR_STATS_H

#include <stdint.h>

#include "spoor/expr.h"
#include "spoor/load.h"
#include "spoor/report.h"
#include "spoor/table.h"

struct spoor_dur_stats {
    uint64_t count;         /* events */
    uint64_t timed;         /* events with a duration */
    int64_t sum, min, max;  /* ns, over timed events */
};

struct spoor_stats_group {
    const char *cat, *name; /* name is NULL in per-cat groups */
    struct spoor_dur_stats dur;
};

struct spoor_stats {
    uint64_t events, metadata_events;
    int64_t first_ts, last_end; /* SPOOR_NULL when no timed event */
    uint64_t files, hosts, processes, threads;
    struct spoor_stats_group *by_cat, *by_name; /* sorted by cat, then name */
    size_t nby_cat, nby_name;
    struct spoor_strpool *strings;              /* owns the cat/name strings */
};

struct spoor_stats_run;

/* Accumulators for `threads` workers; sink() feeds them from spoor_load. */
SPOOR_API struct spoor_stats_run *spoor_stats_begin(int threads);
/* map() counts events, reduce() files and hosts (they need the metadata of
 * the inputs in order). */
SPOOR_API struct spoor_sink spoor_stats_sink(struct spoor_stats_run *run);
/* Merges every worker's state into out and frees the run. */
SPOOR_API void spoor_stats_end(struct spoor_stats_run *run, struct spoor_stats *out);
SPOOR_API void spoor_stats_free(struct spoor_stats *s);

/* `spoor stats` over traces: the run above in one pass, its rows filtered by
 * where (NULL: every row). Fills out (free it with spoor_stats_free) and
 * loaded, whatever the status. */
SPOOR_API int spoor_stats_load(const char *const *paths, size_t npaths, const struct spoor_load_opts *opts,
                               const struct spoor_expr *where, struct spoor_stats *out, struct spoor_stream_load *loaded,
                               struct spoor_error *err);
/* The result as a report: a table's header lines (where, each input of res,
 * the counts) and tables by cat and by name, JSON's members, CSV's one table;
 * where is the --where text (NULL: none). */
SPOOR_API struct spoor_report *spoor_stats_report(const struct spoor_stats *s, const struct spoor_load_result *res,
                                                  const char *where);

/* A rows sheet "inputs" of the report, shown in `formats`: per input its path,
 * dialect, units, sizes, lines, rows, skipped lines by reason and warning. */
struct spoor_report;
SPOOR_API void spoor_stats_inputs_sheet(struct spoor_report *r, const struct spoor_load_result *res, unsigned formats);

/* The args the recipe reads: load with SPOOR_ARGS_LISTED and these keys. */
SPOOR_API extern const char *const spoor_stats_arg_keys[];
SPOOR_API extern const size_t spoor_stats_n_arg_keys;

#endif
