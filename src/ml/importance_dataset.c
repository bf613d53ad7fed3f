/* The dataset of `spoor importance`: with an automatic task, a numeric target
 * holding only a few distinct integers is taken for classes. */
#include "spoor/ml.h"

#include <math.h>
#include <stddef.h>

#define MAX_CLASS_INTEGERS 10 /* a numeric target with at most this many integer values is a class */

/* A number target holding at most MAX_CLASS_INTEGERS distinct integers. */
static bool few_integers(const struct spoor_dataset *ds)
{
    double seen[MAX_CLASS_INTEGERS];
    size_t n = 0;
    for (size_t i = 0; i < ds->nrows; i++) {
        double v = ds->y[i];
        if (v != floor(v))
            return false;
        size_t k = 0;
        while (k < n && seen[k] != v)
            k++;
        if (k == n) {
            if (n == MAX_CLASS_INTEGERS)
                return false;
            seen[n++] = v;
        }
    }
    return true;
}

int spoor_importance_dataset_load(const char *path, const struct spoor_dataset_spec *spec,
                                  const struct spoor_load_opts *opts, struct spoor_dataset **out, const char **why,
                                  struct spoor_error *err)
{
    *why = NULL;
    int rc = spoor_dataset_load(path, spec, opts, out, NULL, err);
    if (rc != SPOOR_OK || spec->label_kind != SPOOR_LABEL_AUTO)
        return rc;
    *why = (*out)->label_is_class ? "text" : "numbers";
    if ((*out)->label_is_class || !few_integers(*out))
        return rc;
    spoor_dataset_free(*out);
    *out = NULL;
    struct spoor_dataset_spec classes = *spec;
    classes.label_kind = SPOOR_LABEL_CLASS;
    *why = "at most 10 distinct integers";
    return spoor_dataset_load(path, &classes, opts, out, NULL, err);
}
