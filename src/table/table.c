/* The event table: fixed columns, growth, rows, sources. Dynamic columns live in
 * column.c, lookups in lookup.c, the ordered merge in append.c. */
#include "spoor/table.h"
#include "spoor/error.h"
#include "spoor/load.h"
#include "table/internal.h"
#include "table/snapshot.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>

struct spoor_table *spoor_table_new(void)
{
    struct spoor_table *t = spoor_xcalloc(1, sizeof *t);
    t->pool = spoor_strpool_new();
    return t;
}

/* The storage a table owns unless it is a borrowed view. */
static void free_owned(struct spoor_table *t)
{
    free(t->ts);
    free(t->dur);
    free(t->name);
    free(t->cat);
    free(t->pid);
    free(t->tid);
    free(t->ph);
    free(t->src);
    free(t->line);
    for (size_t i = 0; i < t->ncols; i++) {
        free(t->cols[i].data);
        free(t->cols[i].valid);
    }
    for (size_t i = 0; i < t->nspare; i++) {
        free(t->spare[i].data);
        free(t->spare[i].valid);
    }
    free(t->spare);
    for (int k = 0; k < SPOOR_LOOKUP_KINDS; k++)
        spoor_lookup_release(&t->lookups[k]);
    for (size_t i = 0; i < t->nsources; i++)
        free(t->sources[i]);
    free(t->sources);
    spoor_strpool_free(t->pool);
}

void spoor_table_free(struct spoor_table *t)
{
    if (!t)
        return;
    if (!t->borrowed)
        free_owned(t);
    spoor_snapshot_close(t->snapshot);
    free(t->cols);
    free(t->col_by_name);
    free(t);
}

void spoor_table_clear(struct spoor_table *t, bool clear_strings)
{
    t->nrows = 0;
    /* the last column's storage first, so that the first one made next (the
     * same column, mostly) takes the first one's */
    spoor_reserve((void **)&t->spare, &t->spare_cap, t->nspare + t->ncols, sizeof *t->spare);
    for (size_t i = t->ncols; i-- > 0;)
        t->spare[t->nspare++] = t->cols[i];
    t->ncols = 0;
    if (t->col_by_name)
        memset(t->col_by_name, 0, t->col_by_name_cap * sizeof *t->col_by_name);
    for (int k = 0; k < SPOOR_LOOKUP_KINDS; k++)
        spoor_lookup_reset(&t->lookups[k]);
    if (clear_strings)
        spoor_strpool_clear(t->pool);
}

static void grow_rows(struct spoor_table *t, size_t need)
{
    size_t old = t->cap;
    struct spoor_lane lanes[] = {SPOOR_LANE(t->ts),  SPOOR_LANE(t->dur), SPOOR_LANE(t->name),
                                 SPOOR_LANE(t->cat), SPOOR_LANE(t->pid), SPOOR_LANE(t->tid),
                                 SPOOR_LANE(t->ph),  SPOOR_LANE(t->src), SPOOR_LANE(t->line)};
    spoor_reserve_lanes_to(&t->cap, need, lanes, sizeof lanes / sizeof *lanes);
    for (size_t i = 0; i < t->ncols; i++)
        spoor_column_reserve(&t->cols[i], old, t->cap);
}

void spoor_table_reserve(struct spoor_table *t, size_t rows)
{
    if (rows > t->cap)
        grow_rows(t, rows);
}

size_t spoor_table_add_row(struct spoor_table *t)
{
    if (t->nrows == t->cap)
        grow_rows(t, t->nrows + 1);
    size_t r = t->nrows++;
    t->ts[r] = SPOOR_NULL;
    t->dur[r] = SPOOR_NULL;
    t->name[r] = 0;
    t->cat[r] = 0;
    t->pid[r] = SPOOR_NULL;
    t->tid[r] = SPOOR_NULL;
    t->ph[r] = 0;
    t->src[r] = 0;
    t->line[r] = 0;
    return r; /* its dynamic columns' bits are 0 already (spoor_column) */
}

void spoor_table_drop_last_row(struct spoor_table *t)
{
    if (t->nrows) {
        t->nrows--;
        for (size_t i = 0; i < t->ncols; i++)
            spoor_column_unset(&t->cols[i], t->nrows);
    }
}

uint32_t spoor_table_intern(struct spoor_table *t, const char *s, size_t len)
{
    return spoor_strpool_intern(t->pool, s, len);
}

const char *spoor_table_str(const struct spoor_table *t, uint32_t id)
{
    return spoor_strpool_get(t->pool, id, NULL);
}

uint32_t spoor_table_add_source(struct spoor_table *t, const char *name)
{
    for (size_t i = 0; i < t->nsources; i++)
        if (strcmp(t->sources[i], name) == 0)
            return (uint32_t)i;
    t->sources = spoor_xrealloc(t->sources, (t->nsources + 1) * sizeof *t->sources);
    t->sources[t->nsources] = spoor_xstrdup(name);
    return (uint32_t)t->nsources++;
}
