#include "importance_print.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ml/importance.h"
#include "spoor/csv_out.h"
#include "spoor/json_out.h"
#include "spoor/text_table.h"

/* ---- what every format shows ---- */

struct layer_total {
    char *name;
    size_t features;
    double share;
};

/* Consensus share per layer, largest first; empty when no name has a layer. */
static struct layer_total *layer_totals(const struct importance_view *v, size_t *n)
{
    struct layer_total *t = NULL;
    *n = 0;
    for (size_t j = 0; j < v->ds->nfeat; j++) {
        const char *layer;
        size_t len = spoor_importance_layer(v->ds->feat_names[j], v->layer_sep, &layer);
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

/* The v->pairs most correlated feature pairs by |Pearson r|. */
static struct pair *strongest_pairs(const struct importance_view *v, size_t *n)
{
    size_t p = v->ds->nfeat, all = p * (p - 1) / 2, k = 0;
    struct pair *pairs = spoor_xmalloc((all + 1) * sizeof *pairs);
    for (size_t a = 0; a < p; a++)
        for (size_t b = a + 1; b < p; b++)
            pairs[k++] = (struct pair){a, b, v->r->pearson[a * p + b]};
    qsort(pairs, all, sizeof *pairs, by_abs_r);
    *n = all < v->pairs ? all : v->pairs;
    return pairs;
}

static const char *layer_of(const struct importance_view *v, size_t j, char *buf, size_t cap)
{
    const char *layer;
    size_t len = spoor_importance_layer(v->ds->feat_names[j], v->layer_sep, &layer);
    snprintf(buf, cap, "%.*s", (int)len, len ? layer : "");
    return buf;
}

static const char *task_name(const struct spoor_importance_report *r)
{
    return r->classification ? "classification" : "regression";
}

/* ---- table ---- */

static void table_header(FILE *out, const struct importance_view *v)
{
    const struct spoor_dataset *ds = v->ds;
    const struct spoor_importance_report *r = v->r;
    fprintf(out, "dataset     %s: %zu rows, %zu features, target %s (%s", ds->path, ds->nrows, ds->nfeat,
            ds->label_name, task_name(r));
    if (r->classification)
        fprintf(out, ", %zu classes", ds->nclasses);
    fprintf(out, ")\n");
    for (size_t i = 0; i < ds->ndropped; i++) {
        const struct spoor_dataset_drop *d = &ds->dropped[i];
        fprintf(out, "dropped     %s (%s%s%s", d->name, d->reason, d->other ? " " : "", d->other ? d->other : "");
        if (d->other)
            fprintf(out, ", r = %.4f", d->r);
        fprintf(out, ")\n");
    }
    if (ds->skipped_rows)
        fprintf(out, "skipped     %llu rows lacking a value\n", (unsigned long long)ds->skipped_rows);
    if (r->ntest)
        fprintf(out, "held out    %zu of %zu rows%s%s%s: trees' held-out %s %.4f\n", r->ntest, r->ntrain + r->ntest,
                ds->group_name ? " (whole groups of " : "", ds->group_name ? ds->group_name : "",
                ds->group_name ? ")" : "", r->classification ? "accuracy" : "R^2", r->heldout_score);
    if (r->score[SPOOR_SCORE_LASSO])
        fprintf(out, "lasso       alpha %.4g (%zu-fold CV, one-standard-error rule%s), CV MSE %.4g\n", r->lasso_alpha,
                r->lasso_folds, r->classification ? ", one-vs-rest, averaged over classes" : "", r->lasso_cv_mse);
}

static void table_features(FILE *out, const struct importance_view *v)
{
    const struct spoor_importance_report *r = v->r;
    const char *h[4 + SPOOR_NSCORES] = {"rank", "feature", "consensus", "cumulative"};
    bool right[4 + SPOOR_NSCORES] = {true, false, true, true};
    size_t ncols = 4;
    for (int s = 0; s < SPOOR_NSCORES; s++)
        if (r->score[s]) {
            h[ncols] = s == SPOOR_SCORE_PEARSON && r->classification ? "eta" : s == SPOOR_SCORE_SPEARMAN && r->classification ? "eta(rank)" : spoor_score_names[s];
            right[ncols++] = true;
        }
    struct spoor_text_table *t = spoor_text_table_new(ncols, h, right);
    size_t shown = v->top && v->top < r->nfeat ? v->top : r->nfeat;
    double cumulative = 0;
    for (size_t k = 0; k < shown; k++) {
        size_t j = r->order[k];
        cumulative += r->consensus[j];
        spoor_text_table_cell(t, "%zu", k + 1);
        spoor_text_table_cell(t, "%s", v->ds->feat_names[j]);
        spoor_text_table_cell(t, "%.4f", r->consensus[j]);
        spoor_text_table_cell(t, "%.4f", cumulative);
        for (int s = 0; s < SPOOR_NSCORES; s++)
            if (r->score[s])
                spoor_text_table_cell(t, "%.4g", r->score[s][j]);
    }
    spoor_text_table_print(t, out);
    spoor_text_table_free(t);
    if (shown < r->nfeat)
        fprintf(out, "(%zu more features; --top 0 lists all)\n", r->nfeat - shown);
}

static void table_cumulative(FILE *out, const struct importance_view *v)
{
    fprintf(out, "\nsmallest set reaching %.0f%% of the consensus: %zu of %zu features:", 100 * v->opts->cumulative,
            v->r->ncumulative, v->r->nfeat);
    for (size_t k = 0; k < v->r->ncumulative; k++)
        fprintf(out, "%s %s", k ? "," : "", v->ds->feat_names[v->r->order[k]]);
    fputc('\n', out);
}

static void table_layers(FILE *out, const struct importance_view *v)
{
    size_t n;
    struct layer_total *t = layer_totals(v, &n);
    if (n) {
        const char *h[] = {"layer", "features", "consensus"};
        const bool right[] = {false, true, true};
        struct spoor_text_table *tt = spoor_text_table_new(3, h, right);
        for (size_t k = 0; k < n; k++) {
            spoor_text_table_cell(tt, "%s", t[k].name);
            spoor_text_table_cell(tt, "%zu", t[k].features);
            spoor_text_table_cell(tt, "%.4f", t[k].share);
        }
        fputc('\n', out);
        spoor_text_table_print(tt, out);
        spoor_text_table_free(tt);
    }
    free_layers(t, n);
}

static void table_pairs(FILE *out, const struct importance_view *v)
{
    size_t n, p = v->ds->nfeat;
    struct pair *pairs = strongest_pairs(v, &n);
    const char *h[] = {"feature", "feature", "pearson", "spearman"};
    const bool right[] = {false, false, true, true};
    struct spoor_text_table *t = spoor_text_table_new(4, h, right);
    for (size_t k = 0; k < n; k++) {
        spoor_text_table_cell(t, "%s", v->ds->feat_names[pairs[k].a]);
        spoor_text_table_cell(t, "%s", v->ds->feat_names[pairs[k].b]);
        spoor_text_table_cell(t, "%.4f", pairs[k].r);
        spoor_text_table_cell(t, "%.4f", v->r->spearman[pairs[k].a * p + pairs[k].b]);
    }
    fprintf(out, "\nstrongest pairs (|Pearson r|):\n");
    spoor_text_table_print(t, out);
    spoor_text_table_free(t);
    free(pairs);
}

/* The three largest loadings of component k, as "name (+0.41), ...". */
static void top_loadings(const struct importance_view *v, size_t k, char *buf, size_t cap)
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

static void table_pca(FILE *out, const struct importance_view *v)
{
    const struct spoor_pca *pca = &v->r->pca;
    const char *h[] = {"component", "variance", "ratio", "cumulative", "largest loadings"};
    const bool right[] = {false, true, true, true, false};
    struct spoor_text_table *t = spoor_text_table_new(5, h, right);
    double cumulative = 0;
    char buf[512];
    size_t n = v->components < pca->n ? v->components : pca->n;
    for (size_t k = 0; k < n; k++) {
        cumulative += pca->ratio[k];
        top_loadings(v, k, buf, sizeof buf);
        spoor_text_table_cell(t, "PC%zu", k + 1);
        spoor_text_table_cell(t, "%.4f", pca->variance[k]);
        spoor_text_table_cell(t, "%.4f", pca->ratio[k]);
        spoor_text_table_cell(t, "%.4f", cumulative);
        spoor_text_table_cell(t, "%s", buf);
    }
    fprintf(out, "\nprincipal components (standardised features):\n");
    spoor_text_table_print(t, out);
    spoor_text_table_free(t);
}

void importance_print_table(FILE *out, const struct importance_view *v)
{
    table_header(out, v);
    fputc('\n', out);
    table_features(out, v);
    table_cumulative(out, v);
    table_layers(out, v);
    if (v->r->score[SPOOR_SCORE_PEARSON] && v->pairs)
        table_pairs(out, v);
    if (v->r->pca.n && v->components)
        table_pca(out, v);
}

/* ---- JSON ---- */

static void json_str(FILE *out, const char *s) { spoor_json_write_string(out, s, strlen(s)); }

static void json_features(FILE *out, const struct importance_view *v)
{
    const struct spoor_importance_report *r = v->r;
    char buf[256];
    double cumulative = 0;
    fprintf(out, ",\n  \"features\": [");
    for (size_t k = 0; k < r->nfeat; k++) {
        size_t j = r->order[k];
        cumulative += r->consensus[j];
        fprintf(out, "%s\n    {\"rank\": %zu, \"name\": ", k ? "," : "", k + 1);
        json_str(out, v->ds->feat_names[j]);
        fprintf(out, ", \"layer\": ");
        json_str(out, layer_of(v, j, buf, sizeof buf));
        fprintf(out, ", \"consensus\": %.6g, \"cumulative\": %.6g", r->consensus[j], cumulative);
        for (int s = 0; s < SPOOR_NSCORES; s++)
            if (r->score[s])
                fprintf(out, ", \"%s\": %.6g", spoor_score_names[s], r->score[s][j]);
        fprintf(out, "}");
    }
    fprintf(out, "\n  ],\n  \"cumulative\": {\"threshold\": %g, \"features\": [", v->opts->cumulative);
    for (size_t k = 0; k < r->ncumulative; k++) {
        fprintf(out, "%s", k ? ", " : "");
        json_str(out, v->ds->feat_names[r->order[k]]);
    }
    fprintf(out, "]}");
}

static void json_extras(FILE *out, const struct importance_view *v)
{
    size_t n;
    struct layer_total *t = layer_totals(v, &n);
    fprintf(out, ",\n  \"layers\": [");
    for (size_t k = 0; k < n; k++) {
        fprintf(out, "%s{\"layer\": ", k ? ", " : "");
        json_str(out, t[k].name);
        fprintf(out, ", \"features\": %zu, \"consensus\": %.6g}", t[k].features, t[k].share);
    }
    fprintf(out, "]");
    free_layers(t, n);
    if (v->r->score[SPOOR_SCORE_PEARSON]) {
        struct pair *pairs = strongest_pairs(v, &n);
        fprintf(out, ",\n  \"pairs\": [");
        for (size_t k = 0; k < n; k++) {
            fprintf(out, "%s\n    {\"a\": ", k ? "," : "");
            json_str(out, v->ds->feat_names[pairs[k].a]);
            fprintf(out, ", \"b\": ");
            json_str(out, v->ds->feat_names[pairs[k].b]);
            fprintf(out, ", \"pearson\": %.6g, \"spearman\": %.6g}", pairs[k].r,
                    v->r->spearman[pairs[k].a * v->ds->nfeat + pairs[k].b]);
        }
        fprintf(out, "\n  ]");
        free(pairs);
    }
    const struct spoor_pca *pca = &v->r->pca;
    if (pca->n) {
        fprintf(out, ",\n  \"pca\": [");
        for (size_t k = 0; k < pca->n && k < v->components; k++) {
            fprintf(out, "%s\n    {\"component\": %zu, \"variance\": %.6g, \"ratio\": %.6g, \"loadings\": [", k ? "," : "",
                    k + 1, pca->variance[k], pca->ratio[k]);
            for (size_t j = 0; j < pca->n; j++)
                fprintf(out, "%s%.6g", j ? ", " : "", pca->loadings[j * pca->n + k]);
            fprintf(out, "]}");
        }
        fprintf(out, "\n  ]");
    }
}

void importance_print_json(FILE *out, const struct importance_view *v)
{
    const struct spoor_dataset *ds = v->ds;
    const struct spoor_importance_report *r = v->r;
    fprintf(out, "{\n  \"dataset\": ");
    json_str(out, ds->path);
    fprintf(out, ",\n  \"rows\": %zu,\n  \"skipped_rows\": %llu,\n  \"target\": ", ds->nrows,
            (unsigned long long)ds->skipped_rows);
    json_str(out, ds->label_name);
    fprintf(out, ",\n  \"task\": \"%s\",\n  \"classes\": [", task_name(r));
    for (size_t c = 0; r->classification && c < ds->nclasses; c++) {
        fprintf(out, "%s", c ? ", " : "");
        json_str(out, ds->class_names[c]);
    }
    fprintf(out, "],\n  \"dropped\": [");
    for (size_t i = 0; i < ds->ndropped; i++) {
        fprintf(out, "%s{\"name\": ", i ? ", " : "");
        json_str(out, ds->dropped[i].name);
        fprintf(out, ", \"reason\": ");
        json_str(out, ds->dropped[i].reason);
        if (ds->dropped[i].other) {
            fprintf(out, ", \"other\": ");
            json_str(out, ds->dropped[i].other);
            fprintf(out, ", \"r\": %.6g", ds->dropped[i].r);
        }
        fprintf(out, "}");
    }
    fprintf(out, "]");
    if (r->ntest)
        fprintf(out, ",\n  \"heldout\": {\"train\": %zu, \"test\": %zu, \"grouped\": %s, \"metric\": \"%s\", \"score\": %.6g}",
                r->ntrain, r->ntest, ds->group_name ? "true" : "false", r->classification ? "accuracy" : "r2",
                r->heldout_score);
    if (r->score[SPOOR_SCORE_LASSO])
        fprintf(out, ",\n  \"lasso\": {\"alpha\": %.6g, \"cv_mse\": %.6g, \"folds\": %zu}", r->lasso_alpha,
                r->lasso_cv_mse, r->lasso_folds);
    json_features(out, v);
    json_extras(out, v);
    fprintf(out, "\n}\n");
}

/* ---- CSV: one row per feature, in consensus order ---- */

void importance_print_csv(FILE *out, const struct importance_view *v)
{
    const struct spoor_importance_report *r = v->r;
    fprintf(out, "rank,feature,layer,consensus,cumulative,in_set");
    for (int s = 0; s < SPOOR_NSCORES; s++)
        if (r->score[s])
            fprintf(out, ",%s", spoor_score_names[s]);
    fputc('\n', out);
    char buf[256];
    double cumulative = 0;
    for (size_t k = 0; k < r->nfeat; k++) {
        size_t j = r->order[k];
        cumulative += r->consensus[j];
        fprintf(out, "%zu,", k + 1);
        spoor_csv_write_field(out, v->ds->feat_names[j]);
        fputc(',', out);
        spoor_csv_write_field(out, layer_of(v, j, buf, sizeof buf));
        fprintf(out, ",%.6g,%.6g,%d", r->consensus[j], cumulative, k < r->ncumulative);
        for (int s = 0; s < SPOOR_NSCORES; s++)
            if (r->score[s])
                fprintf(out, ",%.6g", r->score[s][j]);
        fputc('\n', out);
    }
}

void importance_print_matrix(FILE *out, const struct spoor_dataset *ds, const double *m)
{
    size_t p = ds->nfeat;
    fprintf(out, "feature");
    for (size_t j = 0; j < p; j++) {
        fputc(',', out);
        spoor_csv_write_field(out, ds->feat_names[j]);
    }
    fputc('\n', out);
    for (size_t a = 0; a < p; a++) {
        spoor_csv_write_field(out, ds->feat_names[a]);
        for (size_t b = 0; b < p; b++)
            fprintf(out, ",%.6g", m[a * p + b]);
        fputc('\n', out);
    }
}
