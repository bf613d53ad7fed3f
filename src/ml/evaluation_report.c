/* The evaluation report shared by `spoor train` and `spoor eval`. */
#include "ml/evaluation_report.h"

#include <stdio.h>
#include <stdlib.h>

/* How an iterative fit of the saved model ended (logistic regression). */
static bool has_fit(const struct spoor_model *fit) { return fit && fit->kind == SPOOR_MODEL_LOGISTIC; }

#define TABLE_ONLY SPOOR_FORMAT_BIT(SPOOR_FORMAT_TABLE)
#define JSON_ONLY SPOOR_FORMAT_BIT(SPOOR_FORMAT_JSON)

/* What was scored and how, and how the training went: lines for a table,
 * members for JSON. */
static void report_head(struct spoor_report *r, const char *how, double train_ms, const struct spoor_model *fit,
                        const struct spoor_dataset *ds)
{
    char *lines = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&lines, &len);
    if (f) {
        fputs(how, f);
        if (train_ms >= 0)
            fprintf(f, "\nthe saved model trained in %.1f ms", train_ms);
        if (has_fit(fit))
            fprintf(f, "\n%s in %zu L-BFGS iterations: final loss %.6g (mean cross-entropy + L2), max |gradient| %.2g",
                    fit->log.converged ? "converged" : "NOT converged", fit->log.iterations, fit->log.final_loss,
                    fit->log.final_gradient);
        fclose(f);
    }
    spoor_sheet_title(spoor_report_rows(r, "evaluation", 0, TABLE_ONLY), "%s", lines ? lines : how);
    free(lines);
    struct spoor_sheet *p = spoor_report_props(r, NULL, JSON_ONLY);
    spoor_sheet_prop(p, "evaluation", SPOOR_CU_NONE, 0);
    spoor_sheet_text(p, how);
    if (train_ms >= 0) {
        spoor_sheet_prop(p, "train_ms", SPOOR_CU_NONE, 3);
        spoor_sheet_float(p, train_ms);
    }
    if (has_fit(fit)) {
        struct spoor_sheet *log = spoor_sheet_props_new();
        spoor_sheet_prop(log, "iterations", SPOOR_CU_COUNT, 0);
        spoor_sheet_count(log, fit->log.iterations);
        spoor_sheet_prop(log, "final_loss", SPOOR_CU_NONE, SPOOR_DIGITS_SIG(9));
        spoor_sheet_float(log, fit->log.final_loss);
        spoor_sheet_prop(log, "final_gradient", SPOOR_CU_NONE, SPOOR_DIGITS_SIG(3));
        spoor_sheet_float(log, fit->log.final_gradient);
        spoor_sheet_prop(log, "converged", SPOOR_CU_NONE, 0);
        spoor_sheet_bool(log, fit->log.converged);
        spoor_sheet_prop(p, "fit", SPOOR_CU_NONE, 0);
        spoor_sheet_sheet(p, log);
    }
    struct spoor_sheet *classes = spoor_sheet_list_new(SPOOR_CU_NONE, 0);
    for (size_t c = 0; c < ds->nclasses; c++)
        spoor_sheet_name(classes, ds->class_names[c]);
    spoor_sheet_prop(p, "classes", SPOOR_CU_NONE, 0);
    spoor_sheet_sheet(p, classes);
}

/* Every method's scores: a table's, or JSON's with recall and the confusion matrix. */
static void report_methods(struct spoor_report *r, const struct spoor_scored *s, size_t n, bool json)
{
    static const char *const table[] = {"method", "", "rows", "accuracy", "macro-F1"};
    static const char *const data[] = {"method", "role", "rows", "accuracy", "macro_f1", "recall", "confusion"};
    struct spoor_sheet *t = spoor_report_rows(r, "methods", json ? 7 : 5, json ? JSON_ONLY : TABLE_ONLY);
    for (size_t c = 0; c < (json ? 7u : 5u); c++)
        spoor_sheet_column(t, c, json ? data[c] : table[c], json && (c == 3 || c == 4) ? SPOOR_CU_SHARE : SPOOR_CU_NONE,
                           json ? 6 : 4, c == 0 ? SPOOR_HINT_CATEGORY : c == 3 || c == 4 ? SPOOR_HINT_SERIES : SPOOR_HINT_NONE);
    for (size_t i = 0; i < n; i++) {
        const struct spoor_metrics *m = &s[i].m;
        spoor_sheet_name(t, s[i].name);
        spoor_sheet_name(t, i ? "baseline" : "model");
        spoor_sheet_count(t, m->n);
        spoor_sheet_float(t, m->accuracy);
        spoor_sheet_float(t, m->macro_f1);
        if (!json)
            continue;
        struct spoor_sheet *recall = spoor_sheet_list_new(SPOOR_CU_NONE, 6), *confusion = spoor_sheet_list_new(0, 0);
        for (size_t c = 0; c < m->k; c++) {
            spoor_sheet_float(recall, m->recall[c]);
            struct spoor_sheet *row = spoor_sheet_list_new(SPOOR_CU_COUNT, 0);
            for (size_t o = 0; o < m->k; o++)
                spoor_sheet_count(row, m->confusion[c * m->k + o]);
            spoor_sheet_sheet(confusion, row);
        }
        spoor_sheet_sheet(t, recall);
        spoor_sheet_sheet(t, confusion);
    }
}

/* For the HTML page: the model's confusion matrix (a heatmap) and every
 * method's recall per class (bars), both as JSON spells them. */
static void report_per_class(struct spoor_report *r, const struct spoor_dataset *ds, const struct spoor_scored *s,
                             size_t n)
{
    size_t k = s[0].m.k;
    struct spoor_sheet *t = spoor_report_rows(r, NULL, 1 + k + n, SPOOR_FORMAT_BIT(SPOOR_FORMAT_HTML));
    spoor_sheet_title(t, "%s: confusion matrix (rows: true class, columns: predicted), and recall per class", s[0].name);
    spoor_sheet_column(t, 0, "class", SPOOR_CU_NONE, 0, SPOOR_HINT_CATEGORY);
    for (size_t c = 0; c < k; c++)
        spoor_sheet_column(t, 1 + c, ds->class_names[c], SPOOR_CU_COUNT, 0, SPOOR_HINT_PIVOT);
    for (size_t i = 0; i < n; i++)
        spoor_sheet_column(t, 1 + k + i, s[i].name, SPOOR_CU_SHARE, 6, SPOOR_HINT_SERIES);
    for (size_t c = 0; c < k; c++) {
        spoor_sheet_name(t, ds->class_names[c]);
        for (size_t o = 0; o < k; o++)
            spoor_sheet_count(t, s[0].m.confusion[c * k + o]);
        for (size_t i = 0; i < n; i++)
            spoor_sheet_float(t, s[i].m.recall[c]);
    }
}

/* The model's confusion matrix for a table: rows are true classes. */
static void report_confusion(struct spoor_report *r, const struct spoor_dataset *ds, const struct spoor_scored *s)
{
    const struct spoor_metrics *m = &s[0].m;
    size_t k = m->k;
    struct spoor_sheet *t = spoor_report_rows(r, "confusion", k + 2, TABLE_ONLY);
    spoor_sheet_title(t, "%s:", s[0].name);
    spoor_sheet_column(t, 0, "true \\ predicted", SPOOR_CU_NONE, 0, SPOOR_HINT_CATEGORY);
    for (size_t c = 0; c < k; c++)
        spoor_sheet_column(t, c + 1, ds->class_names[c], SPOOR_CU_NONE, 0, SPOOR_HINT_SERIES);
    spoor_sheet_column(t, k + 1, "recall", SPOOR_CU_NONE, 4, SPOOR_HINT_NONE);
    for (size_t c = 0; c < k; c++) {
        spoor_sheet_name(t, ds->class_names[c]);
        for (size_t o = 0; o < k; o++)
            spoor_sheet_count(t, m->confusion[c * k + o]);
        spoor_sheet_float(t, m->recall[c]);
    }
}

struct spoor_report *ml_evaluation_report(const char *how, double train_ms, const struct spoor_model *fit,
                                          const struct spoor_dataset *ds, const struct spoor_scored *s, size_t n)
{
    struct spoor_report *r = spoor_report_new("evaluation");
    report_head(r, how, train_ms, fit, ds);
    report_methods(r, s, n, false);
    report_methods(r, s, n, true);
    report_confusion(r, ds, s);
    report_per_class(r, ds, s, n);
    return r;
}
