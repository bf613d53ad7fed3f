#include "ml/permutation_forest.h"

#include <stdint.h>
#include <stdlib.h>

#include "ml/permutation.h"
#include "spoor/error.h"
#include "ml/forest.h"

struct spoor_forest_predictor {
    const struct spoor_forest *f;
    size_t nrows;
    bool classification;
    float *leaf;          /* nrows x ntrees: each tree's leaf for the original rows */
    double *margin;       /* nrows x ngroups: their sums */
    size_t *trees_of;     /* trees splitting on feature j: trees[trees_of[j] .. trees_of[j + 1]) */
    size_t *trees;
};

/* Which trees split on which feature, as one flat list per feature. */
static void index_trees(struct spoor_forest_predictor *p)
{
    const struct spoor_forest *f = p->f;
    size_t nf = f->nfeatures;
    uint8_t *uses = spoor_xcalloc(f->ntrees * nf + 1, 1);
    for (size_t t = 0; t < f->ntrees; t++) {
        size_t end = t + 1 < f->ntrees ? (size_t)f->roots[t + 1] : f->nnodes;
        for (size_t i = (size_t)f->roots[t]; i < end; i++)
            if (f->nodes[i].feature >= 0)
                uses[t * nf + (size_t)f->nodes[i].feature] = 1;
    }
    p->trees_of = spoor_xcalloc(nf + 1, sizeof *p->trees_of);
    size_t total = 0;
    for (size_t j = 0; j < nf; j++) {
        p->trees_of[j] = total;
        for (size_t t = 0; t < f->ntrees; t++)
            total += uses[t * nf + j];
    }
    p->trees_of[nf] = total;
    p->trees = spoor_xmalloc((total + 1) * sizeof *p->trees);
    for (size_t j = 0, k = 0; j < nf; j++)
        for (size_t t = 0; t < f->ntrees; t++)
            if (uses[t * nf + j])
                p->trees[k++] = t;
    free(uses);
}

struct spoor_forest_predictor *spoor_forest_predictor_new(const struct spoor_forest *f, size_t nrows,
                                                          bool classification)
{
    struct spoor_forest_predictor *p = spoor_xcalloc(1, sizeof *p);
    p->f = f;
    p->nrows = nrows;
    p->classification = classification;
    p->leaf = spoor_xmalloc((nrows * f->ntrees + 1) * sizeof *p->leaf);
    p->margin = spoor_xmalloc((nrows * (size_t)f->ngroups + 1) * sizeof *p->margin);
    index_trees(p);
    return p;
}

/* The answer for one row from its margins: a value, or the most probable class. */
static double answer(const struct spoor_forest_predictor *p, double *margin)
{
    const struct spoor_forest *f = p->f;
    spoor_forest_link(f, margin);
    if (!p->classification)
        return margin[0];
    if (f->ngroups == 1)
        return margin[0] >= 0.5;
    int best = 0;
    for (int g = 1; g < f->ngroups; g++)
        best = margin[g] > margin[best] ? g : best;
    return best;
}

void spoor_forest_predictor_run(void *ctx, const double *x, size_t nrows, size_t ncols, size_t changed, double *out)
{
    struct spoor_forest_predictor *p = ctx;
    const struct spoor_forest *f = p->f;
    size_t ng = (size_t)f->ngroups;
    double m[ng];
    for (size_t i = 0; i < nrows; i++) {
        const double *row = x + i * ncols;
        const float *leaf = p->leaf + i * f->ntrees;
        double *margin = p->margin + i * ng;
        if (changed == SPOOR_ALL_COLUMNS) {
            for (size_t g = 0; g < ng; g++)
                margin[g] = f->base_margin;
            for (size_t t = 0; t < f->ntrees; t++) {
                p->leaf[i * f->ntrees + t] = spoor_forest_tree_leaf(f, t, row);
                margin[f->groups[t]] += leaf[t];
            }
        }
        for (size_t g = 0; g < ng; g++)
            m[g] = margin[g];
        for (size_t k = changed == SPOOR_ALL_COLUMNS ? 0 : p->trees_of[changed];
             changed != SPOOR_ALL_COLUMNS && k < p->trees_of[changed + 1]; k++) {
            size_t t = p->trees[k];
            m[f->groups[t]] += spoor_forest_tree_leaf(f, t, row) - leaf[t];
        }
        out[i] = answer(p, m);
    }
}

void spoor_forest_predictor_free(struct spoor_forest_predictor *p)
{
    if (!p)
        return;
    free(p->leaf);
    free(p->margin);
    free(p->trees_of);
    free(p->trees);
    free(p);
}
