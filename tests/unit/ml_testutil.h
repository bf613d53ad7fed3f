/* Helpers the model tests share: a dataset from CSV text, a model trained on
 * every row. Include after cmocka.h and testutil.h. */
#ifndef SPOOR_TEST_ML_TESTUTIL_H
#define SPOOR_TEST_ML_TESTUTIL_H

#include <stdlib.h>

#include "spoor/ml.h"

/* The CSV text written to the test's folder as `name` and loaded with label
 * column "label" (and `group`, or NULL). */
static inline struct spoor_dataset *ml_test_load_csv(const char *name, const char *csv, size_t len,
                                                     const char *group)
{
    const char *path = testutil_write(name, csv, len);
    struct spoor_load_opts opts = {.read.args = SPOOR_ARGS_ALL, .threads = 1};
    struct spoor_dataset_spec spec = {.label = "label", .group = group};
    struct spoor_dataset *ds = NULL;
    struct spoor_error err = {0};
    assert_int_equal(spoor_dataset_load(path, &spec, &opts, &ds, NULL, &err), SPOOR_OK);
    return ds;
}

/* A model trained on every row. */
static inline struct spoor_model *ml_test_train_all(const struct spoor_dataset *ds, const struct spoor_train_opts *o)
{
    size_t *all = calloc(ds->nrows, sizeof *all);
    for (size_t i = 0; i < ds->nrows; i++)
        all[i] = i;
    struct spoor_model *m = NULL;
    struct spoor_error err = {0};
    assert_int_equal(spoor_model_train(ds, all, ds->nrows, o, &m, &err), SPOOR_OK);
    free(all);
    return m;
}

#endif
