/* Builds small event tables by hand for the expression and writer tests.
 * Included by test_expr.c and test_write.c. */
#ifndef SPOOR_TEST_EVENTS_FIXTURE_H
#define SPOOR_TEST_EVENTS_FIXTURE_H

#include <string.h>

#include "spoor/table.h"

#define FX_NULL SPOOR_NULL

static inline uint32_t fx_intern(struct spoor_table *t, const char *s)
{
    return s ? spoor_table_intern(t, s, strlen(s)) : 0;
}

static inline size_t fx_row(struct spoor_table *t, int64_t ts, int64_t dur, const char *name, const char *cat,
                            int64_t pid, int64_t tid, char ph)
{
    size_t r = spoor_table_add_row(t);
    t->ts[r] = ts;
    t->dur[r] = dur;
    t->name[r] = fx_intern(t, name);
    t->cat[r] = fx_intern(t, cat);
    t->pid[r] = pid;
    t->tid[r] = tid;
    t->ph[r] = (uint8_t)ph;
    t->src[r] = 0;
    t->line[r] = r + 1;
    return r;
}

static inline struct spoor_column *fx_col(struct spoor_table *t, const char *key)
{
    return spoor_table_column(t, fx_intern(t, key));
}

static inline void fx_str(struct spoor_table *t, size_t row, const char *key, const char *s)
{
    struct spoor_value v = {.type = SPOOR_STR, .str = fx_intern(t, s), .text = s, .text_len = strlen(s)};
    spoor_table_set(t, fx_col(t, key), row, &v);
}

static inline void fx_int(struct spoor_table *t, size_t row, const char *key, int64_t i)
{
    struct spoor_value v = {.type = SPOOR_I64, .i64 = i};
    spoor_table_set(t, fx_col(t, key), row, &v);
}

static inline void fx_real(struct spoor_table *t, size_t row, const char *key, double f)
{
    struct spoor_value v = {.type = SPOOR_F64, .f64 = f};
    spoor_table_set(t, fx_col(t, key), row, &v);
}

/* A definition of the table's first input, in force from before its first line. */
static inline void fx_lookup(struct spoor_table *t, enum spoor_lookup_kind kind, const char *key, const char *value)
{
    spoor_lookup_put(&t->lookups[kind], 0, fx_intern(t, key), fx_intern(t, value), 0);
}

#endif
