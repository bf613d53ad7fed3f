/* The option side of the row-writing commands (events, export): --where and
 * --columns, and the warnings after a run; the loop itself is the library's
 * (spoor/expr.h, spoor_filter_run). */
#include "filter_load.h"

#include <stdio.h>
#include <string.h>

#include "cli_getopt.h"
#include "load_args.h"
#include "where_cli.h"
#include "spoor/table.h"
#include "spoor/write.h"

/* At most this many unknown names of each kind are named. */
enum { REPORT_MAX = 64 };

/* Compiles --where and splits --columns (either may be NULL); on bad usage
 * prints one line and returns false. */
static bool parse_args(const char *cmd, const char *where, const char *columns, struct spoor_expr **expr,
                       char ***cols, size_t *ncols)
{
    struct spoor_error err = {0};
    *cols = NULL;
    *ncols = 0;
    if (!where_compile(cmd, where, expr))
        return false;
    if (columns && spoor_columns_parse(columns, cols, ncols, &err) != SPOOR_OK) {
        fprintf(stderr, "spoor %s: --columns: %s\n", cmd, err.msg);
        spoor_expr_free(*expr);
        *expr = NULL;
        return false;
    }
    return true;
}

/* " (did you mean 'file'?)" or "". */
static const char *suggestion(const struct spoor_filter *f, const char *name, char *buf, size_t cap)
{
    const char *best = spoor_filter_suggest(f, name);
    if (best)
        snprintf(buf, cap, " (did you mean '%s'?)", best);
    else
        buf[0] = '\0';
    return buf;
}

/* Warnings on stderr after a successful run: --where args columns and
 * `missing` --columns names that no input had (with the closest known name). */
static void report(const char *cmd, const struct spoor_filter *f, const char *const *missing, size_t nmissing)
{
    char hint[160];
    const struct spoor_expr_ref *unknown[REPORT_MAX];
    size_t nunknown = spoor_filter_unknown(f, unknown, REPORT_MAX);
    for (size_t i = 0; i < nunknown; i++)
        fprintf(stderr, "spoor %s: warning: --where: unknown column '%s' at position %zu: no input has it, "
                        "so it is null in every row%s\n",
                cmd, unknown[i]->name, unknown[i]->pos, suggestion(f, unknown[i]->name, hint, sizeof hint));
    for (size_t i = 0; i < nmissing; i++)
        fprintf(stderr, "spoor %s: warning: --columns: unknown column '%s': no input has it, so it is null%s\n",
                cmd, missing[i], suggestion(f, missing[i], hint, sizeof hint));
}

int filter_load_export(const char *cmd, const char *const *paths, size_t npaths, struct spoor_load_opts *opts,
                       const char *where, const char *columns, struct spoor_trace_export_opts o)
{
    struct spoor_expr *expr;
    char **cols;
    size_t ncols;
    if (!parse_args(cmd, where, columns, &expr, &cols, &ncols))
        return 2;
    struct spoor_error err = {0};
    struct spoor_filter *f = spoor_filter_new(expr, cols, ncols, opts);
    o.columns = cols;
    o.ncolumns = ncols;
    struct spoor_trace_export *x = NULL;
    struct spoor_load_result res = {0};
    int st = spoor_trace_export_run(f, paths, npaths, opts, &o, &x, &res, &err);
    load_args_report(cmd, &res);
    if (st == SPOOR_OK) { /* columns named in --where or --columns that no input had */
        const char *missing[REPORT_MAX];
        report(cmd, f, missing, spoor_trace_export_missing(x, missing, REPORT_MAX));
    } else {
        fprintf(stderr, "spoor %s: %s\n", cmd, err.msg);
    }
    spoor_trace_export_free(x);
    spoor_load_result_free(&res);
    spoor_filter_free(f);
    spoor_columns_free(cols, ncols);
    spoor_expr_free(expr);
    return cli_exit_code(st);
}
