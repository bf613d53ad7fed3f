/* The option side of the row-writing commands (events, export): --where and
 * --columns, and the warnings after a run; the loop itself is the library's
 * (spoor/expr.h, spoor_filter_run). */
#include "filter_load.h"

#include <stdio.h>
#include <string.h>

#include "spoor/table.h"
#include "spoor/write.h"

bool filter_load_parse_args(const char *cmd, const char *where, const char *columns, struct spoor_expr **expr,
                            char ***cols, size_t *ncols)
{
    struct spoor_error err = {0};
    *expr = NULL;
    *cols = NULL;
    *ncols = 0;
    if (where && spoor_expr_compile(where, expr, &err) != SPOOR_OK) {
        fprintf(stderr, "spoor %s: --where: %s\n", cmd, err.msg);
        return false;
    }
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

void filter_load_report(const char *cmd, const struct spoor_filter *f, const char *const *missing,
                        size_t nmissing)
{
    char hint[160];
    const struct spoor_expr_ref *unknown[FILTER_LOAD_REPORT_MAX];
    size_t nunknown = spoor_filter_unknown(f, unknown, FILTER_LOAD_REPORT_MAX);
    for (size_t i = 0; i < nunknown; i++)
        fprintf(stderr, "spoor %s: warning: --where: unknown column '%s' at position %zu: no input has it, "
                        "so it is null in every row%s\n",
                cmd, unknown[i]->name, unknown[i]->pos, suggestion(f, unknown[i]->name, hint, sizeof hint));
    for (size_t i = 0; i < nmissing; i++)
        fprintf(stderr, "spoor %s: warning: --columns: unknown column '%s': no input has it, so it is null%s\n",
                cmd, missing[i], suggestion(f, missing[i], hint, sizeof hint));
}
