/* spoor --help: a saved model's class (and action) for every row of a dataset */
/* spoor predict: a saved model's class (and action) for every row of a dataset. */
#include <inttypes.h>
#include <string.h>

#include "load_args.h"
#include "ml/model.h"
#include "ml_cli.h"
#include "spoor/atomic_file.h"
#include "spoor/json_out.h"

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

static void str(FILE *out, const char *s) { spoor_json_write_string(out, s, strlen(s)); }

static void header_csv(FILE *out, const struct spoor_model *m)
{
    fprintf(out, "line,predicted");
    if (m->action)
        fprintf(out, ",%s", m->action_name);
    for (size_t c = 0; c < m->nclasses; c++)
        fprintf(out, ",p_%s", m->class_names[c]);
    fputc('\n', out);
}

static void row_csv(FILE *out, const struct spoor_model *m, uint64_t line, uint32_t cls, const double *scores)
{
    fprintf(out, "%" PRIu64 ",%s", line, m->class_names[cls]);
    if (m->action)
        fprintf(out, ",%" PRId64, m->action[cls]);
    for (size_t c = 0; c < m->nclasses; c++)
        fprintf(out, ",%.6g", scores[c]);
    fputc('\n', out);
}

static void row_jsonl(FILE *out, const struct spoor_model *m, uint64_t line, uint32_t cls, const double *scores)
{
    fprintf(out, "{\"line\": %" PRIu64 ", \"predicted\": ", line);
    str(out, m->class_names[cls]);
    if (m->action) {
        fprintf(out, ", ");
        str(out, m->action_name);
        fprintf(out, ": %" PRId64, m->action[cls]);
    }
    fprintf(out, ", \"scores\": {");
    for (size_t c = 0; c < m->nclasses; c++) {
        fputs(c ? ", " : "", out);
        str(out, m->class_names[c]);
        fprintf(out, ": %.6g", scores[c]);
    }
    fprintf(out, "}}\n");
}

static int predict(const struct spoor_model *m, const struct spoor_dataset *ds, const char *group, bool jsonl,
                   const char *output)
{
    struct spoor_error err = {0};
    struct spoor_atomic_file out;
    if (spoor_atomic_file_open(&out, output, &err) != SPOOR_OK) {
        fprintf(stderr, "spoor predict: %s\n", err.msg);
        return 1;
    }
    if (!jsonl)
        header_csv(out.fp, m);
    double scores[m->nclasses + 1];
    for (size_t i = 0; i < ds->nrows; i++) {
        uint32_t cls = spoor_model_predict(m, ds->x + i * ds->nfeat, scores);
        (jsonl ? row_jsonl : row_csv)(out.fp, m, ds->line[i], cls, scores);
    }
    if (spoor_atomic_file_commit(&out, &err) != SPOOR_OK) {
        fprintf(stderr, "spoor predict: %s\n", err.msg);
        return 1;
    }
    return 0;
}

int cmd_predict(int argc, char **argv)
{
    static const struct ml_model_command c = {.name = "predict", .usage = usage, .formats = {"csv", "jsonl"},
                                              .run = predict};
    return ml_model_command_main(&c, argc, argv);
}
