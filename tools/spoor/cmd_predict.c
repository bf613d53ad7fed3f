/* spoor --help: a saved model's class (and action) for every row of a dataset */
/* spoor predict: a saved model's class (and action) for every row of a dataset. */
#include <inttypes.h>
#include <stdio.h>

#include "load_args.h"
#include "spoor/ml.h"
#include "ml_cli.h"
#include "spoor/report.h"

static const char usage[] =
    "usage: spoor predict [options] MODEL DATASET\n"
    "\n"
    "Applies a model from spoor train to every row of a CSV or JSONL dataset that\n"
    "holds the model's features (by name; no label needed). One output row per\n"
    "input row: its line, the predicted class, the model's action for that class\n"
    "when it has an action table, and each class's score (probability; 1/0 for a rule).\n"
    "\n"
    "options:\n"
    "  --format F           csv (default) or jsonl\n"
    "  -o FILE              write to FILE (complete or not at all) instead of stdout\n"
    "  -h, --help           this help\n" LOAD_HELP_HEAD LOAD_HELP_THREADS LOAD_HELP_BASE;

struct prediction {
    const struct spoor_model *m;
    const struct spoor_dataset *ds;
};

/* Row i's line, class, action and scores: CSV's a score a column (p_CLASS),
 * JSON lines' an object of them. */
static void predict_row(const struct prediction *p, struct spoor_sheet *s, size_t i, bool scores_object)
{
    const struct spoor_model *m = p->m;
    double scores[m->nclasses + 1];
    uint32_t cls = spoor_model_predict(m, p->ds->x + i * p->ds->nfeat, scores);
    spoor_sheet_count(s, p->ds->line[i]);
    spoor_sheet_name(s, m->class_names[cls]);
    if (m->action)
        spoor_sheet_int(s, m->action[cls]);
    struct spoor_sheet *by_class = scores_object ? spoor_sheet_props_new() : s;
    for (size_t c = 0; c < m->nclasses; c++) {
        if (scores_object)
            spoor_sheet_prop(by_class, m->class_names[c], SPOOR_CU_NONE, SPOOR_DIGITS_SIG(6));
        spoor_sheet_float(by_class, scores[c]);
    }
    if (scores_object)
        spoor_sheet_sheet(s, by_class);
}

static void csv_row(void *ctx, struct spoor_sheet *s, size_t i) { predict_row(ctx, s, i, false); }
static void jsonl_row(void *ctx, struct spoor_sheet *s, size_t i) { predict_row(ctx, s, i, true); }

static int predict(const struct spoor_model *m, const struct spoor_dataset *ds, const char *group,
                   enum spoor_output_format format, const char *output)
{
    (void)group;
    struct prediction p = {m, ds};
    struct spoor_report *r = spoor_report_new("spoor predict");
    size_t fixed = m->action ? 3 : 2;
    struct spoor_sheet *csv = spoor_report_rows_source(r, "predictions", fixed + m->nclasses,
                                                       SPOOR_FORMAT_BIT(SPOOR_FORMAT_CSV), ds->nrows, csv_row, &p);
    struct spoor_sheet *jsonl = spoor_report_rows_source(r, "predictions", fixed + 1,
                                                         SPOOR_FORMAT_BIT(SPOOR_FORMAT_JSONL), ds->nrows, jsonl_row, &p);
    const char *names[] = {"line", "predicted", m->action_name};
    for (size_t c = 0; c < fixed; c++) {
        spoor_sheet_column(csv, c, names[c], SPOOR_CU_NONE, 0, c == 1 ? SPOOR_HINT_CATEGORY : SPOOR_HINT_NONE);
        spoor_sheet_column(jsonl, c, names[c], SPOOR_CU_NONE, 0, c == 1 ? SPOOR_HINT_CATEGORY : SPOOR_HINT_NONE);
    }
    char name[512];
    for (size_t c = 0; c < m->nclasses; c++) {
        snprintf(name, sizeof name, "p_%s", m->class_names[c]);
        spoor_sheet_column(csv, fixed + c, name, SPOOR_CU_NONE, SPOOR_DIGITS_SIG(6), SPOOR_HINT_SERIES);
    }
    spoor_sheet_column(jsonl, fixed, "scores", SPOOR_CU_NONE, 0, SPOOR_HINT_NONE);
    struct spoor_error err = {0};
    int st = spoor_report_save(r, output, format, 1, &err);
    spoor_report_free(r);
    if (st != SPOOR_OK) {
        fprintf(stderr, "spoor predict: %s\n", err.msg);
        return 1;
    }
    return 0;
}

int cmd_predict(int argc, char **argv)
{
    static const struct ml_model_command c = {.name = "predict", .usage = usage, .formats = {SPOOR_FORMAT_CSV, SPOOR_FORMAT_JSONL}, .nformats = 2,
                                              .run = predict};
    return ml_model_command_main(&c, argc, argv);
}
