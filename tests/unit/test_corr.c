/* Correlation and PCA against hand-computed answers. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "ml/corr.h"
#include "spoor/ml.h"
#include "ml/pca.h"

#define assert_close(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static void test_pearson_and_spearman_known_values(void **state)
{
    /* columns: x, y, exp(x), a constant */
    double x[5 * 4];
    const double ys[5] = {2, 4, 5, 4, 5};
    for (int i = 0; i < 5; i++) {
        x[i * 4] = i + 1;
        x[i * 4 + 1] = ys[i];
        x[i * 4 + 2] = exp(i + 1);
        x[i * 4 + 3] = 7;
    }
    double r[16];
    assert_int_equal(spoor_corr_matrix(x, 5, 4, false, r, NULL), SPOOR_OK);
    assert_close(r[0 * 4 + 1], 6 / sqrt(60), 1e-12); /* sum dxdy 6, sxx 10, syy 6 */
    assert_close(r[1 * 4 + 0], r[0 * 4 + 1], 0);
    assert_true(r[0 * 4 + 2] < 0.95);                 /* exp is not linear ... */
    assert_close(r[3 * 4 + 0], 0, 0);                 /* a constant correlates 0 */
    assert_close(r[3 * 4 + 3], 1, 0);
    assert_int_equal(spoor_corr_matrix(x, 5, 4, true, r, NULL), SPOOR_OK);
    assert_close(r[0 * 4 + 1], 7 / sqrt(90), 1e-12); /* y's ranks 1, 2.5, 4.5, 2.5, 4.5 */
    assert_close(r[0 * 4 + 2], 1, 1e-12);             /* ... but it is monotone */
}

static void test_rank_averages_ties(void **state)
{
    double v[6] = {3, 1, 3, 2, 3, 0};
    spoor_rank_column(v, 6, 1, 0);
    const double want[6] = {5, 2, 5, 3, 5, 1};
    for (int i = 0; i < 6; i++)
        assert_close(v[i], want[i], 0);
}

static void test_correlation_ratio(void **state)
{
    const int label[4] = {0, 0, 1, 1};
    const double x[4 * 2] = {1, 1, 1, 3, 3, 1, 3, 3}; /* column 0 follows the class, column 1 does not */
    double eta[2];
    spoor_corr_ratio(x, 4, 2, label, 2, eta);
    assert_close(eta[0], 1, 1e-12);
    assert_close(eta[1], 0, 1e-12);
}

static void test_pca_known_axes(void **state)
{
    const double corr[9] = {1, 0.8, 0, 0.8, 1, 0, 0, 0, 1};
    struct spoor_pca p;
    struct spoor_error err = {0};
    assert_int_equal(spoor_pca_from_corr(corr, 3, &p, &err), SPOOR_OK);
    assert_close(p.variance[0], 1.8, 1e-12);
    assert_close(p.variance[1], 1.0, 1e-12);
    assert_close(p.variance[2], 0.2, 1e-12);
    assert_close(p.ratio[0], 0.6, 1e-12);
    assert_close(p.loadings[0 * 3 + 0], sqrt(0.5), 1e-12);
    assert_close(p.loadings[1 * 3 + 0], sqrt(0.5), 1e-12);
    assert_close(p.loadings[2 * 3 + 0], 0, 1e-12);
    assert_close(fabs(p.loadings[2 * 3 + 1]), 1, 1e-12); /* the independent feature is the second axis */
    spoor_pca_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pearson_and_spearman_known_values),
        cmocka_unit_test(test_rank_averages_ties),
        cmocka_unit_test(test_correlation_ratio),
        cmocka_unit_test(test_pca_known_axes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
