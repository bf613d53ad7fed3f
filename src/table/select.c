/* The selected rows of a table as a table of their own (spoor_table_select):
 * the fixed and dynamic columns gathered, the rest (string pool, lookups,
 * sources, column index) shared with the table it came from; or kept in the
 * table itself, the others dropped (spoor_table_keep_rows). */
#include "spoor/table.h"
#include "spoor/error.h"

#include <stdlib.h>
#include <string.h>

#define GATHER(dst, src, sel, n)                                 \
    do {                                                         \
        (dst) = spoor_xmalloc(((n) ? (n) : 1) * sizeof *(dst));  \
        for (size_t i_ = 0; i_ < (n); i_++)                      \
            (dst)[i_] = (src)[(sel)[i_]];                        \
    } while (0)

static void gather_column(struct spoor_column *dst, const struct spoor_column *src, const uint32_t *sel, size_t n)
{
    *dst = *src;
    size_t words = (n + 63) / 64;
    dst->valid = spoor_xcalloc(words ? words : 1, sizeof *dst->valid);
    for (size_t i = 0; i < n; i++)
        if (spoor_column_valid(src, sel[i]))
            dst->valid[i / 64] |= 1ull << (i % 64);
    if (src->type == SPOOR_STR)
        GATHER(dst->str, src->str, sel, n);
    else if (src->type == SPOOR_F64)
        GATHER(dst->f64, src->f64, sel, n);
    else
        GATHER(dst->i64, src->i64, sel, n);
}

struct spoor_table *spoor_table_select(const struct spoor_table *t, const uint32_t *sel, size_t n)
{
    struct spoor_table *s = spoor_xmalloc(sizeof *s);
    *s = *t;
    s->nrows = s->cap = n;
    s->snapshot = NULL;
    s->spare = NULL;    /* the source's own */
    s->nspare = s->spare_cap = 0;
    GATHER(s->ts, t->ts, sel, n);
    GATHER(s->dur, t->dur, sel, n);
    GATHER(s->name, t->name, sel, n);
    GATHER(s->cat, t->cat, sel, n);
    GATHER(s->pid, t->pid, sel, n);
    GATHER(s->tid, t->tid, sel, n);
    GATHER(s->ph, t->ph, sel, n);
    GATHER(s->src, t->src, sel, n);
    GATHER(s->line, t->line, sel, n);
    s->cols = spoor_xmalloc((t->ncols ? t->ncols : 1) * sizeof *s->cols);
    s->cols_cap = t->ncols;
    for (size_t c = 0; c < t->ncols; c++)
        gather_column(&s->cols[c], &t->cols[c], sel, n);
    return s;
}

void spoor_table_select_free(struct spoor_table *s)
{
    if (!s)
        return;
    free(s->ts);
    free(s->dur);
    free(s->name);
    free(s->cat);
    free(s->pid);
    free(s->tid);
    free(s->ph);
    free(s->src);
    free(s->line);
    for (size_t c = 0; c < s->ncols; c++) {
        free(s->cols[c].data);
        free(s->cols[c].valid);
    }
    free(s->cols);
    free(s);
}

/* Row sel[i] moves to row i; sel increases, so no row is overwritten before
 * it has moved. */
#define KEEP(a, sel, n)                       \
    do {                                      \
        for (size_t i_ = 0; i_ < (n); i_++)   \
            (a)[i_] = (a)[(sel)[i_]];         \
    } while (0)

void spoor_table_keep_rows(struct spoor_table *t, const uint32_t *sel, size_t n)
{
    KEEP(t->ts, sel, n);
    KEEP(t->dur, sel, n);
    KEEP(t->name, sel, n);
    KEEP(t->cat, sel, n);
    KEEP(t->pid, sel, n);
    KEEP(t->tid, sel, n);
    KEEP(t->ph, sel, n);
    KEEP(t->src, sel, n);
    KEEP(t->line, sel, n);
    for (size_t c = 0; c < t->ncols; c++) {
        struct spoor_column *col = &t->cols[c];
        /* a word of bits is written once all its rows moved: later rows
         * read words at or after the next one */
        uint64_t word = 0;
        for (size_t i = 0; i < n; i++) {
            word |= (uint64_t)spoor_column_valid(col, sel[i]) << (i % 64);
            if (i % 64 == 63) {
                col->valid[i / 64] = word;
                word = 0;
            }
        }
        if (n % 64)
            col->valid[n / 64] = word;
        for (size_t w = (n + 63) / 64; w < (t->nrows + 63) / 64; w++)   /* rows from nrows on are absent */
            col->valid[w] = 0;
        if (col->type == SPOOR_STR)
            KEEP(col->str, sel, n);
        else if (col->type == SPOOR_F64)
            KEEP(col->f64, sel, n);
        else
            KEEP(col->i64, sel, n);
    }
    t->nrows = n;
}
