/* The attribution dataset behind `spoor attribute`: one row per I/O call with
 * the time the kernel functions took inside it, computed by the interval
 * engine (spoor/interval.h) and laid out as a table for analysis.
 *
 * Row: call_id (the call's args.call_id when it is an integer, else its line),
 * ts and dur (ns), name, file (resolved), size (bytes by the byte rule of
 * docs/formats.md, "Bytes", as spoor summary counts them; null when
 * unknown), bandwidth (MiB/s = size / dur), one column per kernel
 * function "cat.name" (or per cat) with the attributed ns (0 when none), then
 * unattributed (ns of the call covered by no event it sees) and coverage
 * (covered / dur, 0..1). Columns are the union over all calls, ordered by cat
 * then name (byte order), so the same trace always gives the same header. */
#ifndef SPOOR_ATTRIBUTE_H
#define SPOOR_ATTRIBUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "spoor/error.h"
#include "spoor/expr.h"
#include "spoor/interval.h"
#include "spoor/table.h"
#include "spoor/report.h"

/* ---- choosing the rows ---- */

struct spoor_attr_select {
    const struct spoor_expr *calls;     /* the I/O calls */
    const char *file_glob;              /* NULL: any; else GLOB on the call's file */
    /* The kernel events; NULL: every event of a kernel-side cat
     * (spoor_attr_kernel_cat) that is no selected call's cat. Either way an
     * event that encloses a call of its thread is a caller and left out
     * (spoor_attr_drop_callers). */
    const struct spoor_expr *events;
};

/* The cats of events that the default leaves out (neither kernel-side nor a
 * call's cat), ", "-separated in pool order; NULL when none. free() it. */
SPOOR_API char *spoor_attr_left_out(const struct spoor_table *t, const uint32_t *calls, size_t ncalls);

/* Rows of t (in increasing order) for the calls and the events, and their
 * resolved file and host through resolver: of every row when an expression
 * names file or host, else of the calls only. The result stays valid until
 * the resolver's next use. Free both arrays with free(). */
SPOOR_API const struct spoor_resolved *spoor_attr_select_rows(const struct spoor_table *t,
                                                              struct spoor_resolver *resolver,
                                                              const struct spoor_attr_select *sel, uint32_t **calls,
                                                              size_t *ncalls, uint32_t **events, size_t *nevents);

struct spoor_snapshot_need;
/* The stored columns of t that selecting with sel and building the dataset
 * read (spoor_load_opts.columns_read). */
SPOOR_API void spoor_attr_columns_read(const struct spoor_table *t, const struct spoor_attr_select *sel,
                                       struct spoor_snapshot_need *need);

/* ---- the dataset ---- */

enum spoor_attr_columns {
    SPOOR_ATTR_BY_FUNCTION,     /* "cat.name" */
    SPOOR_ATTR_BY_CAT,          /* "cat": a layer's functions summed */
};

struct spoor_attr_row {
    int64_t call_id, ts, dur;
    const char *name, *file;    /* into the table's / resolver's pool; file NULL when unknown */
    int64_t size;               /* SPOOR_NULL when unknown */
    double bandwidth;           /* MiB/s; NAN when size is unknown or dur is 0 */
    /* SPOOR_NULL for a call taking no part (null ts or dur): */
    int64_t unattributed;
    double coverage;            /* NAN for dur 0 or no part */
};

struct spoor_attr_dataset {
    size_t nrows, ncols;
    struct spoor_attr_row *rows;
    char **col_names;           /* the kernel columns */
    int64_t *ns;                /* nrows x ncols, row after row */
};

/* Attributes calls to events under opts and builds the dataset. The strings
 * of the rows stay valid while t and res do. */
SPOOR_API int spoor_attr_dataset_build(const struct spoor_table *t, const struct spoor_resolved *res,
                                       const uint32_t *calls, size_t ncalls, const uint32_t *events, size_t nevents,
                                       const struct spoor_attr_opts *opts, enum spoor_attr_columns by,
                                       struct spoor_attr_dataset *out, struct spoor_error *err);
SPOOR_API void spoor_attr_dataset_free(struct spoor_attr_dataset *d);

/* The dataset as a report of one sheet, a row per call (nulls where a value
 * is unknown), for spoor_report_write in CSV or JSON lines. Its rows are read
 * from d while it is written: d must outlive it. */
SPOOR_API struct spoor_report *spoor_attr_dataset_report(const struct spoor_attr_dataset *d);

/* ---- the whole run ---- */

/* The calls and events of t chosen by sel, attributed under opts into the
 * dataset, and what a caller may warn about. */
struct spoor_attr_result {
    struct spoor_attr_dataset dataset;
    size_t ncalls, nevents;             /* rows selected */
    bool covered;                       /* some event took part of some call */
    char *left_out;                     /* default events: cats neither kernel-side nor a call's (NULL: none) */
    uint32_t *calls, *events;           /* the rows selected */
    struct spoor_resolver *resolver;    /* the calls' files, which the dataset's rows point into */
};

SPOOR_API int spoor_attr_run(const struct spoor_table *t, const struct spoor_attr_select *sel,
                             const struct spoor_attr_opts *opts, enum spoor_attr_columns by, struct spoor_attr_result *out,
                             struct spoor_error *err);
SPOOR_API void spoor_attr_result_free(struct spoor_attr_result *a);

#endif
