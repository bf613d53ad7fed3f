/* spoor_nesting_build: group, order each group by start, sweep its stack. */
#include "ops/interval_internal.h"
#include "util/parallel.h"

#include <stdlib.h>
#include <string.h>

struct job {
    struct iv_groups groups;
    struct iv_nest_out out;
};

static void nest_group(void *ctx, size_t g, int worker)
{
    struct job *j = ctx;
    iv_nest_group(&j->groups, g, &j->out);
}

int spoor_nesting_build(const struct spoor_table *t, const uint32_t *rows, size_t n, enum spoor_iv_key key,
                        int threads, struct spoor_nesting *out, struct spoor_error *err)
{
    memset(out, 0, sizeof *out);
    if (!rows)
        n = t->nrows;
    int rc = iv_check_rows(t, rows, n, err);
    if (rc)
        return rc;
    struct job j = {0};
    iv_nest_out_alloc(&j.out, t->nrows);
    *out = (struct spoor_nesting){t->nrows, j.out.depth, j.out.parent, j.out.self};
    struct iv_keys *keys = iv_keys_new(key);
    uint32_t *ids = iv_keys_assign(keys, t, rows, n);
    iv_groups_build(&j.groups, t, rows, n, ids, iv_keys_count(keys));
    free(ids);
    iv_keys_free(keys);
    spoor_parallel_for(j.groups.n, threads, nest_group, &j);
    iv_groups_free(&j.groups);
    return 0;
}

void spoor_nesting_free(struct spoor_nesting *n)
{
    iv_nest_out_free(&(struct iv_nest_out){n->depth, n->parent, n->self, NULL});
    memset(n, 0, sizeof *n);
}
