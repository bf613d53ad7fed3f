/* The best depth-2 decision rule: a root split and one split per side, with
 * the majority class of each of the four leaves, chosen to maximise training
 * accuracy over every feature pair and every cut of every feature. A strong,
 * readable baseline: a weaker search (quantile cuts) would make any model
 * look good beside it.
 *
 * A row goes left when (float)x < t, t a float on the Q16 grid, so that the
 * fixed-point header decides every row as the model does (export_tree.c).
 * Cuts therefore fall between adjacent values whose Q16 inputs
 * floor((float)x * 65536) differ: values closer than that are one value to
 * the rule, in training as in the header, and training accuracy is the
 * model's.
 *
 * The best split of each side under one root cut sweeps every feature's rows
 * in sorted order once, both sides together: O(features * rows). Root cuts
 * are searched by branch and bound, exactly: as a root cut moves right, the
 * left side's best accuracy L never falls and rises by at most the rows that
 * move, the right side's R never rises, and neither side's errors fall as it
 * gains rows; so between two cuts a and b no cut scores more than
 * min(L(b) + R(a), L(a) + R(a) + moved, rows - errors_left(a) - errors_right(b)),
 * and an interval whose bound cannot beat the best so far is skipped. */
#include "spoor/ml.h"
#include "ml/model_internal.h"
#include "ml/export_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SEEDS 16 /* root cuts per feature scored before the search between them */

/* One feature's rows (positions 0..n-1) in ascending order of value, and
 * whether a cut may follow each position (the next value's Q16 input differs). */
struct sorted {
    size_t *order;
    bool *cut_after;
};

struct keyed {
    double v;
    size_t i;
};

static int cmp_keyed(const void *a, const void *b)
{
    double x = ((const struct keyed *)a)->v, y = ((const struct keyed *)b)->v;
    return (x > y) - (x < y);
}

static void sort_feature(const double *v, size_t n, struct sorted *s)
{
    struct keyed *kv = spoor_xcalloc(n + 1, sizeof *kv);
    for (size_t i = 0; i < n; i++)
        kv[i] = (struct keyed){.v = v[i], .i = i};
    qsort(kv, n, sizeof *kv, cmp_keyed);
    s->order = spoor_xcalloc(n + 1, sizeof *s->order);
    s->cut_after = spoor_xcalloc(n + 1, sizeof *s->cut_after);
    for (size_t i = 0; i < n; i++) {
        s->order[i] = kv[i].i;
        s->cut_after[i] = i + 1 < n && spoor_export_input(kv[i].v) != spoor_export_input(kv[i + 1].v);
    }
    free(kv);
}

/* The threshold of a cut between values a < b whose Q16 inputs ka < kb
 * differ: a grid point near the middle, a float with (float)a < t <= (float)b.
 * k / 65536 is a float for |k| < 2^23; past that the middle may not be, but
 * kb / 65536 is (float)b itself (or 2^46, where inputs saturate). */
static double cut_between(double a, double b)
{
    long long ka = spoor_export_input(a), kb = spoor_export_input(b);
    double mid = ldexp((double)(ka + 1 + (kb - 1 - ka) / 2), -SPOOR_EXPORT_IN_FRAC);
    return (double)(float)mid == mid ? mid : ldexp((double)kb, -SPOOR_EXPORT_IN_FRAC);
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

/* Rows as positions: values column-major (v[f * n + i]), classes y[i]. */
struct rows {
    size_t n, p, k;
    const double *v;
    const uint32_t *y;
    const struct sorted *sorted;
};

/* The best single split of each side (side[i]: 0 left, 1 right; total[s] its
 * class counts) over every feature and cut. */
static void best_sides(const struct rows *r, const uint8_t *side, size_t *const total[2], size_t *left[2],
                       struct side_best best[2])
{
    size_t k = r->k;
    for (int s = 0; s < 2; s++) {
        uint32_t maj = argmax(total[s], k);
        best[s] = (struct side_best){.correct = total[s][maj], .leaf = {maj, maj}};
    }
    for (size_t f = 0; f < r->p; f++) {
        const struct sorted *so = &r->sorted[f];
        const double *v = r->v + f * r->n;
        memset(left[0], 0, k * sizeof *left[0]);
        memset(left[1], 0, k * sizeof *left[1]);
        bool changed[2] = {false, false};
        for (size_t j = 0; j + 1 < r->n; j++) {
            size_t i = so->order[j];
            left[side[i]][r->y[i]]++;
            changed[side[i]] = true;
            if (!so->cut_after[j])
                continue;
            /* A side none of whose rows came in since the last cut splits as it did there. */
            for (int s = 0; s < 2; s++) {
                if (!changed[s])
                    continue;
                changed[s] = false;
                size_t l = 0, rt = 0, lc = 0, rc = 0;
                for (size_t c = 0; c < k; c++) {
                    size_t right = total[s][c] - left[s][c];
                    if (left[s][c] > l)
                        l = left[s][c], lc = c;
                    if (right > rt)
                        rt = right, rc = c;
                }
                if (l + rt > best[s].correct) {
                    best[s] = (struct side_best){.correct = l + rt, .feat = (uint32_t)f,
                                                 .thr = cut_between(v[i], v[so->order[j + 1]]),
                                                 .leaf = {(uint32_t)lc, (uint32_t)rc}};
                }
            }
        }
    }
}

/* The search state: the rows, one side flag per row, class counts, the best rule so far. */
struct search {
    struct rows r;
    uint8_t *side;
    size_t *total[2], *left[2];
    size_t best_correct;
    struct spoor_rule *rule;
};

struct cut_score {
    size_t pos;             /* rows left of the cut: sorted positions 0..pos */
    size_t side[2];         /* L and R: the best accuracy of each side */
};

/* Scores root cut "after sorted position pos of feature f" and keeps it when best. */
static struct cut_score score_cut(struct search *st, size_t f, size_t pos)
{
    const struct rows *r = &st->r;
    const struct sorted *so = &r->sorted[f];
    memset(st->total[0], 0, r->k * sizeof(size_t));
    memset(st->total[1], 0, r->k * sizeof(size_t));
    for (size_t j = 0; j < r->n; j++) {
        size_t i = so->order[j];
        st->side[i] = j > pos;
        st->total[j > pos][r->y[i]]++;
    }
    struct side_best b[2];
    best_sides(r, st->side, st->total, st->left, b);
    if (b[0].correct + b[1].correct > st->best_correct) {
        st->best_correct = b[0].correct + b[1].correct;
        double a = r->v[f * r->n + so->order[pos]], c = r->v[f * r->n + so->order[pos + 1]];
        *st->rule = (struct spoor_rule){.feat = {(uint32_t)f, b[0].feat, b[1].feat},
                                        .thr = {cut_between(a, c), b[0].thr, b[1].thr},
                                        .leaf = {b[0].leaf[0], b[0].leaf[1], b[1].leaf[0], b[1].leaf[1]}};
    }
    return (struct cut_score){.pos = pos, .side = {b[0].correct, b[1].correct}};
}

static size_t min3(size_t a, size_t b, size_t c) { return a < b ? (a < c ? a : c) : (b < c ? b : c); }

/* Root cuts strictly between scored cuts a and b (indexes into cuts[]). */
static void search_between(struct search *st, size_t f, const size_t *cuts, struct cut_score a, size_t ia,
                           struct cut_score b, size_t ib)
{
    if (ib - ia < 2)
        return;
    size_t n = st->r.n, moved = b.pos - a.pos;
    /* Errors never fall as a side gains rows: the left side's are at least
     * those at a, the right side's at least those at b. */
    size_t errors = (a.pos + 1 - a.side[0]) + (n - b.pos - 1 - b.side[1]);
    size_t bound = min3(b.side[0] + a.side[1], a.side[0] + a.side[1] + moved, n - errors);
    if (bound <= st->best_correct)
        return;
    size_t im = ia + (ib - ia) / 2;
    struct cut_score m = score_cut(st, f, cuts[im]);
    search_between(st, f, cuts, a, ia, m, im);
    search_between(st, f, cuts, m, im, b, ib);
}

int rule_train(const struct spoor_dataset *ds, const size_t *rows, size_t n, struct spoor_model *m,
               struct spoor_error *err)
{
    (void)err;
    size_t p = ds->nfeat, k = ds->nclasses;
    double *v = spoor_xcalloc(n * p + 1, sizeof *v);
    uint32_t *y = spoor_xcalloc(n + 1, sizeof *y);
    for (size_t i = 0; i < n; i++) {
        y[i] = ds->cls[rows[i]];
        for (size_t f = 0; f < p; f++)
            v[f * n + i] = ds->x[rows[i] * p + f];
    }
    struct sorted *sorted = spoor_xcalloc(p + 1, sizeof *sorted);
    for (size_t f = 0; f < p; f++)
        sort_feature(v + f * n, n, &sorted[f]);
    struct search st = {.r = {.n = n, .p = p, .k = k, .v = v, .y = y, .sorted = sorted},
                        .side = spoor_xcalloc(n + 1, 1),
                        .total = {spoor_xcalloc(k, sizeof(size_t)), spoor_xcalloc(k, sizeof(size_t))},
                        .left = {spoor_xcalloc(k, sizeof(size_t)), spoor_xcalloc(k, sizeof(size_t))},
                        .rule = &m->rule};

    /* No cut at all (every feature constant): the majority class everywhere. */
    for (size_t i = 0; i < n; i++)
        st.total[0][y[i]]++;
    uint32_t maj = argmax(st.total[0], k);
    m->rule = (struct spoor_rule){.leaf = {maj, maj, maj, maj}};
    /* Every feature's cuts; a few spread over each are scored first, so that
     * the bound prunes from a good rule on, then the gaps between them. */
    size_t **cuts = spoor_xcalloc(p + 1, sizeof *cuts), *ncuts = spoor_xcalloc(p + 1, sizeof *ncuts);
    struct cut_score *seed = spoor_xcalloc(p * (SEEDS + 1) + 1, sizeof *seed);
    size_t *seed_at = spoor_xcalloc(p * (SEEDS + 1) + 1, sizeof *seed_at);
    size_t *nseeds = spoor_xcalloc(p + 1, sizeof *nseeds);
    for (size_t f = 0; f < p; f++) {
        cuts[f] = spoor_xcalloc(n + 1, sizeof **cuts);
        for (size_t j = 0; j < n; j++)
            if (sorted[f].cut_after[j])
                cuts[f][ncuts[f]++] = j;
        for (size_t q = 0; ncuts[f] && q <= SEEDS; q++) {
            size_t at = q * (ncuts[f] - 1) / SEEDS;
            if (nseeds[f] && seed_at[f * (SEEDS + 1) + nseeds[f] - 1] == at)
                continue;
            seed_at[f * (SEEDS + 1) + nseeds[f]] = at;
            seed[f * (SEEDS + 1) + nseeds[f]++] = score_cut(&st, f, cuts[f][at]);
        }
    }
    for (size_t f = 0; f < p; f++)
        for (size_t q = 0; q + 1 < nseeds[f]; q++) {
            size_t b = f * (SEEDS + 1) + q;
            search_between(&st, f, cuts[f], seed[b], seed_at[b], seed[b + 1], seed_at[b + 1]);
        }
    for (size_t f = 0; f < p; f++)
        free(cuts[f]);
    free(ncuts);
    free(seed);
    free(seed_at);
    free(nseeds);
    free(cuts);
    for (int s = 0; s < 2; s++) {
        free(st.total[s]);
        free(st.left[s]);
    }
    for (size_t f = 0; f < p; f++) {
        free(sorted[f].order);
        free(sorted[f].cut_after);
    }
    free(sorted);
    free(st.side);
    free(y);
    free(v);
    return SPOOR_OK;
}
