/* The best depth-2 decision rule: a root split and one split per side, with
 * the majority class of each of the four leaves, chosen to maximise training
 * accuracy over every feature pair and up to 64 candidate thresholds per
 * feature. A strong, readable baseline: on the iopattern data two thresholds
 * do about as well as an MLP. */
#include "ml/model_internal.h"

#include <stdlib.h>
#include <string.h>

#define MAX_CUTS 64

struct cuts {
    size_t p, k;
    double thr[MAX_CUTS];
    size_t n;
};

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Midpoints between distinct values (all of them, or at quantiles when many). */
static void feature_cuts(const struct spoor_dataset *ds, const size_t *rows, size_t n, size_t f, struct cuts *c)
{
    double *v = spoor_xcalloc(n + 1, sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = ds->x[rows[i] * ds->nfeat + f];
    qsort(v, n, sizeof *v, cmp_double);
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || v[i] != v[distinct - 1])
            v[distinct++] = v[i];
    c->n = 0;
    size_t want = distinct - 1 < MAX_CUTS ? distinct - 1 : MAX_CUTS;
    for (size_t q = 0; q < want; q++) {
        size_t i = want == distinct - 1 ? q : (q + 1) * (distinct - 1) / (want + 1);
        double t = v[i] + (v[i + 1] - v[i]) / 2;
        if (!c->n || t > c->thr[c->n - 1])
            c->thr[c->n++] = t;
    }
    free(v);
}

/* Bin of a value: the number of cuts below it (x <= thr[b] iff bin <= b). */
static uint8_t bin_of(const struct cuts *c, double x)
{
    size_t lo = 0, hi = c->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (x <= c->thr[mid])
            hi = mid;
        else
            lo = mid + 1;
    }
    return (uint8_t)lo;
}

static uint32_t argmax(const size_t *count, size_t k)
{
    uint32_t best = 0;
    for (size_t c = 1; c < k; c++)
        best = count[c] > count[best] ? (uint32_t)c : best;
    return best;
}

struct side_best {
    size_t correct;
    uint32_t feat;
    double thr;
    uint32_t leaf[2];
};

/* The best single split of the rows whose flag equals `which`. */
static struct side_best best_split(const struct spoor_dataset *ds, const size_t *rows, size_t n, const uint8_t *bins,
                                   const struct cuts *cuts, const bool *flag, bool which, size_t *hist)
{
    size_t p = ds->nfeat, k = ds->nclasses;
    struct side_best best = {0};
    memset(hist, 0, p * (MAX_CUTS + 1) * k * sizeof *hist);
    size_t total[k];
    memset(total, 0, sizeof total);
    for (size_t i = 0; i < n; i++) {
        if (flag[i] != which)
            continue;
        uint32_t y = ds->cls[rows[i]];
        total[y]++;
        for (size_t f = 0; f < p; f++)
            hist[(f * (MAX_CUTS + 1) + bins[i * p + f]) * k + y]++;
    }
    best.leaf[0] = best.leaf[1] = argmax(total, k);
    best.correct = total[best.leaf[0]];
    best.thr = cuts[0].n ? cuts[0].thr[0] : 0;
    for (size_t f = 0; f < p; f++) {
        size_t left[k], right[k];
        memset(left, 0, sizeof left);
        for (size_t b = 0; b < cuts[f].n; b++) {
            for (size_t c = 0; c < k; c++) {
                left[c] += hist[(f * (MAX_CUTS + 1) + b) * k + c];
                right[c] = total[c] - left[c];
            }
            uint32_t l = argmax(left, k), r = argmax(right, k);
            if (left[l] + right[r] > best.correct)
                best = (struct side_best){.correct = left[l] + right[r], .feat = (uint32_t)f, .thr = cuts[f].thr[b],
                                          .leaf = {l, r}};
        }
    }
    return best;
}

int rule_train(const struct spoor_dataset *ds, const size_t *rows, size_t n, struct spoor_model *m,
               struct spoor_error *err)
{
    size_t p = ds->nfeat;
    struct cuts *cuts = spoor_xcalloc(p, sizeof *cuts);
    uint8_t *bins = spoor_xcalloc(n * p + 1, sizeof *bins);
    for (size_t f = 0; f < p; f++)
        feature_cuts(ds, rows, n, f, &cuts[f]);
    for (size_t i = 0; i < n; i++)
        for (size_t f = 0; f < p; f++)
            bins[i * p + f] = bin_of(&cuts[f], ds->x[rows[i] * p + f]);
    size_t *hist = spoor_xcalloc(p * (MAX_CUTS + 1) * ds->nclasses, sizeof *hist);
    bool *left = spoor_xcalloc(n + 1, sizeof *left);
    size_t best_correct = 0;
    for (size_t f = 0; f < p; f++)
        for (size_t b = 0; b < cuts[f].n || (f == 0 && b == 0); b++) {
            double thr = cuts[f].n ? cuts[f].thr[b] : 0;
            for (size_t i = 0; i < n; i++)
                left[i] = ds->x[rows[i] * p + f] <= thr;
            struct side_best l = best_split(ds, rows, n, bins, cuts, left, true, hist);
            struct side_best r = best_split(ds, rows, n, bins, cuts, left, false, hist);
            if (l.correct + r.correct > best_correct || (f == 0 && b == 0)) {
                best_correct = l.correct + r.correct;
                m->rule = (struct spoor_rule){.feat = {(uint32_t)f, l.feat, r.feat},
                                              .thr = {thr, l.thr, r.thr},
                                              .leaf = {l.leaf[0], l.leaf[1], r.leaf[0], r.leaf[1]}};
            }
        }
    free(left);
    free(hist);
    free(bins);
    free(cuts);
    return SPOOR_OK;
}
