/* The XGBoost wrapper: node arrays reproduce XGBoost's predictions, TreeSHAP
 * rows sum to the margin, gain ranks the informative features first, training
 * is deterministic, and damaged model JSON is refused without crashing. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ml/permutation.h"
#include "ml/permutation_forest.h"
#include "ml/xgb.h"
#include "ml_synth.h"
#include "ml/forest.h"

enum { ROWS = 400, COLS = 6 };

static struct spoor_xgb *train(enum spoor_xgb_task task, int nclass, const double *x, const double *y)
{
    struct spoor_xgb_params p;
    spoor_xgb_params_default(&p, task, nclass);
    p.rounds = 20;
    p.max_depth = 4;
    struct spoor_xgb *b;
    struct spoor_error err = {0};
    assert_int_equal(spoor_xgb_train(x, ROWS, COLS, y, &p, &b, &err), SPOOR_OK);
    return b;
}

/* Predictions of the node arrays equal XGBoost's; test rows include NaNs. */
static void check_forest_matches(enum spoor_xgb_task task, int nclass, const double *y)
{
    double *x = synth_features(ROWS, COLS, 1);
    struct spoor_xgb *b = train(task, nclass, x, y);
    double *test = synth_features(ROWS, COLS, 2);
    for (size_t i = 0; i < ROWS; i += 7)
        test[i * COLS + i % 2] = NAN;
    int k = spoor_xgb_outputs(b);
    assert_int_equal(k, task == SPOOR_XGB_MULTICLASS ? nclass : 1);
    double *want = malloc(ROWS * (size_t)k * sizeof *want), got[8];
    struct spoor_error err = {0};
    assert_int_equal(spoor_xgb_predict(b, test, ROWS, want, &err), SPOOR_OK);
    struct spoor_forest f;
    assert_int_equal(spoor_xgb_forest(b, &f, &err), SPOOR_OK);
    assert_int_equal(f.nfeatures, COLS);
    assert_int_equal(f.ngroups, k);
    assert_int_equal(f.ntrees, 20 * (size_t)k);
    for (size_t i = 0; i < ROWS; i++) {
        spoor_forest_predict(&f, test + i * COLS, got);
        for (int g = 0; g < k; g++)
            assert_true(fabs(got[g] - want[i * (size_t)k + g]) <= 1e-5 * (1 + fabs(want[i * (size_t)k + g])));
    }
    spoor_forest_free(&f);
    spoor_xgb_free(b);
    free(want);
    free(test);
    free(x);
}

static void test_forest_reproduces_xgboost(void **state)
{
    double *x = synth_features(ROWS, COLS, 1);
    double *reg = synth_regression(x, ROWS, COLS, 0.05, 3), *bin = synth_classes(x, ROWS, COLS, 2),
           *multi = synth_classes(x, ROWS, COLS, 3);
    check_forest_matches(SPOOR_XGB_REGRESSION, 0, reg);
    check_forest_matches(SPOOR_XGB_BINARY, 2, bin);
    check_forest_matches(SPOOR_XGB_MULTICLASS, 3, multi);
    free(reg);
    free(bin);
    free(multi);
    free(x);
}

static void test_shap_rows_sum_to_margin(void **state)
{
    double *x = synth_features(ROWS, COLS, 1), *y = synth_classes(x, ROWS, COLS, 3);
    struct spoor_xgb *b = train(SPOOR_XGB_MULTICLASS, 3, x, y);
    double *contribs = malloc(ROWS * 3 * (COLS + 1) * sizeof *contribs);
    struct spoor_error err = {0};
    assert_int_equal(spoor_xgb_contribs(b, x, ROWS, contribs, &err), SPOOR_OK);
    struct spoor_forest f;
    assert_int_equal(spoor_xgb_forest(b, &f, &err), SPOOR_OK);
    double mean_abs[COLS] = {0}, margin[3];
    for (size_t i = 0; i < ROWS; i++) {
        spoor_forest_margin(&f, x + i * COLS, margin);
        for (int g = 0; g < 3; g++) {
            const double *c = contribs + (i * 3 + (size_t)g) * (COLS + 1);
            double sum = 0;
            for (int j = 0; j <= COLS; j++)
                sum += c[j];
            assert_true(fabs(sum - margin[g]) < 1e-4);
            for (int j = 0; j < COLS; j++)
                mean_abs[j] += fabs(c[j]);
        }
    }
    /* The two informative features carry the contributions. */
    for (int j = 2; j < COLS; j++) {
        assert_true(mean_abs[0] > 5 * mean_abs[j]);
        assert_true(mean_abs[1] > 5 * mean_abs[j]);
    }
    spoor_forest_free(&f);
    spoor_xgb_free(b);
    free(contribs);
    free(y);
    free(x);
}

static void test_gain_ranks_informative_and_training_is_deterministic(void **state)
{
    double *x = synth_features(ROWS, COLS, 1), *y = synth_regression(x, ROWS, COLS, 0.05, 3);
    struct spoor_forest f[2];
    struct spoor_error err = {0};
    for (int run = 0; run < 2; run++) {
        struct spoor_xgb *b = train(SPOOR_XGB_REGRESSION, 0, x, y);
        assert_int_equal(spoor_xgb_forest(b, &f[run], &err), SPOOR_OK);
        spoor_xgb_free(b);
    }
    assert_int_equal(f[0].nnodes, f[1].nnodes);
    assert_memory_equal(f[0].nodes, f[1].nodes, f[0].nnodes * sizeof *f[0].nodes);
    double gain[COLS];
    spoor_forest_total_gain(&f[0], gain);
    for (int j = 2; j < COLS; j++)
        assert_true(gain[1] > 10 * gain[j]);
    assert_true(gain[0] > gain[1]);
    spoor_forest_free(&f[0]);
    spoor_forest_free(&f[1]);
    free(y);
    free(x);
}

/* The permutation predictor, redoing only the trees that split on a changed
 * column, answers as a full walk of every tree does. */
static void test_forest_predictor_redoes_only_what_changed(void **state)
{
    double *x = synth_features(ROWS, COLS, 1), *y = synth_classes(x, ROWS, COLS, 3);
    struct spoor_xgb *b = train(SPOOR_XGB_MULTICLASS, 3, x, y);
    struct spoor_forest f;
    struct spoor_error err = {0};
    assert_int_equal(spoor_xgb_forest(b, &f, &err), SPOOR_OK);
    struct spoor_forest_predictor *p = spoor_forest_predictor_new(&f, ROWS, true);
    double *fast = malloc(ROWS * sizeof *fast), probs[3];
    spoor_forest_predictor_run(p, x, ROWS, COLS, SPOOR_ALL_COLUMNS, fast);
    for (size_t j = 0; j < COLS; j++) {
        double *moved = malloc(ROWS * COLS * sizeof *moved);
        memcpy(moved, x, ROWS * COLS * sizeof *moved);
        for (size_t i = 0; i < ROWS; i++)
            moved[i * COLS + j] = x[((i * 7 + 3) % ROWS) * COLS + j];
        spoor_forest_predictor_run(p, moved, ROWS, COLS, j, fast);
        for (size_t i = 0; i < ROWS; i++) {
            spoor_forest_predict(&f, moved + i * COLS, probs);
            int best = probs[1] > probs[0] ? 1 : 0;
            best = probs[2] > probs[best] ? 2 : best;
            assert_true(fast[i] == best);
        }
        free(moved);
    }
    spoor_forest_predictor_free(p);
    spoor_forest_free(&f);
    spoor_xgb_free(b);
    free(fast);
    free(y);
    free(x);
}

static const char *const GOOD =
    "{\"learner\":{\"gradient_booster\":{\"model\":{\"tree_info\":[0],\"trees\":[{"
    "\"default_left\":[1,0,0],\"left_children\":[1,-1,-1],\"loss_changes\":[3.5,0,0],"
    "\"right_children\":[2,-1,-1],\"split_conditions\":[0.5,-1,2],\"split_indices\":[1,0,0]}]},"
    "\"name\":\"gbtree\"},\"learner_model_param\":{\"base_score\":\"5E-1\",\"num_class\":\"0\","
    "\"num_feature\":\"2\"},\"objective\":{\"name\":\"reg:squarederror\"}}}";

static int parse_edited(const char *from, const char *to, struct spoor_error *err)
{
    char text[1024];
    const char *at = strstr(GOOD, from);
    assert_non_null(at);
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - GOOD), GOOD, to, at + strlen(from));
    struct spoor_forest f;
    int rc = spoor_forest_from_xgb_json(text, strlen(text), &f, err);
    if (rc == SPOOR_OK)
        spoor_forest_free(&f);
    return rc;
}

static void test_model_json_checked(void **state)
{
    struct spoor_forest f;
    struct spoor_error err = {0};
    assert_int_equal(spoor_forest_from_xgb_json(GOOD, strlen(GOOD), &f, &err), SPOOR_OK);
    double row[2] = {0, 0.25}, out;
    spoor_forest_predict(&f, row, &out);
    assert_true(fabs(out - (0.5 - 1)) < 1e-6);
    row[1] = NAN; /* missing goes to the default_left child */
    spoor_forest_predict(&f, row, &out);
    assert_true(fabs(out - (0.5 - 1)) < 1e-6);
    spoor_forest_free(&f);
    static const char *const damage[][3] = {
        {"\"right_children\":[2,-1,-1]", "\"right_children\":[0,-1,-1]", "reached twice"},
        {"\"right_children\":[2,-1,-1]", "\"right_children\":[7,-1,-1]", "bad children"},
        {"\"split_indices\":[1,0,0]", "\"split_indices\":[2,0,0]", "bad children, feature"},
        {"\"loss_changes\":[3.5,0,0]", "\"loss_changes\":[3.5,0]", "loss_changes has 2 values"},
        {"reg:squarederror", "rank:pairwise", "unsupported objective"},
        {"\"tree_info\":[0]", "\"tree_info\":[0,0]", "1 trees for 2"},
        {"\"tree_info\":[0]", "\"tree_info\":[1]", "no valid tree_info group"},
        {"gbtree", "dart", "not a gbtree"},
        {"\"5E-1\"", "\"x\"", "learner_model_param"},
        {"[0.5,-1,2]", "[0.5,-1,\"nan\"]", "bad split_conditions"},
        {"\"trees\":[{", "\"trees\":[{,", "not valid JSON"},
        {"\"trees\":[{", "\"trees\":[7,{", "tree 0: missing or bad left_children"},
    };
    for (size_t i = 0; i < sizeof damage / sizeof *damage; i++) {
        assert_int_equal(parse_edited(damage[i][0], damage[i][1], &err), SPOOR_EFORMAT);
        if (!strstr(err.msg, damage[i][2]))
            fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, damage[i][2]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forest_reproduces_xgboost),
        cmocka_unit_test(test_shap_rows_sum_to_margin),
        cmocka_unit_test(test_gain_ranks_informative_and_training_is_deterministic),
        cmocka_unit_test(test_forest_predictor_redoes_only_what_changed),
        cmocka_unit_test(test_model_json_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
