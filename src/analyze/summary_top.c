/* Top files and top functions (cat.name) by union time. */
#include "summary_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_time_desc(const void *a, const void *b)
{
    const struct spoor_summary_top *x = a, *y = b;
    if (x->time != y->time)
        return x->time > y->time ? -1 : 1;
    return strcmp(x->label, y->label);
}

/* Rows grouped by group[r]; entries get count, self, bytes and union time.
 * Labels are filled by the caller. */
static struct spoor_summary_top *rank(const struct spoor_table *t, const struct spoor_nesting *nest,
                                      const struct summary_rows *rows, const uint32_t *group, size_t ngroups)
{
    struct spoor_summary_top *e = spoor_xcalloc(ngroups ? ngroups : 1, sizeof *e);
    for (size_t r = 0; r < t->nrows; r++) {
        if (group[r] == SUMMARY_NO_GROUP)
            continue;
        struct spoor_summary_top *g = &e[group[r]];
        g->count++;
        if (nest->depth[r] >= 0)
            g->self += nest->self[r];
        if (rows->bytes[r] != SPOOR_NULL)
            g->bytes += rows->bytes[r];
    }
    struct grouped_spans spans;
    grouped_spans_build(t, rows, group, ngroups, &spans);
    for (size_t g = 0; g < ngroups; g++)
        e[g].time = grouped_spans_length(&spans, g);
    grouped_spans_free(&spans);
    return e;
}

/* Keeps the `top` longest entries with a count, sorted. */
static size_t keep_top(struct spoor_summary_top *e, size_t n, size_t top)
{
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (e[i].count)
            e[kept++] = e[i];
    qsort(e, kept, sizeof *e, by_time_desc);
    return kept < top ? kept : top;
}

static void top_files(const struct spoor_table *t, const struct spoor_nesting *nest, const struct summary_rows *rows,
                      uint32_t *group, size_t top, struct spoor_summary *out)
{
    size_t nfiles = spoor_strpool_count(rows->files);
    for (size_t r = 0; r < t->nrows; r++)
        group[r] = summary_is_event(t, r) && rows->file[r] ? rows->file[r] : SUMMARY_NO_GROUP;
    out->files = rank(t, nest, rows, group, nfiles);
    for (size_t f = 0; f < nfiles; f++)
        out->files[f].label = summary_own(out, spoor_strpool_get(rows->files, (uint32_t)f, NULL));
    out->nfiles = keep_top(out->files, nfiles, top);
}

static void top_functions(const struct spoor_table *t, const struct spoor_nesting *nest,
                          const struct summary_rows *rows, uint32_t *group, size_t top, struct spoor_summary *out)
{
    struct summary_keys ids = {0};
    for (size_t r = 0; r < t->nrows; r++)
        group[r] = summary_is_event(t, r) ? summary_keys_id(&ids, (uint64_t)t->cat[r] << 32 | t->name[r])
                                           : SUMMARY_NO_GROUP;
    size_t n = ids.n;
    out->functions = rank(t, nest, rows, group, n);
    for (uint32_t f = 0; f < n; f++) {
        uint64_t key = ids.keys[f];
        const char *cat = spoor_table_str(t, (uint32_t)(key >> 32)), *name = spoor_table_str(t, (uint32_t)key);
        size_t len = strlen(cat) + strlen(name) + 2;
        char *label = spoor_xmalloc(len);
        snprintf(label, len, "%s.%s", cat, name);
        out->functions[f].label = summary_own(out, label);
        free(label);
    }
    out->nfunctions = keep_top(out->functions, n, top);
    summary_keys_free(&ids);
}

void summary_top(const struct spoor_table *t, const struct spoor_nesting *nest, const struct summary_rows *rows,
                 size_t top, struct spoor_summary *out)
{
    uint32_t *group = spoor_xmalloc((t->nrows ? t->nrows : 1) * sizeof *group);
    top_files(t, nest, rows, group, top, out);
    top_functions(t, nest, rows, group, top, out);
    free(group);
}
