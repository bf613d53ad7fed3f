/* The dataset layer: columns by name and glob, redundant features dropped and
 * named, incomplete rows counted, labels and groups, every kind of split, the
 * scaler, and the shared iopattern dataset. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spoor/ml.h"
#include "testutil.h"
#include "ml/scaler.h"

static struct spoor_dataset *load(const char *text, const struct spoor_dataset_spec *spec, int expect)
{
    const char *path = testutil_write("ds.csv", text, strlen(text));
    struct spoor_load_opts opts = {.read.args = SPOOR_ARGS_ALL, .threads = 1};
    struct spoor_dataset *ds = NULL;
    struct spoor_error err = {0};
    assert_int_equal(spoor_dataset_load(path, spec, &opts, &ds, NULL, &err), expect);
    return ds;
}

static void test_columns_and_drops(void **state)
{
    /* c is constant, d = 1 - a (duplicate), name/ts are plain data, x is text. */
    const char *csv = "name,ts,a,c,d,x,label\n"
                      "r1,1,0.1,5,0.9,u,seq\n"
                      "r1,2,0.7,5,0.3,v,rnd\n"
                      "r2,3,0.3,5,0.7,w,seq\n"
                      "r2,4,,5,0.6,w,rnd\n"
                      "r3,5,0.9,5,0.1,w,mix\n";
    struct spoor_dataset_spec spec = {.label = "label", .group = "name"};
    struct spoor_dataset *ds = load(csv, &spec, SPOOR_OK);
    assert_int_equal(ds->nrows, 4);
    assert_int_equal(ds->skipped_rows, 1);
    assert_int_equal(ds->first_skipped_line, 5);
    assert_string_equal(ds->first_skipped_field, "a");
    assert_int_equal(ds->nfeat, 2);
    assert_string_equal(ds->feat_names[0], "ts");
    assert_string_equal(ds->feat_names[1], "a");
    assert_int_equal(ds->ndropped, 3);
    assert_string_equal(ds->dropped[0].name, "x");
    assert_string_equal(ds->dropped[0].reason, "not numeric");
    assert_string_equal(ds->dropped[1].name, "c");
    assert_string_equal(ds->dropped[1].reason, "constant");
    assert_string_equal(ds->dropped[2].name, "d");
    assert_string_equal(ds->dropped[2].other, "a");
    assert_true(ds->dropped[2].r < -0.999);
    assert_true(ds->label_is_class);
    assert_int_equal(ds->nclasses, 3);
    assert_string_equal(ds->class_names[2], "mix");
    assert_int_equal(ds->cls[3], 2);
    assert_int_equal(ds->ngroups, 3);
    assert_int_equal(ds->group[2], 1);
    assert_true(ds->x[1 * 2 + 1] == 0.7);
    spoor_dataset_free(ds);
}

static void test_globs_exact_and_errors(void **state)
{
    const char *csv = "k.a,k.b,u.a,y\n1,2,3,1.5\n2,1,4,2.5\n3,3,1,0.5\n";
    const char *glob[] = {"k.*"};
    struct spoor_dataset_spec spec = {.features = glob, .nfeatures = 1, .label = "y"};
    struct spoor_dataset *ds = load(csv, &spec, SPOOR_OK);
    assert_int_equal(ds->nfeat, 2);
    assert_false(ds->label_is_class);
    assert_true(ds->y[2] == 0.5);
    spoor_dataset_free(ds);

    const char *missing[] = {"nope"};
    spec.features = missing;
    assert_null(load(csv, &spec, SPOOR_EUSAGE));
    const char *nomatch[] = {"z*"};
    spec.features = nomatch;
    assert_null(load(csv, &spec, SPOOR_EUSAGE));

    /* A model's classes fix the numbering; an unknown label is an error. */
    const char *feat[] = {"k.a"}, *classes[] = {"x", "1.5", "2.5", "0.5"};
    struct spoor_dataset_spec fixed = {.features = feat, .nfeatures = 1, .exact = true, .label = "y",
                                       .classes = classes, .nclasses = 4};
    ds = load(csv, &fixed, SPOOR_OK);
    assert_int_equal(ds->cls[0], 1);
    assert_int_equal(ds->nclasses, 4);
    spoor_dataset_free(ds);
    fixed.nclasses = 2;
    assert_null(load(csv, &fixed, SPOOR_EFORMAT));
}

static void test_strict_and_jsonl(void **state)
{
    const char *csv = "a,b,label\n1,2,x\n,3,y\n";
    const char *path = testutil_write("strict.csv", csv, strlen(csv));
    struct spoor_load_opts opts = {.read.args = SPOOR_ARGS_ALL, .read.strict = true, .threads = 1};
    struct spoor_dataset_spec spec = {.label = "label"};
    struct spoor_dataset *ds = NULL;
    struct spoor_error err = {0};
    assert_int_equal(spoor_dataset_load(path, &spec, &opts, &ds, NULL, &err), SPOOR_ESTRICT);
    assert_non_null(strstr(err.msg, ":3:"));

    const char *jsonl = "{\"a\": 1, \"b\": 0.5, \"label\": \"x\"}\n{\"a\": 2, \"b\": 0.1, \"label\": \"y\"}\n"
                        "{\"a\": 3, \"b\": 0.7, \"label\": \"y\"}\n";
    path = testutil_write("ds.jsonl", jsonl, strlen(jsonl));
    opts.read.strict = false;
    assert_int_equal(spoor_dataset_load(path, &spec, &opts, &ds, NULL, &err), SPOOR_OK);
    assert_int_equal(ds->nrows, 3);
    assert_int_equal(ds->nfeat, 2);
    spoor_dataset_free(ds);
}

/* 60 rows: 3 classes x 4 groups x 5 rows. */
static struct spoor_dataset *grid(void)
{
    char csv[4096] = "g,v,w,label\n";
    for (int i = 0; i < 60; i++) {
        char line[64];
        snprintf(line, sizeof line, "g%d,%d,%d,c%d\n", i / 15, i, (i * 7) % 11, i % 3);
        strcat(csv, line);
    }
    struct spoor_dataset_spec spec = {.label = "label", .group = "g"};
    return load(csv, &spec, SPOOR_OK);
}

static void assert_partition(const struct spoor_split *s, size_t n)
{
    int *seen = calloc(n, sizeof *seen);
    for (size_t i = 0; i < s->ntrain; i++)
        seen[s->train[i]]++;
    for (size_t i = 0; i < s->ntest; i++)
        seen[s->test[i]]++;
    for (size_t i = 0; i < n; i++)
        assert_int_equal(seen[i], 1);
    free(seen);
}

static void test_splits(void **state)
{
    struct spoor_dataset *ds = grid();
    struct spoor_error err = {0};
    struct spoor_split s, again;
    assert_int_equal(spoor_split_rows(ds, NULL, 0, 0.2, 7, &s, &err), SPOOR_OK);
    assert_int_equal(s.ntest, 12);
    assert_partition(&s, 60);
    size_t per[3] = {0};
    for (size_t i = 0; i < s.ntest; i++)
        per[ds->cls[s.test[i]]]++;
    assert_int_equal(per[0], 4);
    assert_int_equal(per[1], 4);
    assert_int_equal(per[2], 4);
    assert_int_equal(spoor_split_rows(ds, NULL, 0, 0.2, 7, &again, &err), SPOOR_OK);
    assert_memory_equal(s.test, again.test, s.ntest * sizeof *s.test);
    spoor_split_free(&again);
    assert_int_equal(spoor_split_rows(ds, NULL, 0, 0.2, 8, &again, &err), SPOOR_OK);
    assert_true(memcmp(s.test, again.test, s.ntest * sizeof *s.test) != 0);
    spoor_split_free(&again);

    /* Grouped: whole groups held out; a split of a subset stays inside it. */
    spoor_split_free(&s);
    assert_int_equal(spoor_split_holdout(ds, NULL, 0, 0.2, 3, &s, &err), SPOOR_OK);
    assert_int_equal(s.ntest, 15);
    for (size_t i = 1; i < s.ntest; i++)
        assert_int_equal(ds->group[s.test[i]], ds->group[s.test[0]]);
    struct spoor_split inner;
    assert_int_equal(spoor_split_holdout(ds, s.train, s.ntrain, 0.3, 3, &inner, &err), SPOOR_OK);
    assert_int_equal(inner.ntrain + inner.ntest, 45);
    for (size_t i = 0; i < inner.ntest; i++)
        assert_int_not_equal(ds->group[inner.test[i]], ds->group[s.test[0]]);
    spoor_split_free(&inner);
    spoor_split_free(&s);

    struct spoor_folds f;
    assert_int_equal(spoor_folds_logo(ds, NULL, 0, &f, &err), SPOOR_OK);
    assert_int_equal(f.n, 4);
    for (size_t k = 0; k < f.n; k++) {
        assert_int_equal(f.fold[k].ntest, 15);
        assert_partition(&f.fold[k], 60);
    }
    spoor_folds_free(&f);
    assert_int_equal(spoor_folds_kfold(ds, NULL, 0, 2, 1, &f, &err), SPOOR_OK);
    assert_int_equal(f.fold[0].ntest, 30);
    spoor_folds_free(&f);
    assert_int_equal(spoor_folds_kfold(ds, NULL, 0, 5, 1, &f, &err), SPOOR_EUSAGE);
    spoor_dataset_free(ds);
}

static void test_scaler(void **state)
{
    const double x[] = {1, 10, 3, 10, 5, 10, 100, 10};
    const size_t rows[] = {0, 1, 2};
    struct spoor_scaler s;
    spoor_scaler_fit(&s, x, 2, rows, 3);
    assert_true(fabs(s.mean[0] - 3) < 1e-12);
    assert_true(fabs(s.scale[0] - sqrt(8.0 / 3)) < 1e-12);
    assert_true(s.scale[1] == 1);
    double out[2];
    spoor_scaler_apply(&s, x + 6, out);
    assert_true(fabs(out[0] - 97 / sqrt(8.0 / 3)) < 1e-9);
    assert_true(out[1] == 0);
    spoor_scaler_free(&s);
}

static void test_iopattern(void **state)
{
    const char *path = testutil_data("iopattern/consolidated_dataset.csv");
    struct spoor_load_opts opts = {.read.args = SPOOR_ARGS_ALL};
    const char *feat[] = {"trace_*", "bw_mean_kbps", "iops_mean"};
    struct spoor_dataset_spec spec = {.features = feat, .nfeatures = 3, .label = "label", .group = "run_id"};
    struct spoor_dataset *ds = NULL;
    struct spoor_error err = {0};
    assert_int_equal(spoor_dataset_load(path, &spec, &opts, &ds, NULL, &err), SPOOR_OK);
    assert_int_equal(ds->nrows, 864);
    assert_int_equal(ds->ngroups, 18);
    assert_int_equal(ds->nclasses, 3);
    assert_string_equal(ds->class_names[0], "sequential");
    assert_true(spoor_dataset_feature(ds, "iops_mean") < 0);
    assert_true(spoor_dataset_feature(ds, "trace_avg_request_size_kb") < 0);
    assert_true(spoor_dataset_feature(ds, "trace_sector_jump_ratio") >= 0);
    spoor_dataset_free(ds);
    /* Every column by default: bs holds "64k" in the mixed runs, so the
     * column goes (named), not the 288 rows of a whole class. */
    struct spoor_dataset_spec every = {.label = "label", .group = "run_id"};
    assert_int_equal(spoor_dataset_load(path, &every, &opts, &ds, NULL, &err), SPOOR_OK);
    assert_int_equal(ds->nrows, 864);
    assert_int_equal(ds->skipped_rows, 0);
    assert_true(spoor_dataset_feature(ds, "bs") < 0);
    bool named = false;
    for (size_t i = 0; i < ds->ndropped; i++)
        named |= !strcmp(ds->dropped[i].name, "bs") && !strcmp(ds->dropped[i].reason, "not numeric");
    assert_true(named);
    spoor_dataset_free(ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_columns_and_drops), cmocka_unit_test(test_globs_exact_and_errors),
        cmocka_unit_test(test_strict_and_jsonl),  cmocka_unit_test(test_splits),
        cmocka_unit_test(test_scaler),            cmocka_unit_test(test_iopattern),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
