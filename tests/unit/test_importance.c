/* Permutation importance, shares, consensus order, the cumulative set and
 * layer names. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "spoor/ml.h"
#include "ml/permutation.h"
#include "ml_synth.h"
#include "ml/importance.h"

enum { ROWS = 400, COLS = 4 };

/* A model that looks at feature 0 only. */
static void threshold_x0(void *ctx, const double *x, size_t nrows, size_t ncols, size_t changed, double *out)
{
    (void)ctx;
    (void)changed;
    for (size_t i = 0; i < nrows; i++)
        out[i] = x[i * ncols] >= 0.4;
}

static void test_permutation_drops_only_used_feature(void **state)
{
    double *x = synth_features(ROWS, COLS, 5), *y = synth_classes(x, ROWS, COLS, 2), drop[COLS], baseline;
    for (size_t i = 0; i < ROWS; i++)
        y[i] = x[i * COLS] >= 0.4; /* the model is exact */
    spoor_permutation_importance(x, ROWS, COLS, y, true, threshold_x0, NULL, 3, 9, &baseline, drop);
    assert_true(baseline == 1);
    assert_true(drop[0] > 0.3); /* shuffling x0 makes about half the answers wrong */
    for (int j = 1; j < COLS; j++)
        assert_true(drop[j] == 0);
    double again[COLS], b2;
    spoor_permutation_importance(x, ROWS, COLS, y, true, threshold_x0, NULL, 3, 9, &b2, again);
    assert_memory_equal(drop, again, sizeof drop);
    free(y);
    free(x);
}

static void test_score(void **state)
{
    const double y[4] = {1, 2, 3, 4}, exact[4] = {1, 2, 3, 4}, mean[4] = {2.5, 2.5, 2.5, 2.5};
    assert_true(spoor_score(exact, y, 4, false) == 1);
    assert_true(spoor_score(mean, y, 4, false) == 0);
    const double pred[4] = {1, 0, 3, 0};
    assert_true(spoor_score(pred, y, 4, true) == 0.5);
}

static void test_shares_order_cumulative(void **state)
{
    const double score[5] = {0.1, -2, 0.6, 0.1, 0.2};
    double share[5];
    size_t order[5];
    spoor_importance_shares(score, 5, share);
    assert_true(fabs(share[2] - 0.6) < 1e-12);
    assert_true(share[1] == 0); /* a negative score (a permutation that helped) counts nothing */
    spoor_importance_order(share, 5, order);
    const size_t want[5] = {2, 4, 0, 3, 1}; /* ties by index */
    assert_memory_equal(order, want, sizeof want);
    assert_int_equal(spoor_importance_cumulative(share, order, 5, 0.6), 1);
    assert_int_equal(spoor_importance_cumulative(share, order, 5, 0.61), 2);
    assert_int_equal(spoor_importance_cumulative(share, order, 5, 1.0), 4);
    const double none[3] = {0, -1, 0};
    spoor_importance_shares(none, 3, share);
    assert_true(share[0] == 0 && share[1] == 0 && share[2] == 0);
}

static void check_layer(const char *name, char sep, const char *want)
{
    const char *layer = NULL;
    size_t n = spoor_importance_layer(name, sep, &layer);
    if (!want) {
        assert_int_equal(n, 0);
        return;
    }
    assert_int_equal(n, strlen(want));
    assert_memory_equal(layer, want, n);
}

static void test_layers(void **state)
{
    check_layer("kernel.vfs_read", 0, "kernel");
    check_layer("vfs_read-kernel", 0, "kernel");
    check_layer("a.b-c", 0, "a");
    check_layer("a.b-c", '-', "c");
    check_layer("trace_avg_sector_distance", '_', "trace");
    check_layer("trace_avg_sector_distance", 0, NULL);
    check_layer(".hidden", '.', NULL);
    check_layer("trailing-", '-', NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_permutation_drops_only_used_feature),
        cmocka_unit_test(test_score),
        cmocka_unit_test(test_shares_order_cumulative),
        cmocka_unit_test(test_layers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
