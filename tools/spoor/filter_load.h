/* The load/filter/write loop shared by the commands that write rows
 * (events, export): traces are loaded, each batch is filtered with --where,
 * and the selected rows are handed to a consumer in input order, batch after
 * batch, so memory stays bounded whatever the trace size.
 *
 * Workers filter each batch as it is parsed (map); batches reach the consumer
 * in input order (reduce), so the output is the same for any --threads. An
 * expression that reads file, host or line is evaluated in reduce instead:
 * file and host need the FH/HH metadata of every earlier batch, and line
 * numbers are only absolute there. The consumer sees every batch, even one
 * with no selected row, so it can learn the batch's lookups. A consumer may
 * also prepare the selected rows on the workers (filter_load_prepare_with). */
#ifndef SPOOR_FILTER_LOAD_H
#define SPOOR_FILTER_LOAD_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

#include "spoor/expr.h"
#include "spoor/load.h"

/* Writes rows sel[0..n) of batch (sel is NULL for all rows); res gives file
 * and host, or is NULL when nothing asked for them. */
typedef int (*filter_load_consume)(void *ctx, const struct spoor_table *batch, const struct spoor_resolved *res,
                                   const uint32_t *sel, size_t n, struct spoor_error *err);

/* Optional: sees rows sel[0..n) of each batch on the worker that parsed it
 * (in any order, in parallel), before the consumer gets them in input
 * order; worker is 0..threads-1. Not called when --where needs input order. */
typedef int (*filter_load_prepare)(void *ctx, int worker, const struct spoor_table *batch, const uint32_t *sel,
                                   size_t n);

struct filter_load;

/* Compiles --where and splits --columns (either may be NULL); on bad usage
 * prints one line and returns false. */
bool filter_load_parse_args(const char *cmd, const char *where, const char *columns, struct spoor_expr **expr,
                            char ***cols, size_t *ncols);

/* cmd names the command in messages. expr may be NULL. With explicit columns
 * only the args they, the filter and the resolver read are parsed (opts is
 * adjusted); without, every arg is read and file and host are resolved. */
struct filter_load *filter_load_new(const char *cmd, const struct spoor_expr *expr, char *const *cols,
                                    size_t ncols, struct spoor_load_opts *opts);
void filter_load_free(struct filter_load *f);

/* Sets the consumer's prepare step (before filter_load_run). */
void filter_load_prepare_with(struct filter_load *f, filter_load_prepare prepare);

/* Runs the load; a consumer failure is reported as the consumer put it. */
int filter_load_run(struct filter_load *f, const char *const *paths, size_t npaths,
                    const struct spoor_load_opts *opts, filter_load_consume consume, void *ctx,
                    struct spoor_load_result *result, struct spoor_error *err);

/* Warnings on stderr after a successful run: --where args columns and
 * `missing` --columns names that no input had (with the closest known name). */
/* Callers pass at most this many names of each kind. */
enum { FILTER_LOAD_REPORT_MAX = 64 };

void filter_load_report(const struct filter_load *f, const char *const *missing, size_t nmissing);

#endif
