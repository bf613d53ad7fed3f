/* Compares two event tables cell by cell (strings by text, not id) and their
 * lookups, for the pfw tests and fuzzer: the fast tokenizer and the tolerant
 * scanner must give the same table for the same lines. */
#ifndef SPOOR_TEST_PFW_TABLES_H
#define SPOOR_TEST_PFW_TABLES_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "spoor/table.h"

/* Whether string a of table ta equals string b of table tb (NULs included). */
static inline bool pfw_same_str(const struct spoor_table *ta, uint32_t a, const struct spoor_table *tb, uint32_t b)
{
    size_t na, nb;
    const char *sa = spoor_strpool_get(ta->pool, a, &na), *sb = spoor_strpool_get(tb->pool, b, &nb);
    return na == nb && memcmp(sa, sb, na) == 0;
}

/* The column of t named like column c of table tc, or NULL. */
static inline const struct spoor_column *pfw_same_column(const struct spoor_table *t, const struct spoor_table *tc,
                                                         const struct spoor_column *c)
{
    for (size_t i = 0; i < t->ncols; i++)
        if (pfw_same_str(t, t->cols[i].name, tc, c->name))
            return &t->cols[i];
    return NULL;
}

/* The text of dynamic column c in row r ("<absent>" when not valid). */
static inline const char *pfw_cell_text(const struct spoor_table *t, const struct spoor_column *c, size_t r,
                                        char *buf, size_t cap)
{
    if (!spoor_column_valid(c, r))
        return "<absent>";
    switch (c->type) {
    case SPOOR_I64: snprintf(buf, cap, "%" PRId64, c->i64[r]); break;
    case SPOOR_F64: snprintf(buf, cap, "%.17g", c->f64[r]); break;
    case SPOOR_STR: return spoor_table_str(t, c->str[r]);
    }
    return buf;
}

/* True when equal; otherwise why (one line) says where they differ. */
static inline bool pfw_tables_equal(const struct spoor_table *a, const struct spoor_table *b, char *why,
                                    size_t cap)
{
    if (a->nrows != b->nrows) {
        snprintf(why, cap, "rows %zu vs %zu", a->nrows, b->nrows);
        return false;
    }
    for (size_t r = 0; r < a->nrows; r++) {
        if (a->ts[r] != b->ts[r] || a->dur[r] != b->dur[r] || a->pid[r] != b->pid[r] || a->tid[r] != b->tid[r] ||
            a->ph[r] != b->ph[r] || a->line[r] != b->line[r] ||
            !pfw_same_str(a, a->name[r], b, b->name[r]) || !pfw_same_str(a, a->cat[r], b, b->cat[r])) {
            snprintf(why, cap, "row %zu (line %" PRIu64 ") differs in a fixed column", r, a->line[r]);
            return false;
        }
    }
    if (a->ncols != b->ncols) {
        snprintf(why, cap, "columns %zu vs %zu", a->ncols, b->ncols);
        return false;
    }
    char x[64], y[64];
    for (size_t i = 0; i < a->ncols; i++) {
        const char *name = spoor_table_str(a, a->cols[i].name);
        const struct spoor_column *ca = &a->cols[i], *cb = pfw_same_column(b, a, ca);
        if (!cb) {
            snprintf(why, cap, "column %s missing", name);
            return false;
        }
        for (size_t r = 0; r < a->nrows; r++) {
            bool va = spoor_column_valid(ca, r), vb = spoor_column_valid(cb, r);
            bool same = va == vb;
            if (same && va && ca->type == SPOOR_STR && cb->type == SPOOR_STR)
                same = pfw_same_str(a, ca->str[r], b, cb->str[r]);
            else if (same && va)
                same = strcmp(pfw_cell_text(a, ca, r, x, sizeof x), pfw_cell_text(b, cb, r, y, sizeof y)) == 0;
            if (!same) {
                const char *ta = pfw_cell_text(a, ca, r, x, sizeof x), *tb = pfw_cell_text(b, cb, r, y, sizeof y);
                snprintf(why, cap, "column %s row %zu: '%.40s' vs '%.40s'", name, r, ta, tb);
                return false;
            }
        }
    }
    for (int k = 0; k < SPOOR_LOOKUP_KINDS; k++) {
        const struct spoor_lookup *la = &a->lookups[k], *lb = &b->lookups[k];
        if (la->n != lb->n) {
            snprintf(why, cap, "lookup %d: %zu vs %zu entries", k, la->n, lb->n);
            return false;
        }
        for (size_t i = 0; i < la->n; i++)
            if (!pfw_same_str(a, la->keys[i], b, lb->keys[i]) || !pfw_same_str(a, la->values[i], b, lb->values[i]) ||
                la->lines[i] != lb->lines[i] || la->srcs[i] != lb->srcs[i]) {
                snprintf(why, cap, "lookup %d entry %zu differs", k, i);
                return false;
            }
    }
    return true;
}

#endif
