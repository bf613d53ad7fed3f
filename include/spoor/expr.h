/* The --where expression (described here), then a load filtered by it, for
 * the commands that write rows and for the recipes.
 *
 * The --where expression: SQL WHERE syntax over the columns of an event table.
 *
 *   cat = 'POSIX' AND name IN ('open', 'open64') AND dur >= 1ms
 *   file LIKE '%.h5' OR NOT (size IS NULL OR size < 4096)
 *
 * Columns are named as in spoor/table.h (the resolver) (fixed, file/host, args keys); "quoted"
 * names reach any args key. Literals: integers (any width), reals, 'strings'
 * ('' is a quote), NULL, and times with a unit suffix (10ns, 5us, 2.5ms, 1s),
 * which become integer nanoseconds; a bare number compared with ts or dur is in
 * ns too. Operators by precedence, loosest first: OR; AND; NOT; comparisons
 * (= == != <> < <= > >=, [NOT] IN (...), [NOT] LIKE 'p' [ESCAPE 'c'],
 * [NOT] GLOB 'p', [NOT] BETWEEN a AND b, IS [NOT] NULL); + -; * / %; unary -.
 * NULL follows SQL: a comparison with null is unknown, NOT unknown is unknown,
 * and only rows where the whole expression is true are selected. A string
 * meets a number as a number when it spells one, else the number sorts first.
 *
 * Compile once; evaluate with one context per thread, bound to each batch. */
#ifndef SPOOR_EXPR_H
#define SPOOR_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/error.h"
#include "spoor/load.h"
#include "spoor/table.h"

struct spoor_expr;

/* Parses and checks text. Errors are one line naming the 1-based position,
 * e.g. "expected ')' at position 14". */
SPOOR_API int spoor_expr_compile(const char *text, struct spoor_expr **out, struct spoor_error *err);
SPOOR_API void spoor_expr_free(struct spoor_expr *e);

/* True when the expression reads file, host or line: those are only right in
 * input order (the loader's reduce, with a resolver), not on workers. */
SPOOR_API bool spoor_expr_needs_order(const struct spoor_expr *e);

/* The columns the expression names, in order of first appearance. */
struct spoor_expr_ref {
    const char *name;       /* as written (without quotes) */
    size_t pos;             /* 1-based position of its first use */
    enum spoor_field field;
    const char *key;        /* args key for SPOOR_FIELD_ARG */
    size_t key_len;
};
SPOOR_API size_t spoor_expr_refs(const struct spoor_expr *e, const struct spoor_expr_ref **refs);

/* Per-thread evaluation state. */
struct spoor_expr_ctx;

SPOOR_API struct spoor_expr_ctx *spoor_expr_ctx_new(const struct spoor_expr *e);
SPOOR_API void spoor_expr_ctx_free(struct spoor_expr_ctx *c);
/* Prepares c for the rows of t; res gives file and host (NULL: they are null).
 * Cheap: literals are looked up in t's string pool, caches reset. */
SPOOR_API void spoor_expr_bind(struct spoor_expr_ctx *c, const struct spoor_table *t, const struct spoor_resolved *res);
/* Writes the indexes of the bound table's matching rows to sel (room for
 * t->nrows) in increasing order; returns how many. */
SPOOR_API size_t spoor_expr_select(struct spoor_expr_ctx *c, uint32_t *sel);
/* Whether args column ref i was present in any table bound to c so far. */
SPOOR_API bool spoor_expr_ctx_found(const struct spoor_expr_ctx *c, size_t i);

/* Filtering a load (src/ops/filter.c): the rows where an expression is true
 * go on, batch after batch, so memory stays bounded whatever the trace size,
 * either to a consumer (the commands that write rows: events, export) or to
 * a sink wrapped (the streaming recipes: stats, summary count a filtered
 * trace in the same one pass, knowing nothing of filters).
 *
 * Workers filter each batch as it is parsed (map); batches go on in input
 * order (reduce), so the output is the same for any --threads. An expression
 * that reads file, host or line is evaluated in reduce instead: file and host
 * need the FH/HH metadata of every earlier batch (a resolver, made only when
 * file or host is read), and line numbers are only absolute there. */
struct spoor_filter;

/* The consumer form. expr may be NULL (every row). With explicit columns
 * cols[0..ncols) only the args they, the filter and the resolver read are
 * parsed (opts is adjusted); with cols NULL, every arg is read and file and
 * host are resolved. */
SPOOR_API struct spoor_filter *spoor_filter_new(const struct spoor_expr *expr, char *const *cols, size_t ncols,
                                                struct spoor_load_opts *opts);

/* Takes rows sel[0..n) of batch (sel is NULL for all rows); res gives file
 * and host, or is NULL when nothing asked for them. The consumer sees every
 * batch, even one with no selected row, so it can learn the batch's lookups. */
typedef int (*spoor_filter_consume)(void *ctx, const struct spoor_table *batch, const struct spoor_resolved *res,
                                    const uint32_t *sel, size_t n, struct spoor_error *err);

/* Optional: sees rows sel[0..n) of each batch on the worker that parsed it
 * (in any order, in parallel), before the consumer gets them in input
 * order; worker is 0..threads-1. Not called when the expression needs input
 * order. Set before spoor_filter_run. */
typedef int (*spoor_filter_prepare)(void *ctx, int worker, const struct spoor_table *batch, const uint32_t *sel,
                                    size_t n);
SPOOR_API void spoor_filter_prepare_with(struct spoor_filter *f, spoor_filter_prepare prepare);

/* Runs the load; a consumer failure is reported as the consumer put it. */
SPOOR_API int spoor_filter_run(struct spoor_filter *f, const char *const *paths, size_t npaths, const struct spoor_load_opts *opts,
                               spoor_filter_consume consume, void *ctx, struct spoor_load_result *result,
                               struct spoor_error *err);

/* The sink form: made before the load (the args the filter reads are added
 * to those opts lists), then spoor_filter_sink(f, inner) is the sink to load
 * with. inner's map sees the selected rows of each batch as a table of their
 * own (spoor_table_select), its reduce later that same table, in input order;
 * when the expression needs input order, inner's map runs in reduce too, as
 * worker 0. expr (not NULL) and inner's context outlive the filter. */
SPOOR_API struct spoor_filter *spoor_filter_sink_new(const struct spoor_expr *expr, struct spoor_load_opts *opts);
SPOOR_API struct spoor_sink spoor_filter_sink(struct spoor_filter *f, const struct spoor_sink *inner);

SPOOR_API void spoor_filter_free(struct spoor_filter *f);

/* After a run: the expression's args columns that no input had, in order of
 * first use, at most max of them. */
SPOOR_API size_t spoor_filter_unknown(const struct spoor_filter *f, const struct spoor_expr_ref **unknown, size_t max);
/* The args key seen in a spoor_filter_run closest to name (a likely typo), or NULL. */
SPOOR_API const char *spoor_filter_suggest(const struct spoor_filter *f, const char *name);

/* What a streaming recipe's run over traces with an optional --where
 * expression (spoor_stats_load, spoor_summary_load) leaves beside its result. */
struct spoor_stream_load {
    struct spoor_load_result loaded;        /* per input: lines, skips, warnings */
    const struct spoor_expr_ref **unknown;  /* the expression's args columns no input had */
    size_t nunknown;
    bool read_twice;                        /* summary: read again, per thread (rows too far out of order) */
};
SPOOR_API void spoor_stream_load_free(struct spoor_stream_load *l);

#endif
