/* Evaluating a spoor_forest: the same walk and float sums XGBoost's CPU
 * predictor does, so the results agree with it to float rounding. */
#include "spoor/ml.h"
#include "ml/forest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

float spoor_forest_tree_leaf(const struct spoor_forest *f, size_t tree, const double *row)
{
    const struct spoor_forest_node *n = &f->nodes[f->roots[tree]];
    while (n->feature >= 0) {
        double x = row[n->feature];
        int32_t next = isnan(x) ? n->missing : ((float)x < n->threshold ? n->left : n->right);
        n = &f->nodes[next];
    }
    return n->leaf;
}

void spoor_forest_margin(const struct spoor_forest *f, const double *row, double *margin)
{
    float sum[f->ngroups];
    for (int g = 0; g < f->ngroups; g++)
        sum[g] = (float)f->base_margin;
    for (size_t t = 0; t < f->ntrees; t++)
        sum[f->groups[t]] += spoor_forest_tree_leaf(f, t, row);
    for (int g = 0; g < f->ngroups; g++)
        margin[g] = sum[g];
}

void spoor_forest_predict(const struct spoor_forest *f, const double *row, double *out)
{
    spoor_forest_margin(f, row, out);
    spoor_forest_link(f, out);
}

void spoor_forest_link(const struct spoor_forest *f, double *out)
{
    if (f->link == SPOOR_FOREST_LOGISTIC) {
        for (int g = 0; g < f->ngroups; g++)
            out[g] = 1.0 / (1.0 + exp(-out[g]));
    } else if (f->link == SPOOR_FOREST_SOFTMAX) {
        double top = out[0], total = 0;
        for (int g = 1; g < f->ngroups; g++)
            top = out[g] > top ? out[g] : top;
        for (int g = 0; g < f->ngroups; g++)
            total += out[g] = exp(out[g] - top);
        for (int g = 0; g < f->ngroups; g++)
            out[g] /= total;
    }
}

/* A float threshold below 2^(23 - frac) in magnitude becomes k / 2^frac with
 * |k| < 2^23, which a float holds exactly; a larger one is a multiple of
 * 2^-frac already (its ulp is at least that). */
size_t spoor_forest_quantise(struct spoor_forest *f, int frac)
{
    size_t moved = 0;
    for (size_t i = 0; i < f->nnodes; i++) {
        struct spoor_forest_node *n = &f->nodes[i];
        float q = (float)ldexp(floor(ldexp(n->threshold, frac)), -frac);
        if (n->feature >= 0 && q != n->threshold) {
            n->threshold = q;
            moved++;
        }
    }
    return moved;
}

void spoor_forest_total_gain(const struct spoor_forest *f, double *gain)
{
    memset(gain, 0, f->nfeatures * sizeof *gain);
    for (size_t i = 0; i < f->nnodes; i++)
        if (f->nodes[i].feature >= 0)
            gain[f->nodes[i].feature] += f->nodes[i].gain;
}

void spoor_forest_free(struct spoor_forest *f)
{
    free(f->roots);
    free(f->groups);
    free(f->nodes);
    memset(f, 0, sizeof *f);
}
