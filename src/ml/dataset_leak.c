/* Leaks: features that let a model score well on held-out rows for a reason
 * that will not hold on new data.
 *
 * - A feature whose values and the classes match one to one (each value has
 *   one class, each class one value) is the label in another spelling.
 * - With a group column, a feature constant within every group is a property
 *   of the group (a run's settings or its whole-run statistics, such as
 *   iodepth or run_*): held out run by run, it identifies the run, not the
 *   rows' behaviour.
 * - Without groups, a column that looks like a group id (a name such as
 *   run_id or *_id, values repeated over rows, each value's rows in one
 *   block: dataset.c) means a random row split puts
 *   rows of one group on both sides. */
#include "ml/dataset_internal.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

struct value_class {
    double v;
    uint32_t c;
};

static int cmp_value_class(const void *a, const void *b)
{
    const struct value_class *x = a, *y = b;
    return x->v < y->v ? -1 : x->v > y->v ? 1 : (x->c > y->c) - (x->c < y->c);
}

/* Values and classes in one-to-one correspondence (at least two classes). */
static bool one_to_one(const struct spoor_dataset *ds, size_t f, struct value_class *vc)
{
    size_t n = ds->nrows;
    for (size_t r = 0; r < n; r++)
        vc[r] = (struct value_class){.v = ds->x[r * ds->nfeat + f], .c = ds->cls[r]};
    qsort(vc, n, sizeof *vc, cmp_value_class);
    bool *class_seen = spoor_xcalloc(ds->nclasses + 1, sizeof *class_seen);
    size_t values = 0;
    bool ok = true;
    for (size_t r = 0; r < n && ok; r++) {
        if (r > 0 && vc[r].v == vc[r - 1].v) {
            ok = vc[r].c == vc[r - 1].c; /* one value, two classes */
            continue;
        }
        values++;
        ok = !class_seen[vc[r].c]; /* one class, two values */
        class_seen[vc[r].c] = true;
    }
    free(class_seen);
    return ok && values >= 2;
}

/* Constant within every group but not across them (a feature constant
 * everywhere says nothing), when some group has two rows or more. */
static bool group_constant(const struct spoor_dataset *ds, size_t f, double *first, size_t *count)
{
    memset(count, 0, ds->ngroups * sizeof *count);
    bool repeated = false, varies = false;
    for (size_t r = 0; r < ds->nrows; r++) {
        uint32_t g = ds->group[r];
        double v = ds->x[r * ds->nfeat + f];
        if (count[g]++ == 0)
            first[g] = v;
        else if (v != first[g])
            return false;
        else
            repeated = true;
        varies = varies || v != ds->x[f];
    }
    return repeated && varies;
}

void dataset_find_leaks(struct spoor_dataset *ds, bool drop)
{
    size_t n = ds->nrows, p = ds->nfeat;
    struct value_class *vc = spoor_xcalloc(n + 1, sizeof *vc);
    double *first = spoor_xcalloc(ds->ngroups + 1, sizeof *first);
    size_t *count = spoor_xcalloc(ds->ngroups + 1, sizeof *count);
    bool *leaky = spoor_xcalloc(p + 1, sizeof *leaky);
    for (size_t f = 0; f < p; f++) {
        const char *reason = NULL;
        if (ds->label_is_class && one_to_one(ds, f, vc))
            reason = "its values match the classes one to one (the label in another form)";
        else if (ds->group && group_constant(ds, f, first, count))
            reason = "constant within every group (a property of the group, not of its rows)";
        if (reason) {
            dataset_note_drop(ds, &(struct spoor_dataset_drop){.name = ds->feat_names[f], .reason = reason,
                                                               .leak = true, .kept = !drop});
            leaky[f] = drop;
        }
    }
    dataset_keep_features(ds, leaky);
    free(leaky);
    free(count);
    free(first);
    free(vc);
}

bool dataset_id_like_name(const char *name)
{
    size_t len = strlen(name);
    char *lower = spoor_xstrdup(name);
    for (size_t i = 0; i < len; i++)
        lower[i] = (char)tolower((unsigned char)lower[i]);
    bool like = strcmp(lower, "id") == 0 || strcmp(lower, "run") == 0 || fnmatch("*_id", lower, 0) == 0 ||
                fnmatch("*-id", lower, 0) == 0;
    free(lower);
    return like;
}
