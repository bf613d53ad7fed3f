/* A spoor importance result as a report (a table, JSON or CSV of its own
 * sheets each), and a feature correlation matrix as one. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spoor/ml.h"
#include "spoor/report.h"

/* What the sheets are built from: the dataset, the result, its settings and
 * how much of it is shown. */
struct view {
    const struct spoor_dataset *ds;
    const struct spoor_importance_report *r;
    const struct spoor_importance_opts *opts;
    const struct spoor_importance_view *shown;
};

/* ---- what every format shows ---- */

struct layer_total {
    char *name;
    size_t features;
    double share;
};

/* Consensus share per layer, largest first; empty when no name has a layer. */
static struct layer_total *layer_totals(const struct view *v, size_t *n)
{
    struct layer_total *t = NULL;
    *n = 0;
    for (size_t j = 0; j < v->ds->nfeat; j++) {
        const char *layer;
        size_t len = spoor_importance_layer(v->ds->feat_names[j], v->shown->layer_sep, &layer);
        if (!len)
            continue;
        size_t k = 0;
        while (k < *n && (strlen(t[k].name) != len || strncmp(t[k].name, layer, len) != 0))
            k++;
        if (k == *n) {
            t = spoor_xrealloc(t, (*n + 1) * sizeof *t);
            t[(*n)++] = (struct layer_total){spoor_xstrndup(layer, len), 0, 0};
        }
        t[k].features++;
        t[k].share += v->r->consensus[j];
    }
    for (size_t a = 1; a < *n; a++) /* insertion sort: a handful of layers */
        for (size_t b = a; b > 0 && t[b].share > t[b - 1].share; b--) {
            struct layer_total tmp = t[b];
            t[b] = t[b - 1];
            t[b - 1] = tmp;
        }
    return t;
}

static void free_layers(struct layer_total *t, size_t n)
{
    for (size_t k = 0; k < n; k++)
        free(t[k].name);
    free(t);
}

struct pair {
    size_t a, b;
    double r;
};

static int by_abs_r(const void *x, const void *y)
{
    const struct pair *p = x, *q = y;
    if (fabs(p->r) != fabs(q->r))
        return fabs(p->r) < fabs(q->r) ? 1 : -1;
    return p->a != q->a ? (p->a > q->a) - (p->a < q->a) : (p->b > q->b) - (p->b < q->b);
}

/* The shown->pairs most correlated feature pairs by |Pearson r|. */
static struct pair *strongest_pairs(const struct view *v, size_t *n)
{
    size_t p = v->ds->nfeat, all = p * (p - 1) / 2, k = 0;
    struct pair *pairs = spoor_xmalloc((all + 1) * sizeof *pairs);
    for (size_t a = 0; a < p; a++)
        for (size_t b = a + 1; b < p; b++)
            pairs[k++] = (struct pair){a, b, v->r->pearson[a * p + b]};
    qsort(pairs, all, sizeof *pairs, by_abs_r);
    *n = all < v->shown->pairs ? all : v->shown->pairs;
    return pairs;
}

static const char *layer_of(const struct view *v, size_t j, char *buf, size_t cap)
{
    const char *layer;
    size_t len = spoor_importance_layer(v->ds->feat_names[j], v->shown->layer_sep, &layer);
    snprintf(buf, cap, "%.*s", (int)len, len ? layer : "");
    return buf;
}

static const char *task_name(const struct spoor_importance_report *r)
{
    return r->classification ? "classification" : "regression";
}

/* The three largest loadings of component k, as "name (+0.41), ...". */
static void top_loadings(const struct view *v, size_t k, char *buf, size_t cap)
{
    size_t p = v->r->pca.n, used = 0, best[3];
    size_t n = p < 3 ? p : 3;
    for (size_t m = 0; m < n; m++) {
        size_t pick = SIZE_MAX;
        for (size_t j = 0; j < p; j++) {
            bool taken = false;
            for (size_t q = 0; q < m; q++)
                taken |= best[q] == j;
            if (!taken && (pick == SIZE_MAX || fabs(v->r->pca.loadings[j * p + k]) > fabs(v->r->pca.loadings[pick * p + k])))
                pick = j;
        }
        best[m] = pick;
        used += (size_t)snprintf(buf + used, used < cap ? cap - used : 0, "%s%s (%+.2f)", m ? ", " : "",
                                 v->ds->feat_names[pick], v->r->pca.loadings[pick * p + k]);
    }
}

#define TABLE_ONLY SPOOR_FORMAT_BIT(SPOOR_FORMAT_TABLE)
#define JSON_ONLY SPOOR_FORMAT_BIT(SPOOR_FORMAT_JSON)
#define CSV_ONLY SPOOR_FORMAT_BIT(SPOOR_FORMAT_CSV)
/* What tables show of scores and shares, and what JSON and CSV give. */
#define TABLE_SHARE 4
#define TABLE_SCORE SPOOR_DIGITS_SIG(4)
#define DATA SPOOR_DIGITS_SIG(6)

static void column(struct spoor_sheet *sh, size_t c, const char *name, int digits, enum spoor_col_hint hint)
{
    spoor_sheet_column(sh, c, name, SPOOR_CU_NONE, digits, hint);
}

/* The number of score columns, and their names in a table or in data. */
static size_t score_columns(struct spoor_sheet *sh, size_t first, const struct spoor_importance_report *r, bool table)
{
    size_t c = first;
    for (int s = 0; s < SPOOR_NSCORES; s++) {
        if (!r->score[s])
            continue;
        const char *name = spoor_score_names[s];
        if (table && r->classification && s == SPOOR_SCORE_PEARSON)
            name = "eta";
        else if (table && r->classification && s == SPOOR_SCORE_SPEARMAN)
            name = "eta(rank)";
        if (sh)
            column(sh, c, name, table ? TABLE_SCORE : DATA, SPOOR_HINT_SERIES);
        c++;
    }
    return c - first;
}

static void score_cells(struct spoor_sheet *sh, const struct spoor_importance_report *r, size_t j)
{
    for (int s = 0; s < SPOOR_NSCORES; s++)
        if (r->score[s])
            spoor_sheet_float(sh, r->score[s][j]);
}

/* ---- a table's ---- */

static void table_header(struct spoor_report *rep, const struct view *v)
{
    const struct spoor_dataset *ds = v->ds;
    const struct spoor_importance_report *r = v->r;
    struct spoor_sheet *p = spoor_report_props(rep, NULL, TABLE_ONLY);
    char classes[64] = "";
    if (r->classification)
        snprintf(classes, sizeof classes, ", %zu classes", ds->nclasses);
    spoor_sheet_prop(p, "dataset", SPOOR_CU_NONE, 0);
    spoor_sheet_textf(p, "%s: %zu rows, %zu features, target %s (%s%s)", ds->path, ds->nrows, ds->nfeat,
                      ds->label_name, task_name(r), classes);
    for (size_t i = 0; i < ds->ndropped; i++) {
        const struct spoor_dataset_drop *d = &ds->dropped[i];
        char corr[64] = "";
        if (d->other)
            snprintf(corr, sizeof corr, ", r = %.4f", d->r);
        spoor_sheet_prop(p, "dropped", SPOOR_CU_NONE, 0);
        spoor_sheet_textf(p, "%s (%s%s%s%s)", d->name, d->reason, d->other ? " " : "", d->other ? d->other : "", corr);
    }
    if (ds->skipped_rows) {
        spoor_sheet_prop(p, "skipped", SPOOR_CU_NONE, 0);
        spoor_sheet_textf(p, "%llu rows lacking a value", (unsigned long long)ds->skipped_rows);
    }
    if (r->ntest) {
        spoor_sheet_prop(p, "held out", SPOOR_CU_NONE, 0);
        spoor_sheet_textf(p, "%zu of %zu rows%s%s%s: trees' held-out %s %.4f", r->ntest, r->ntrain + r->ntest,
                          ds->group_name ? " (whole groups of " : "", ds->group_name ? ds->group_name : "",
                          ds->group_name ? ")" : "", r->classification ? "accuracy" : "R^2", r->heldout_score);
    }
    if (r->score[SPOOR_SCORE_LASSO]) {
        spoor_sheet_prop(p, "lasso", SPOOR_CU_NONE, 0);
        spoor_sheet_textf(p, "alpha %.4g (%zu-fold CV, one-standard-error rule%s), CV MSE %.4g", r->lasso_alpha,
                          r->lasso_folds, r->classification ? ", one-vs-rest, averaged over classes" : "",
                          r->lasso_cv_mse);
    }
}

static void table_features(struct spoor_report *rep, const struct view *v)
{
    const struct spoor_importance_report *r = v->r;
    struct spoor_sheet *t = spoor_report_rows(rep, "features", 4 + score_columns(NULL, 0, r, true), TABLE_ONLY);
    column(t, 0, "rank", 0, SPOOR_HINT_NONE);
    column(t, 1, "feature", 0, SPOOR_HINT_CATEGORY);
    column(t, 2, "consensus", TABLE_SHARE, SPOOR_HINT_SERIES);
    column(t, 3, "cumulative", TABLE_SHARE, SPOOR_HINT_NONE);
    score_columns(t, 4, r, true);
    size_t shown = v->shown->top && v->shown->top < r->nfeat ? v->shown->top : r->nfeat;
    double cumulative = 0;
    for (size_t k = 0; k < shown; k++) {
        size_t j = r->order[k];
        cumulative += r->consensus[j];
        spoor_sheet_int(t, (int64_t)k + 1);
        spoor_sheet_name(t, v->ds->feat_names[j]);
        spoor_sheet_float(t, r->consensus[j]);
        spoor_sheet_float(t, cumulative);
        score_cells(t, r, j);
    }
    if (shown < r->nfeat)
        spoor_sheet_footer(t, "(%zu more features; --top 0 lists all)", r->nfeat - shown);
}

/* "smallest set reaching 90% of the consensus: 3 of 12 features: a, b, c", a line of its own. */
static void table_cumulative(struct spoor_report *rep, const struct view *v)
{
    char *names = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&names, &len);
    for (size_t k = 0; f && k < v->r->ncumulative; k++)
        fprintf(f, "%s %s", k ? "," : "", v->ds->feat_names[v->r->order[k]]);
    if (f)
        fclose(f);
    struct spoor_sheet *line = spoor_report_rows(rep, "cumulative", 0, TABLE_ONLY);
    spoor_sheet_title(line, "smallest set reaching %.0f%% of the consensus: %zu of %zu features:%s",
                      100 * v->opts->cumulative, v->r->ncumulative, v->r->nfeat, names ? names : "");
    free(names);
}

static void layers_sheet(struct spoor_sheet *t, const struct layer_total *lt, size_t n, bool table)
{
    column(t, 0, "layer", 0, SPOOR_HINT_CATEGORY);
    column(t, 1, "features", 0, SPOOR_HINT_NONE);
    column(t, 2, "consensus", table ? TABLE_SHARE : DATA, SPOOR_HINT_SERIES);
    for (size_t k = 0; k < n; k++) {
        spoor_sheet_text(t, lt[k].name);
        spoor_sheet_count(t, lt[k].features);
        spoor_sheet_float(t, lt[k].share);
    }
}

static void pairs_sheet(struct spoor_sheet *t, const struct view *v, bool table)
{
    size_t n, p = v->ds->nfeat;
    struct pair *pairs = strongest_pairs(v, &n);
    column(t, 0, table ? "feature" : "a", 0, SPOOR_HINT_CATEGORY);
    column(t, 1, table ? "feature" : "b", 0, SPOOR_HINT_CATEGORY);
    column(t, 2, "pearson", table ? TABLE_SHARE : DATA, SPOOR_HINT_SERIES);
    column(t, 3, "spearman", table ? TABLE_SHARE : DATA, SPOOR_HINT_SERIES);
    for (size_t k = 0; k < n; k++) {
        spoor_sheet_name(t, v->ds->feat_names[pairs[k].a]);
        spoor_sheet_name(t, v->ds->feat_names[pairs[k].b]);
        spoor_sheet_float(t, pairs[k].r);
        spoor_sheet_float(t, v->r->spearman[pairs[k].a * p + pairs[k].b]);
    }
    free(pairs);
}

static void table_pca(struct spoor_report *rep, const struct view *v)
{
    const struct spoor_pca *pca = &v->r->pca;
    struct spoor_sheet *t = spoor_report_rows(rep, "pca", 5, TABLE_ONLY);
    spoor_sheet_title(t, "principal components (standardised features):");
    static const char *const h[] = {"component", "variance", "ratio", "cumulative", "largest loadings"};
    for (size_t c = 0; c < 5; c++)
        column(t, c, h[c], TABLE_SHARE, c == 0 ? SPOOR_HINT_CATEGORY : c == 2 ? SPOOR_HINT_SERIES : SPOOR_HINT_NONE);
    double cumulative = 0;
    char buf[512];
    size_t n = v->shown->components < pca->n ? v->shown->components : pca->n;
    for (size_t k = 0; k < n; k++) {
        cumulative += pca->ratio[k];
        top_loadings(v, k, buf, sizeof buf);
        spoor_sheet_textf(t, "PC%zu", k + 1);
        spoor_sheet_float(t, pca->variance[k]);
        spoor_sheet_float(t, pca->ratio[k]);
        spoor_sheet_float(t, cumulative);
        spoor_sheet_text(t, buf);
    }
}

static void table_sheets(struct spoor_report *rep, const struct view *v)
{
    table_header(rep, v);
    table_features(rep, v);
    table_cumulative(rep, v);
    size_t n;
    struct layer_total *lt = layer_totals(v, &n);
    if (n)
        layers_sheet(spoor_report_rows(rep, "layers", 3, TABLE_ONLY), lt, n, true);
    free_layers(lt, n);
    if (v->r->score[SPOOR_SCORE_PEARSON] && v->shown->pairs) {
        struct spoor_sheet *t = spoor_report_rows(rep, "pairs", 4, TABLE_ONLY);
        spoor_sheet_title(t, "strongest pairs (|Pearson r|):");
        pairs_sheet(t, v, true);
    }
    if (v->r->pca.n && v->shown->components)
        table_pca(rep, v);
}

/* ---- JSON's ---- */

static void json_head(struct spoor_report *rep, const struct view *v)
{
    const struct spoor_dataset *ds = v->ds;
    const struct spoor_importance_report *r = v->r;
    struct spoor_sheet *p = spoor_report_props(rep, NULL, JSON_ONLY);
    spoor_sheet_prop(p, "dataset", SPOOR_CU_NONE, 0);
    spoor_sheet_text(p, ds->path);
    spoor_sheet_prop(p, "rows", SPOOR_CU_COUNT, 0);
    spoor_sheet_count(p, ds->nrows);
    spoor_sheet_prop(p, "skipped_rows", SPOOR_CU_COUNT, 0);
    spoor_sheet_count(p, ds->skipped_rows);
    spoor_sheet_prop(p, "target", SPOOR_CU_NONE, 0);
    spoor_sheet_text(p, ds->label_name);
    spoor_sheet_prop(p, "task", SPOOR_CU_NONE, 0);
    spoor_sheet_name(p, task_name(r));
    struct spoor_sheet *classes = spoor_sheet_list_new(SPOOR_CU_NONE, 0);
    for (size_t c = 0; r->classification && c < ds->nclasses; c++)
        spoor_sheet_name(classes, ds->class_names[c]);
    spoor_sheet_prop(p, "classes", SPOOR_CU_NONE, 0);
    spoor_sheet_sheet(p, classes);
    struct spoor_sheet *dropped = spoor_sheet_rows_new(4);
    static const char *const h[] = {"name", "reason", "other", "r"};
    for (size_t c = 0; c < 4; c++)
        column(dropped, c, h[c], DATA, SPOOR_HINT_NONE);
    for (size_t i = 0; i < ds->ndropped; i++) {
        const struct spoor_dataset_drop *d = &ds->dropped[i];
        spoor_sheet_name(dropped, d->name);
        spoor_sheet_name(dropped, d->reason);
        if (d->other) {
            spoor_sheet_name(dropped, d->other);
            spoor_sheet_float(dropped, d->r);
        } else {
            spoor_sheet_absent(dropped);
            spoor_sheet_absent(dropped);
        }
    }
    spoor_sheet_prop(p, "dropped", SPOOR_CU_NONE, 0);
    spoor_sheet_sheet(p, dropped);
    if (r->ntest) {
        struct spoor_sheet *h = spoor_report_props(rep, "heldout", JSON_ONLY);
        spoor_sheet_prop(h, "train", SPOOR_CU_COUNT, 0);
        spoor_sheet_count(h, r->ntrain);
        spoor_sheet_prop(h, "test", SPOOR_CU_COUNT, 0);
        spoor_sheet_count(h, r->ntest);
        spoor_sheet_prop(h, "grouped", SPOOR_CU_NONE, 0);
        spoor_sheet_bool(h, ds->group_name != NULL);
        spoor_sheet_prop(h, "metric", SPOOR_CU_NONE, 0);
        spoor_sheet_name(h, r->classification ? "accuracy" : "r2");
        spoor_sheet_prop(h, "score", SPOOR_CU_NONE, DATA);
        spoor_sheet_float(h, r->heldout_score);
    }
    if (r->score[SPOOR_SCORE_LASSO]) {
        struct spoor_sheet *l = spoor_report_props(rep, "lasso", JSON_ONLY);
        spoor_sheet_prop(l, "alpha", SPOOR_CU_NONE, DATA);
        spoor_sheet_float(l, r->lasso_alpha);
        spoor_sheet_prop(l, "cv_mse", SPOOR_CU_NONE, DATA);
        spoor_sheet_float(l, r->lasso_cv_mse);
        spoor_sheet_prop(l, "folds", SPOOR_CU_COUNT, 0);
        spoor_sheet_count(l, r->lasso_folds);
    }
}

/* Every feature in consensus order: JSON's (with its layer) or CSV's (with
 * whether it is in the smallest set). */
static void features_sheet(struct spoor_report *rep, const struct view *v, bool json)
{
    const struct spoor_importance_report *r = v->r;
    size_t extra = json ? 0 : 1;
    struct spoor_sheet *t = spoor_report_rows(rep, "features", 5 + extra + score_columns(NULL, 0, r, false),
                                              json ? JSON_ONLY : CSV_ONLY);
    column(t, 0, "rank", 0, SPOOR_HINT_NONE);
    column(t, 1, json ? "name" : "feature", 0, SPOOR_HINT_CATEGORY);
    column(t, 2, "layer", 0, SPOOR_HINT_NONE);
    column(t, 3, "consensus", DATA, SPOOR_HINT_SERIES);
    column(t, 4, "cumulative", DATA, SPOOR_HINT_NONE);
    if (!json)
        column(t, 5, "in_set", 0, SPOOR_HINT_NONE);
    score_columns(t, 5 + extra, r, false);
    char buf[256];
    double cumulative = 0;
    for (size_t k = 0; k < r->nfeat; k++) {
        size_t j = r->order[k];
        cumulative += r->consensus[j];
        spoor_sheet_int(t, (int64_t)k + 1);
        spoor_sheet_name(t, v->ds->feat_names[j]);
        if (json || *layer_of(v, j, buf, sizeof buf)) /* JSON: "" without a layer; CSV: empty */
            spoor_sheet_text(t, layer_of(v, j, buf, sizeof buf));
        else
            spoor_sheet_null(t);
        spoor_sheet_float(t, r->consensus[j]);
        spoor_sheet_float(t, cumulative);
        if (!json)
            spoor_sheet_int(t, k < r->ncumulative);
        score_cells(t, r, j);
    }
}

static void json_tail(struct spoor_report *rep, const struct view *v)
{
    const struct spoor_importance_report *r = v->r;
    struct spoor_sheet *c = spoor_report_props(rep, "cumulative", JSON_ONLY);
    spoor_sheet_prop(c, "threshold", SPOOR_CU_NONE, DATA);
    spoor_sheet_float(c, v->opts->cumulative);
    struct spoor_sheet *names = spoor_sheet_list_new(SPOOR_CU_NONE, 0);
    for (size_t k = 0; k < r->ncumulative; k++)
        spoor_sheet_name(names, v->ds->feat_names[r->order[k]]);
    spoor_sheet_prop(c, "features", SPOOR_CU_NONE, 0);
    spoor_sheet_sheet(c, names);
    struct spoor_sheet *layers = spoor_sheet_rows_new(3);
    size_t n;
    struct layer_total *lt = layer_totals(v, &n);
    layers_sheet(layers, lt, n, false);
    free_layers(lt, n);
    struct spoor_sheet *l = spoor_report_props(rep, NULL, JSON_ONLY);
    spoor_sheet_prop(l, "layers", SPOOR_CU_NONE, 0);
    spoor_sheet_sheet(l, layers);
    if (r->score[SPOOR_SCORE_PEARSON])
        pairs_sheet(spoor_report_rows(rep, "pairs", 4, JSON_ONLY), v, false);
    const struct spoor_pca *pca = &r->pca;
    if (!pca->n)
        return;
    struct spoor_sheet *t = spoor_report_rows(rep, "pca", 4, JSON_ONLY);
    static const char *const h[] = {"component", "variance", "ratio", "loadings"};
    for (size_t k = 0; k < 4; k++)
        column(t, k, h[k], DATA, SPOOR_HINT_NONE);
    for (size_t k = 0; k < pca->n && k < v->shown->components; k++) {
        spoor_sheet_int(t, (int64_t)k + 1);
        spoor_sheet_float(t, pca->variance[k]);
        spoor_sheet_float(t, pca->ratio[k]);
        struct spoor_sheet *loadings = spoor_sheet_list_new(SPOOR_CU_NONE, DATA);
        for (size_t j = 0; j < pca->n; j++)
            spoor_sheet_float(loadings, pca->loadings[j * pca->n + k]);
        spoor_sheet_sheet(t, loadings);
    }
}

struct spoor_report *spoor_importance_to_report(const struct spoor_dataset *ds, const struct spoor_importance_report *r,
                                               const struct spoor_importance_opts *o,
                                               const struct spoor_importance_view *shown)
{
    const struct view view = {ds, r, o, shown}, *v = &view;
    struct spoor_report *rep = spoor_report_new("spoor importance");
    table_sheets(rep, v);
    json_head(rep, v);
    features_sheet(rep, v, true);
    json_tail(rep, v);
    features_sheet(rep, v, false);
    return rep;
}

static struct spoor_report *matrix_report(const struct spoor_dataset *ds, const double *m)
{
    struct spoor_report *rep = spoor_report_new("feature correlations");
    size_t p = ds->nfeat;
    struct spoor_sheet *t = spoor_report_rows(rep, "matrix", p + 1, SPOOR_FORMATS_ALL);
    column(t, 0, "feature", 0, SPOOR_HINT_CATEGORY);
    for (size_t j = 0; j < p; j++)
        column(t, j + 1, ds->feat_names[j], DATA, SPOOR_HINT_PIVOT);
    for (size_t a = 0; a < p; a++) {
        spoor_sheet_name(t, ds->feat_names[a]);
        for (size_t b = 0; b < p; b++)
            spoor_sheet_float(t, m[a * p + b]);
    }
    return rep;
}

int spoor_importance_matrix_save(const struct spoor_dataset *ds, const double *m, const char *path,
                                 struct spoor_error *err)
{
    struct spoor_report *matrix = matrix_report(ds, m);
    int rc = spoor_report_save(matrix, path, SPOOR_FORMAT_CSV, 1, err);
    spoor_report_free(matrix);
    return rc;
}
