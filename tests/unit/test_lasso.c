/* Lasso: the informative features keep coefficients near their true
 * standardised values, the irrelevant ones are zeroed, and a huge penalty
 * zeroes everything. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "ml/lasso.h"
#include "ml_synth.h"

enum { ROWS = 2000, COLS = 8 };

static void test_lasso_keeps_informative_zeroes_rest(void **state)
{
    double *x = synth_features(ROWS, COLS, 11), *y = synth_regression(x, ROWS, COLS, 2, 12);
    uint32_t fold[ROWS];
    for (size_t i = 0; i < ROWS; i++)
        fold[i] = (uint32_t)(i % 5);
    struct spoor_lasso l;
    struct spoor_error err = {0};
    assert_int_equal(spoor_lasso_cv(x, ROWS, COLS, y, fold, 5, &l, &err), SPOOR_OK);
    /* y = 3 x0 + 2 x1: per standardised feature that is 3 and 2 times sd(U[0,1)) = 0.2887,
     * each shrunk by alpha (the soft threshold of nearly uncorrelated features). */
    assert_true(l.alpha > 0.01 && l.alpha < 0.2);
    assert_true(fabs(l.coef[0] - (3 * 0.2887 - l.alpha)) < 0.03);
    assert_true(fabs(l.coef[1] - (2 * 0.2887 - l.alpha)) < 0.03);
    for (int j = 2; j < COLS; j++)
        assert_true(l.coef[j] == 0);
    assert_int_equal(l.nonzero, 2);
    assert_true(l.cv_mse > 0.3 && l.cv_mse < 0.4); /* the noise is U[0, 2): variance 1/3 */
    spoor_lasso_free(&l);
    free(y);
    free(x);
}

static void test_lasso_constant_target_and_bad_folds(void **state)
{
    double *x = synth_features(ROWS, COLS, 11), y[ROWS];
    uint32_t fold[ROWS];
    for (size_t i = 0; i < ROWS; i++) {
        y[i] = 4;
        fold[i] = (uint32_t)(i % 3);
    }
    struct spoor_lasso l;
    struct spoor_error err = {0};
    assert_int_equal(spoor_lasso_cv(x, ROWS, COLS, y, fold, 3, &l, &err), SPOOR_OK);
    assert_int_equal(l.nonzero, 0);
    spoor_lasso_free(&l);
    assert_int_equal(spoor_lasso_cv(x, ROWS, COLS, y, fold, 1, &l, &err), SPOOR_EUSAGE);
    free(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lasso_keeps_informative_zeroes_rest),
        cmocka_unit_test(test_lasso_constant_target_and_bad_folds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
