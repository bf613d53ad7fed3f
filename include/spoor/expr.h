/* The --where expression: SQL WHERE syntax over the columns of an event table.
 *
 *   cat = 'POSIX' AND name IN ('open', 'open64') AND dur >= 1ms
 *   file LIKE '%.h5' OR NOT (size IS NULL OR size < 4096)
 *
 * Columns are named as in resolve.h (fixed, file/host, args keys); "quoted"
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
#include "spoor/resolve.h"
#include "spoor/table.h"

struct spoor_expr;

/* Parses and checks text. Errors are one line naming the 1-based position,
 * e.g. "expected ')' at position 14". */
int spoor_expr_compile(const char *text, struct spoor_expr **out, struct spoor_error *err);
void spoor_expr_free(struct spoor_expr *e);

/* True when the expression reads file, host or line: those are only right in
 * input order (the loader's reduce, with a resolver), not on workers. */
bool spoor_expr_needs_order(const struct spoor_expr *e);

/* The columns the expression names, in order of first appearance. */
struct spoor_expr_ref {
    const char *name;       /* as written (without quotes) */
    size_t pos;             /* 1-based position of its first use */
    enum spoor_field field;
    const char *key;        /* args key for SPOOR_FIELD_ARG */
    size_t key_len;
};
size_t spoor_expr_refs(const struct spoor_expr *e, const struct spoor_expr_ref **refs);

/* Per-thread evaluation state. */
struct spoor_expr_ctx;

struct spoor_expr_ctx *spoor_expr_ctx_new(const struct spoor_expr *e);
void spoor_expr_ctx_free(struct spoor_expr_ctx *c);
/* Prepares c for the rows of t; res gives file and host (NULL: they are null).
 * Cheap: literals are looked up in t's string pool, caches reset. */
void spoor_expr_bind(struct spoor_expr_ctx *c, const struct spoor_table *t, const struct spoor_resolved *res);
/* Writes the indexes of the bound table's matching rows to sel (room for
 * t->nrows) in increasing order; returns how many. */
size_t spoor_expr_select(struct spoor_expr_ctx *c, uint32_t *sel);
/* Whether args column ref i was present in any table bound to c so far. */
bool spoor_expr_ctx_found(const struct spoor_expr_ctx *c, size_t i);

#endif
