/* The lifecycle recipe's boxes: each delay's quartiles and whiskers over all
 * entities and per --by group, exact (order statistics, no sketch).
 *
 * Per delay, the entities are sorted once by their value (util's radix
 * sort); walking them in that order and dropping each into its group's slice
 * (a counting sort by group, which keeps the order) leaves every group's
 * values sorted for every --by field, with no sort per group. Memory: the
 * columns the fold left (a value per entity and delay, a group per entity
 * and --by field) and, per delay being sorted, 12 bytes per entity: the
 * delay's own column is the sort's scratch, then its sorted values, and is
 * freed after. */
#include "analyze/lifecycle.h"

#include "spoor/error.h"
#include "util/parallel.h"
#include "util/quantile.h"
#include "util/radix_sort.h"

#include <stdlib.h>

struct spoor_lc_box spoor_lc_box_of(const int64_t *sorted, size_t n)
{
    struct spoor_lc_box b = {.p25 = spoor_quantile_sorted(sorted, n, 0.25),
                             .median = spoor_quantile_sorted(sorted, n, 0.5),
                             .p75 = spoor_quantile_sorted(sorted, n, 0.75)};
    double reach = 1.5 * (b.p75 - b.p25), lo = b.p25 - reach, hi = b.p75 + reach;
    /* both stop: the largest value is at least p75, the smallest at most p25 */
    size_t first = 0, last = n - 1;
    while ((double)sorted[first] < lo)
        first++;
    while ((double)sorted[last] > hi)
        last--;
    b.below = first;
    b.above = n - 1 - last;
    /* Interpolated quartiles can lie between an outlier and the nearest value
     * inside the fences ([0, 0, 1000 x 6]: p25 750, lower fence 375): the
     * whisker then stops at the box. */
    b.low = (double)sorted[first] < b.p25 ? (double)sorted[first] : b.p25;
    b.high = (double)sorted[last] > b.p75 ? (double)sorted[last] : b.p75;
    return b;
}

struct boxes {
    const struct spoor_lc_spec *s;
    struct spoor_lc_columns *c;
    struct spoor_lc_result *r;
};

/* One delay's boxes: the total's and each group's of every --by field. */
static void delay_boxes(void *ctx, size_t k, int worker)
{
    (void)worker;
    const struct boxes *bx = ctx;
    struct spoor_lc_result *r = bx->r;
    size_t n = bx->c->n, have = r->total[k].count;
    int64_t *value = bx->c->delay[k];
    bx->c->delay[k] = NULL;
    if (!have) {
        free(value);
        return;
    }
    uint64_t *key = spoor_xmalloc(n * sizeof *key);
    uint32_t *rows = spoor_xmalloc(n * sizeof *rows);
    struct spoor_int_keys m = spoor_int_keys(key, value, n, SPOOR_NULL);
    spoor_radix_sort_rows(rows, key, n, key, (uint64_t *)value, &m.span);
    /* missing values have key 0: they come first */
    size_t skip = n - have;
    for (size_t i = 0; i < have; i++)
        value[i] = spoor_int_of_key(&m, key[skip + i]);
    r->total[k].box = spoor_lc_box_of(value, have);
    int64_t *slice = (int64_t *)key; /* the keys are read: room for the groups' slices */
    for (size_t b = 0; b < bx->s->nby; b++) {
        struct spoor_lc_group *g = r->group[b];
        size_t *at = spoor_xmalloc((r->ngroups[b] ? r->ngroups[b] : 1) * sizeof *at), sum = 0;
        for (size_t i = 0; i < r->ngroups[b]; i++) {
            at[i] = sum;
            sum += g[i].delay[k].count;
        }
        const uint32_t *group = bx->c->group[b];
        for (size_t i = 0; i < have; i++)
            slice[at[group[rows[skip + i]]]++] = value[i];
        for (size_t i = 0; i < r->ngroups[b]; i++) {
            size_t count = g[i].delay[k].count;
            if (count)
                g[i].delay[k].box = spoor_lc_box_of(slice + at[i] - count, count);
        }
        free(at);
    }
    free(key);
    free(value);
    free(rows);
}

void spoor_lc_boxes(const struct spoor_lc_spec *s, struct spoor_lc_columns *c, int threads,
                    struct spoor_lc_result *r)
{
    struct boxes bx = {.s = s, .c = c, .r = r};
    spoor_parallel_for(s->ndelays, threads, delay_boxes, &bx);
}
