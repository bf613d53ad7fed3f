/* Train/test splits and cross-validation folds as lists of row indexes. With a
 * group column, whole groups move together: windows of one run are correlated,
 * so a row-level split would score the model on near-copies of its training. */
#include "spoor/ml.h"
#include "ml/shuffle.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static size_t *all_rows(const struct spoor_dataset *ds, const size_t *rows, size_t *nrows)
{
    size_t n = rows ? *nrows : ds->nrows;
    size_t *v = spoor_xcalloc(n + 1, sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = rows ? rows[i] : i;
    *nrows = n;
    return v;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* Fills s from a per-row flag (true = test), both sides in ascending order. */
static int split_from_flags(const size_t *rows, size_t n, const bool *test, struct spoor_split *s, struct spoor_error *err)
{
    memset(s, 0, sizeof *s);
    s->train = spoor_xcalloc(n + 1, sizeof *s->train);
    s->test = spoor_xcalloc(n + 1, sizeof *s->test);
    for (size_t i = 0; i < n; i++) {
        if (test[i])
            s->test[s->ntest++] = rows[i];
        else
            s->train[s->ntrain++] = rows[i];
    }
    qsort(s->train, s->ntrain, sizeof *s->train, cmp_size);
    qsort(s->test, s->ntest, sizeof *s->test, cmp_size);
    if (s->ntrain && s->ntest)
        return SPOOR_OK;
    spoor_split_free(s);
    return spoor_fail(err, SPOOR_EUSAGE, "cannot split %zu rows: one side would be empty", n);
}

/* Rows as positions 0..n-1 into `rows`, ordered as the strata will deal them:
 * per class (in class order), shuffled within each class. */
static size_t *strata_order(const struct spoor_dataset *ds, const size_t *rows, size_t n, struct spoor_rng *rng,
                            size_t *starts, size_t nstrata)
{
    size_t *pos = spoor_xcalloc(n + 1, sizeof *pos), k = 0;
    for (size_t c = 0; c < nstrata; c++) {
        starts[c] = k;
        for (size_t i = 0; i < n; i++)
            if (nstrata == 1 || ds->cls[rows[i]] == c)
                pos[k++] = i;
        ml_shuffle(rng, pos + starts[c], k - starts[c]);
    }
    starts[nstrata] = k;
    return pos;
}

static size_t strata_count(const struct spoor_dataset *ds) { return ds->label_is_class ? ds->nclasses : 1; }

int spoor_split_rows(const struct spoor_dataset *ds, const size_t *rows, size_t nrows, double test_frac,
                     uint64_t seed, struct spoor_split *out, struct spoor_error *err)
{
    size_t n = nrows;
    size_t *v = all_rows(ds, rows, &n);
    struct spoor_rng rng;
    spoor_rng_seed(&rng, seed);
    size_t ns = strata_count(ds);
    size_t *starts = spoor_xcalloc(ns + 1, sizeof *starts);
    size_t *pos = strata_order(ds, v, n, &rng, starts, ns);
    /* ceil(frac * n) test rows, shared by the strata by largest remainder. */
    size_t want = (size_t)ceil(test_frac * (double)n - 1e-9), got = 0;
    size_t *take = spoor_xcalloc(ns + 1, sizeof *take);
    for (size_t c = 0; c < ns; c++)
        got += take[c] = (size_t)(test_frac * (double)(starts[c + 1] - starts[c]));
    while (got < want) {
        size_t best = ns;
        double best_rem = -1;
        for (size_t c = 0; c < ns; c++) {
            double rem = test_frac * (double)(starts[c + 1] - starts[c]) - (double)take[c];
            if (take[c] < starts[c + 1] - starts[c] && rem > best_rem)
                best = c, best_rem = rem;
        }
        if (best == ns)
            break;
        take[best]++;
        got++;
    }
    bool *test = spoor_xcalloc(n + 1, sizeof *test);
    for (size_t c = 0; c < ns; c++)
        for (size_t i = 0; i < take[c]; i++)
            test[pos[starts[c] + i]] = true;
    int st = split_from_flags(v, n, test, out, err);
    free(test);
    free(take);
    free(pos);
    free(starts);
    free(v);
    return st;
}

/* The distinct groups among rows, in order of first sight. */
static size_t distinct_groups(const struct spoor_dataset *ds, const size_t *rows, size_t n, uint32_t *groups)
{
    bool *seen = spoor_xcalloc(ds->ngroups + 1, sizeof *seen);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!seen[ds->group[rows[i]]]) {
            seen[ds->group[rows[i]]] = true;
            groups[k++] = ds->group[rows[i]];
        }
    free(seen);
    return k;
}

int spoor_split_holdout(const struct spoor_dataset *ds, const size_t *rows, size_t nrows, double test_frac,
                        uint64_t seed, struct spoor_split *out, struct spoor_error *err)
{
    if (!ds->group)
        return spoor_split_rows(ds, rows, nrows, test_frac, seed, out, err);
    size_t n = nrows;
    size_t *v = all_rows(ds, rows, &n);
    uint32_t *groups = spoor_xcalloc(ds->ngroups + 1, sizeof *groups);
    size_t ng = distinct_groups(ds, v, n, groups);
    size_t *order = spoor_xcalloc(ng + 1, sizeof *order);
    for (size_t i = 0; i < ng; i++)
        order[i] = groups[i];
    struct spoor_rng rng;
    spoor_rng_seed(&rng, seed);
    ml_shuffle(&rng, order, ng);
    size_t *rows_of = spoor_xcalloc(ds->ngroups + 1, sizeof *rows_of);
    for (size_t i = 0; i < n; i++)
        rows_of[ds->group[v[i]]]++;
    bool *in_test = spoor_xcalloc(ds->ngroups + 1, sizeof *in_test);
    /* Whole groups into test until it holds test_frac of the rows. */
    for (size_t i = 0, taken = 0; i < ng && (double)taken < test_frac * (double)n; i++) {
        in_test[order[i]] = true;
        taken += rows_of[order[i]];
    }
    bool *test = spoor_xcalloc(n + 1, sizeof *test);
    for (size_t i = 0; i < n; i++)
        test[i] = in_test[ds->group[v[i]]];
    int st = split_from_flags(v, n, test, out, err);
    free(test);
    free(in_test);
    free(rows_of);
    free(order);
    free(groups);
    free(v);
    return st;
}

/* Folds from a fold number per position. */
static int folds_from_ids(const size_t *v, size_t n, const size_t *fold_of, size_t k, struct spoor_folds *out,
                          struct spoor_error *err)
{
    out->n = k;
    out->fold = spoor_xcalloc(k, sizeof *out->fold);
    bool *test = spoor_xcalloc(n + 1, sizeof *test);
    int st = SPOOR_OK;
    for (size_t f = 0; f < k && st == SPOOR_OK; f++) {
        for (size_t i = 0; i < n; i++)
            test[i] = fold_of[i] == f;
        st = split_from_flags(v, n, test, &out->fold[f], err);
    }
    free(test);
    if (st != SPOOR_OK)
        spoor_folds_free(out);
    return st;
}

int spoor_folds_kfold(const struct spoor_dataset *ds, const size_t *rows, size_t nrows, size_t k,
                      uint64_t seed, struct spoor_folds *out, struct spoor_error *err)
{
    memset(out, 0, sizeof *out);
    size_t n = nrows;
    size_t *v = all_rows(ds, rows, &n);
    struct spoor_rng rng;
    spoor_rng_seed(&rng, seed);
    size_t *fold_of = spoor_xcalloc(n + 1, sizeof *fold_of);
    size_t units = n;
    if (ds->group) {
        /* Shuffled groups, each to the fold with the fewest rows so far. */
        uint32_t *groups = spoor_xcalloc(ds->ngroups + 1, sizeof *groups);
        size_t ng = units = distinct_groups(ds, v, n, groups);
        size_t *order = spoor_xcalloc(ng + 1, sizeof *order), *size = spoor_xcalloc(k + 1, sizeof *size);
        size_t *rows_of = spoor_xcalloc(ds->ngroups + 1, sizeof *rows_of), *group_fold = spoor_xcalloc(ds->ngroups + 1, sizeof *group_fold);
        for (size_t i = 0; i < n; i++)
            rows_of[ds->group[v[i]]]++;
        for (size_t i = 0; i < ng; i++)
            order[i] = groups[i];
        ml_shuffle(&rng, order, ng);
        for (size_t i = 0; i < ng; i++) {
            size_t best = 0;
            for (size_t f = 1; f < k; f++)
                best = size[f] < size[best] ? f : best;
            group_fold[order[i]] = best;
            size[best] += rows_of[order[i]];
        }
        for (size_t i = 0; i < n; i++)
            fold_of[i] = group_fold[ds->group[v[i]]];
        free(group_fold);
        free(rows_of);
        free(size);
        free(order);
        free(groups);
    } else {
        /* Dealt round-robin through the shuffled strata: every fold gets its share of each class. */
        size_t ns = strata_count(ds);
        size_t *starts = spoor_xcalloc(ns + 1, sizeof *starts);
        size_t *pos = strata_order(ds, v, n, &rng, starts, ns);
        for (size_t i = 0; i < n; i++)
            fold_of[pos[i]] = i % (k ? k : 1);
        free(pos);
        free(starts);
    }
    int st = k < 2 || k > units ? spoor_fail(err, SPOOR_EUSAGE, "%zu folds need 2..%zu %s", k, units, ds->group ? "groups" : "rows")
                                : folds_from_ids(v, n, fold_of, k, out, err);
    free(fold_of);
    free(v);
    return st;
}

int spoor_folds_logo(const struct spoor_dataset *ds, const size_t *rows, size_t nrows, struct spoor_folds *out,
                     struct spoor_error *err)
{
    memset(out, 0, sizeof *out);
    if (!ds->group)
        return spoor_fail(err, SPOOR_EUSAGE, "leave-one-group-out needs a group column");
    size_t n = nrows;
    size_t *v = all_rows(ds, rows, &n);
    uint32_t *groups = spoor_xcalloc(ds->ngroups + 1, sizeof *groups);
    size_t ng = distinct_groups(ds, v, n, groups);
    size_t *fold_of_group = spoor_xcalloc(ds->ngroups + 1, sizeof *fold_of_group);
    for (size_t i = 0; i < ng; i++)
        fold_of_group[groups[i]] = i;
    size_t *fold_of = spoor_xcalloc(n + 1, sizeof *fold_of);
    for (size_t i = 0; i < n; i++)
        fold_of[i] = fold_of_group[ds->group[v[i]]];
    int st = ng < 2 ? spoor_fail(err, SPOOR_EUSAGE, "leave-one-group-out needs at least 2 groups, got %zu", ng)
                    : folds_from_ids(v, n, fold_of, ng, out, err);
    free(fold_of);
    free(fold_of_group);
    free(groups);
    free(v);
    return st;
}

long spoor_split_missing_class(const struct spoor_dataset *ds, const struct spoor_split *s)
{
    if (!ds->label_is_class)
        return -1;
    unsigned char *seen = spoor_xcalloc(ds->nclasses + 1, 1);
    for (size_t i = 0; i < s->ntrain; i++)
        seen[ds->cls[s->train[i]]] |= 1;
    for (size_t i = 0; i < s->ntest; i++)
        seen[ds->cls[s->test[i]]] |= 2;
    long missing = -1;
    for (size_t c = 0; c < ds->nclasses && missing < 0; c++)
        if (seen[c] == 1)
            missing = (long)c;
    free(seen);
    return missing;
}

void spoor_split_free(struct spoor_split *s)
{
    free(s->train);
    free(s->test);
    memset(s, 0, sizeof *s);
}

void spoor_folds_free(struct spoor_folds *f)
{
    for (size_t i = 0; i < f->n; i++)
        spoor_split_free(&f->fold[i]);
    free(f->fold);
    memset(f, 0, sizeof *f);
}
