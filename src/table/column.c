/* Dynamic (args) columns: created on first sight of a key, typed by the values
 * they hold, promoted when a later value does not fit. */
#include "spoor/error.h"
#include "spoor/table.h"
#include "table/internal.h"
#include "util/grow.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t type_size(enum spoor_type type)
{
    return type == SPOOR_STR ? sizeof(uint32_t) : sizeof(int64_t);
}

static size_t words(size_t rows) { return (rows + 63) / 64; }

void spoor_column_reserve(struct spoor_column *col, size_t old_cap, size_t new_cap)
{
    col->data = spoor_xrealloc(col->data, new_cap * type_size(col->type));
    col->valid = spoor_xrealloc(col->valid, words(new_cap) * sizeof *col->valid);
    memset(col->valid + words(old_cap), 0, (words(new_cap) - words(old_cap)) * sizeof *col->valid);
}

struct spoor_column *spoor_table_column(struct spoor_table *t, uint32_t name_id)
{
    if (name_id < t->col_by_name_cap && t->col_by_name[name_id])
        return &t->cols[t->col_by_name[name_id] - 1];
    spoor_grow((void **)&t->col_by_name, &t->col_by_name_cap, name_id, sizeof *t->col_by_name);
    spoor_reserve((void **)&t->cols, &t->cols_cap, t->ncols + 1, sizeof *t->cols);
    struct spoor_column *col = &t->cols[t->ncols++];
    *col = (struct spoor_column){.name = name_id, .type = SPOOR_I64};
    if (t->cap && t->nspare) {  /* a dropped column's storage: realloc keeps it where it is big enough */
        struct spoor_column *spare = &t->spare[--t->nspare];
        col->data = spare->data;
        col->valid = spare->valid;
    }
    if (t->cap)
        spoor_column_reserve(col, 0, t->cap);
    t->col_by_name[name_id] = (uint32_t)t->ncols;
    return col;
}

struct spoor_column *spoor_table_find_column(const struct spoor_table *t, const char *name)
{
    uint32_t id = spoor_strpool_find(t->pool, name, strlen(name));
    if (id == UINT32_MAX || id >= t->col_by_name_cap || !t->col_by_name[id])
        return NULL;
    return &t->cols[t->col_by_name[id] - 1];
}

static void to_f64(struct spoor_column *col, size_t nrows)
{
    for (size_t r = 0; r < nrows; r++)
        col->f64[r] = (double)col->i64[r];
    col->type = SPOOR_F64;
}

static void to_str(struct spoor_table *t, struct spoor_column *col)
{
    uint32_t *ids = spoor_xmalloc((t->cap ? t->cap : 1) * sizeof *ids);
    char buf[64];
    for (size_t r = 0; r < t->nrows; r++) {
        if (!spoor_column_valid(col, r)) {
            ids[r] = 0;
            continue;
        }
        int n = col->type == SPOOR_I64 ? snprintf(buf, sizeof buf, "%" PRId64, col->i64[r])
                                       : snprintf(buf, sizeof buf, "%.17g", col->f64[r]);
        ids[r] = spoor_table_intern(t, buf, (size_t)n);
    }
    free(col->data);
    col->str = ids;
    col->type = SPOOR_STR;
}

/* The id of a value's text, for storing a number in a string column. */
static uint32_t value_text_id(struct spoor_table *t, const struct spoor_value *v)
{
    if (v->type == SPOOR_STR)
        return v->str;
    if (v->text)
        return spoor_table_intern(t, v->text, v->text_len);
    char buf[64];
    int n = v->type == SPOOR_I64 ? snprintf(buf, sizeof buf, "%" PRId64, v->i64)
                                 : snprintf(buf, sizeof buf, "%.17g", v->f64);
    return spoor_table_intern(t, buf, (size_t)n);
}

void spoor_table_set(struct spoor_table *t, struct spoor_column *col, size_t row,
                     const struct spoor_value *v)
{
    if (v->is_null) {
        spoor_column_unset(col, row);
        return;
    }
    /* A fresh column takes the type of its first value. */
    if (col->type != v->type) {
        if (!col->typed) {
            if (!col->data || type_size(v->type) > type_size(col->type)) {   /* wider values need more room */
                free(col->data);
                col->data = spoor_xmalloc((t->cap ? t->cap : 1) * type_size(v->type));
            }
            col->type = v->type;
        } else if (v->type == SPOOR_STR || col->type == SPOOR_STR) {
            if (col->type != SPOOR_STR)
                to_str(t, col);
        } else if (col->type == SPOOR_I64) {
            to_f64(col, t->nrows);
        }
    }
    col->typed = true;
    switch (col->type) {
    case SPOOR_I64:
        col->i64[row] = v->i64;
        break;
    case SPOOR_F64:
        col->f64[row] = v->type == SPOOR_I64 ? (double)v->i64 : v->f64;
        break;
    case SPOOR_STR:
        col->str[row] = value_text_id(t, v);
        break;
    }
    col->valid[row / 64] |= 1ULL << (row % 64);
}
