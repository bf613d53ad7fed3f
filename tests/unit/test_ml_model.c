/* Models: metrics, the MLP learns a separable problem and is deterministic
 * for a seed, early stopping keeps the best epoch, the rule finds two
 * thresholds, k-NN and majority baselines, the action table, and the JSON
 * model round trip and its refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spoor/ml.h"
#include "testutil.h"
#include "ml_testutil.h"

/* 300 rows, 3 classes decided by two thresholds on a and b (c is noise), 6 groups. */
static struct spoor_dataset *three_classes(void)
{
    size_t cap = 300 * 64 + 64, len = 0;
    char *csv = malloc(cap);
    len += (size_t)snprintf(csv, cap, "g,a,b,c,label\n");
    uint64_t s = 42;
    for (int i = 0; i < 300; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        double a = (double)(s >> 40) / (1 << 24), b = (double)((s >> 16) & 0xffffff) / (1 << 24),
               c = (double)(s & 0xffff) / 65536;
        const char *label = a < 0.5 ? "low" : b > 0.3 ? "high" : "mid";
        len += (size_t)snprintf(csv + len, cap - len, "g%d,%.6f,%.6f,%.6f,%s\n", i % 6, a, b, c, label);
    }
    const char *path = testutil_write("three.csv", csv, len);
    free(csv);
    struct spoor_load_opts opts = {.read.args = SPOOR_ARGS_ALL, .threads = 1};
    struct spoor_dataset_spec spec = {.label = "label", .group = "g"};
    struct spoor_dataset *ds = NULL;
    struct spoor_error err = {0};
    assert_int_equal(spoor_dataset_load(path, &spec, &opts, &ds, NULL, &err), SPOOR_OK);
    return ds;
}

static double holdout_accuracy(const struct spoor_dataset *ds, const char *method, const struct spoor_train_opts *o)
{
    struct spoor_split s;
    struct spoor_error err = {0};
    assert_int_equal(spoor_split_rows(ds, NULL, 0, 0.25, 3, &s, &err), SPOOR_OK);
    uint32_t *pred = calloc(s.ntest, sizeof *pred), *truth = calloc(s.ntest, sizeof *truth);
    assert_int_equal(spoor_fit_predict(ds, &s, method, o, pred, &err), SPOOR_OK);
    for (size_t i = 0; i < s.ntest; i++)
        truth[i] = ds->cls[s.test[i]];
    struct spoor_metrics m;
    spoor_metrics_compute(&m, ds->nclasses, truth, pred, s.ntest);
    double acc = m.accuracy;
    spoor_metrics_free(&m);
    free(pred);
    free(truth);
    spoor_split_free(&s);
    return acc;
}

static void test_metrics(void **state)
{
    const uint32_t truth[] = {0, 0, 1, 1, 2, 2}, pred[] = {0, 1, 1, 1, 0, 2};
    struct spoor_metrics m;
    spoor_metrics_compute(&m, 3, truth, pred, 6);
    assert_true(fabs(m.accuracy - 4.0 / 6) < 1e-12);
    assert_int_equal(m.confusion[0 * 3 + 1], 1);
    assert_int_equal(m.confusion[2 * 3 + 0], 1);
    assert_true(fabs(m.recall[1] - 1) < 1e-12);
    assert_true(fabs(m.precision[1] - 2.0 / 3) < 1e-12);
    /* F1: 0.5, 0.8, 0.6667 */
    assert_true(fabs(m.macro_f1 - (0.5 + 0.8 + 2.0 / 3) / 3) < 1e-9);
    spoor_metrics_free(&m);
}

static void test_methods_learn(void **state)
{
    struct spoor_dataset *ds = three_classes();
    struct spoor_train_opts o;
    spoor_train_opts_default(&o);
    o.epochs = 60;
    o.patience = 60;
    o.lr = 1e-2;
    o.trees_rounds = 20;
    assert_true(holdout_accuracy(ds, "rule", &o) >= 0.97);
    assert_true(holdout_accuracy(ds, "mlp", &o) >= 0.9);
    assert_true(holdout_accuracy(ds, "knn", &o) >= 0.8);
    assert_true(holdout_accuracy(ds, "trees", &o) >= 0.9);
    assert_true(holdout_accuracy(ds, "majority", &o) < 0.6);
    spoor_dataset_free(ds);
}

/* A CSV written to the test's folder, as a dataset labelled by "label". */
static void test_rule_finds_thresholds(void **state)
{
    struct spoor_dataset *ds = three_classes();
    struct spoor_train_opts o;
    spoor_train_opts_default(&o);
    o.kind = SPOOR_MODEL_RULE;
    struct spoor_model *m = ml_test_train_all(ds, &o);
    assert_int_equal(m->rule.feat[0], spoor_dataset_feature(ds, "a"));
    assert_true(fabs(m->rule.thr[0] - 0.5) < 0.02);
    assert_int_equal(m->rule.feat[2], spoor_dataset_feature(ds, "b"));
    assert_true(fabs(m->rule.thr[2] - 0.3) < 0.02);
    spoor_model_free(m);
    spoor_dataset_free(ds);
}

/* 600 rows with 600 distinct values of a: "low" is the 7 smallest, the rest
 * "mid" or "high" by b. A perfect depth-2 rule needs the cut after the 7th
 * value of a, which no set of 64 quantile cuts contains. */
static void test_rule_searches_every_cut(void **state)
{
    size_t cap = 600 * 48 + 32, len = 0;
    char *csv = malloc(cap);
    len += (size_t)snprintf(csv, cap, "a,b,label\n");
    for (int i = 0; i < 600; i++) {
        int rank = (i * 7919) % 600;
        double b = (double)((i * 104729) % 1000) / 1000;
        len += (size_t)snprintf(csv + len, cap - len, "%d.5,%.3f,%s\n", rank, b,
                                rank < 7 ? "low" : b < 0.5 ? "mid" : "high");
    }
    struct spoor_dataset *ds = ml_test_load_csv("cuts.csv", csv, len, NULL);
    free(csv);
    struct spoor_train_opts o;
    spoor_train_opts_default(&o);
    o.kind = SPOOR_MODEL_RULE;
    struct spoor_model *m = ml_test_train_all(ds, &o);
    size_t right = 0;
    double scores[3];
    for (size_t r = 0; r < ds->nrows; r++)
        right += spoor_model_predict(m, ds->x + r * ds->nfeat, scores) == ds->cls[r];
    assert_int_equal(right, 600);
    assert_int_equal(m->rule.feat[0], spoor_dataset_feature(ds, "a"));
    assert_true(m->rule.thr[0] > 6.5 && m->rule.thr[0] < 7.5);
    spoor_model_free(m);
    spoor_dataset_free(ds);
}

/* Three classes by a + 2b, in units far apart (a in 0..1, b in 0..1000): a
 * linear model separates them almost perfectly once trained to the minimum;
 * 60 epochs of Adam at 1e-3 (the MLP's defaults, which logistic used) leave
 * it far from there. The fit reports its iterations and final loss. */
static void test_logistic_converges(void **state)
{
    size_t cap = 500 * 48 + 32, len = 0;
    char *csv = malloc(cap);
    len += (size_t)snprintf(csv, cap, "a,b,label\n");
    uint64_t s = 11;
    for (int i = 0; i < 500; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        double a = (double)(s >> 40) / (1 << 24), b = (double)((s >> 16) & 0xffffff) / (1 << 24) * 1000;
        double z = a + 2 * b / 1000;
        len += (size_t)snprintf(csv + len, cap - len, "%.6f,%.3f,%s\n", a, b, z < 0.9 ? "x" : z < 1.9 ? "y" : "z");
    }
    struct spoor_dataset *ds = ml_test_load_csv("linear.csv", csv, len, NULL);
    free(csv);
    struct spoor_train_opts o;
    spoor_train_opts_default(&o);
    o.kind = SPOOR_MODEL_LOGISTIC;
    struct spoor_model *m = ml_test_train_all(ds, &o);
    assert_true(m->log.converged);
    assert_true(m->log.iterations > 5 && m->log.iterations < o.max_iter);
    assert_true(m->log.final_gradient < 1e-6);
    assert_true(m->log.final_loss > 0 && m->log.final_loss < 0.1);
    size_t right = 0;
    double scores[3];
    for (size_t r = 0; r < ds->nrows; r++)
        right += spoor_model_predict(m, ds->x + r * ds->nfeat, scores) == ds->cls[r];
    assert_true(right >= 490);
    /* The same model whatever the seed: no random draw decides it. */
    o.seed = 99;
    struct spoor_model *again = ml_test_train_all(ds, &o);
    assert_true(again->log.final_loss == m->log.final_loss);
    assert_memory_equal(again->layers[0].w, m->layers[0].w, 6 * sizeof(double));
    spoor_model_free(again);
    spoor_model_free(m);
    spoor_dataset_free(ds);
}

static struct spoor_model *train_mlp(const struct spoor_dataset *ds, uint64_t seed)
{
    struct spoor_train_opts o;
    spoor_train_opts_default(&o);
    o.seed = seed;
    o.epochs = 20;
    o.patience = 3;
    return ml_test_train_all(ds, &o);
}

static void test_mlp_deterministic_and_early_stopping(void **state)
{
    struct spoor_dataset *ds = three_classes();
    struct spoor_model *a = train_mlp(ds, 9), *b = train_mlp(ds, 9), *c = train_mlp(ds, 10);
    assert_int_equal(a->nlayers, 3);
    assert_int_equal(a->layers[0].out, 32);
    assert_memory_equal(a->layers[0].w, b->layers[0].w, 32 * ds->nfeat * sizeof(double));
    assert_true(memcmp(a->layers[0].w, c->layers[0].w, 32 * ds->nfeat * sizeof(double)) != 0);
    /* Validation came from whole groups of the training rows. */
    assert_int_equal(a->log.val_rows % 50, 0);
    assert_true(a->log.val_rows > 0);
    assert_true(a->log.best_epoch <= a->log.epochs_run);
    assert_true(a->log.epochs_run == 20 || a->log.epochs_run == a->log.best_epoch + 3);
    spoor_model_free(a);
    spoor_model_free(b);
    spoor_model_free(c);
    spoor_dataset_free(ds);
}

static char *to_json(const struct spoor_model *m, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    spoor_model_write_json(m, f);
    fclose(f);
    return text;
}

static void test_json_round_trip(void **state)
{
    struct spoor_dataset *ds = three_classes();
    struct spoor_error err = {0};
    const char *kinds[] = {"mlp", "logistic", "rule", "trees"};
    for (int k = 0; k < 4; k++) {
        struct spoor_train_opts o;
        spoor_train_opts_default(&o);
        o.kind = (enum spoor_model_kind)spoor_model_kind_parse(kinds[k]);
        o.epochs = 5;
        o.trees_rounds = 5;
        struct spoor_model *m = ml_test_train_all(ds, &o), *back = NULL;
        assert_int_equal(spoor_model_set_actions(m, "ra_kb:low=16,mid=64,high=256", &err), SPOOR_OK);
        size_t len;
        char *text = to_json(m, &len);
        assert_int_equal(spoor_model_parse(text, len, "t", &back, &err), SPOOR_OK);
        assert_int_equal(back->kind, m->kind);
        for (size_t c = 0; c < back->nclasses; c++)
            if (strcmp(back->class_names[c], "high") == 0)
                assert_int_equal(back->action[c], 256);
        double s1[3], s2[3];
        for (size_t r = 0; r < ds->nrows; r++) {
            const double *row = ds->x + r * ds->nfeat;
            assert_int_equal(spoor_model_predict(m, row, s1), spoor_model_predict(back, row, s2));
            for (int c = 0; c < 3; c++)
                assert_true(s1[c] == s2[c]); /* bit for bit */
        }
        free(text);
        spoor_model_free(m);
        spoor_model_free(back);
    }
    spoor_dataset_free(ds);
}

static void test_actions_refused(void **state)
{
    struct spoor_dataset *ds = three_classes();
    struct spoor_model *m = spoor_model_new(SPOOR_MODEL_RULE, ds);
    struct spoor_error err = {0};
    assert_int_equal(spoor_model_set_actions(m, "low=1,mid=2,high=3", &err), SPOOR_EUSAGE);
    assert_int_equal(spoor_model_set_actions(m, "ra:low=1,mid=2", &err), SPOOR_EUSAGE);
    assert_non_null(strstr(err.msg, "high"));
    assert_int_equal(spoor_model_set_actions(m, "ra:low=1,mid=x,high=3", &err), SPOOR_EUSAGE);
    assert_int_equal(spoor_model_set_actions(m, "ra:low=1,mid=2,nope=3", &err), SPOOR_EUSAGE);
    assert_null(m->action);
    spoor_model_free(m);
    spoor_dataset_free(ds);
}

static void expect_refused(const char *text, const char *words)
{
    struct spoor_model *m = NULL;
    struct spoor_error err = {0};
    assert_int_equal(spoor_model_parse(text, strlen(text), "bad.json", &m, &err), SPOOR_EFORMAT);
    assert_null(m);
    if (!strstr(err.msg, words))
        fail_msg("'%s' lacks '%s'", err.msg, words);
    assert_non_null(strstr(err.msg, "bad.json"));
}

#define HEAD "{\"format\": \"spoor-model\", \"version\": 1, \"label\": \"y\", \"features\": [\"a\"], \"classes\": [\"x\", \"z\"], "

static void test_json_refusals(void **state)
{
    expect_refused("[1, 2]", "not a JSON object");
    expect_refused("{\"format\": \"other\", \"version\": 1, \"kind\": \"mlp\", \"label\": \"y\"}", "not a spoor model");
    expect_refused("{\"format\": \"spoor-model\", \"version\": 2, \"kind\": \"mlp\", \"label\": \"y\"}", "version");
    expect_refused(HEAD "\"kind\": \"forest\"}", "unknown kind");
    expect_refused(HEAD "\"kind\": \"rule\", \"rule\": {\"feature\": [\"a\", \"a\", \"b\"], \"threshold\": [1, 2, 3], "
                        "\"leaf\": [\"x\", \"x\", \"z\", \"z\"]}}",
                   "feature");
    expect_refused(HEAD "\"kind\": \"logistic\", \"scaler\": {\"mean\": [0], \"scale\": [0]}, \"layers\": []}", "scale");
    expect_refused(HEAD "\"kind\": \"logistic\", \"scaler\": {\"mean\": [0], \"scale\": [1]}, \"layers\": "
                        "[{\"in\": 1, \"out\": 3, \"w\": [[1], [2], [3]], \"b\": [0, 0, 0]}]}",
                   "chain");
    expect_refused(HEAD "\"kind\": \"trees\", \"trees\": {\"base_margin\": 0, \"ntrees\": 1, \"nnodes\": 2, "
                        "\"roots\": [0], \"groups\": [0], \"feature\": [0, -1], \"left\": [0, 0], \"right\": [1, 0], "
                        "\"missing\": [1, 0], \"threshold\": [0.5, 0], \"leaf\": [0, 1], \"gain\": [0, 0]}}",
                   "after it");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_metrics),
        cmocka_unit_test(test_methods_learn),
        cmocka_unit_test(test_rule_finds_thresholds),
        cmocka_unit_test(test_rule_searches_every_cut),
        cmocka_unit_test(test_logistic_converges),
        cmocka_unit_test(test_mlp_deterministic_and_early_stopping),
        cmocka_unit_test(test_json_round_trip),
        cmocka_unit_test(test_actions_refused),
        cmocka_unit_test(test_json_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
