/* `spoor attribute` on a loaded table: the calls and events selected, joined
 * into the dataset, with what the caller warns about (nothing selected, no
 * coverage, cats the default leaves out). */
#include "spoor/attribute.h"

#include <stdlib.h>

/* Whether any event took part of any call: a dataset without is all zeros,
 * which more often means --events, --match or --file chose wrong than that
 * the calls ran alone. */
static bool any_coverage(const struct spoor_attr_dataset *d)
{
    for (size_t i = 0; i < d->nrows; i++)
        if (d->rows[i].coverage > 0)
            return true;
    return false;
}

int spoor_attr_run(const struct spoor_table *t, const struct spoor_attr_select *sel,
                   const struct spoor_attr_opts *opts, enum spoor_attr_columns by, struct spoor_attr_result *out,
                   struct spoor_error *err)
{
    *out = (struct spoor_attr_result){.resolver = spoor_resolver_new()};
    const struct spoor_resolved *files = spoor_attr_select_rows(t, out->resolver, sel, &out->calls, &out->ncalls,
                                                                &out->events, &out->nevents);
    int st = spoor_attr_dataset_build(t, files, out->calls, out->ncalls, out->events, out->nevents, opts, by,
                                      &out->dataset, err);
    if (st != SPOOR_OK)
        return st;
    out->covered = any_coverage(&out->dataset);
    if (!sel->events)
        out->left_out = spoor_attr_left_out(t, out->calls, out->ncalls);
    return st;
}

void spoor_attr_result_free(struct spoor_attr_result *a)
{
    spoor_attr_dataset_free(&a->dataset);
    free(a->left_out);
    free(a->calls);
    free(a->events);
    spoor_resolver_free(a->resolver);
    *a = (struct spoor_attr_result){0};
}
