/* Shared by the model commands: dataset loading with warnings, lists, reports. */
#include "ml_cli.h"
#include "cli_getopt.h"
#include "load_args.h"
#include "ml/model_json.h"
#include "output_guard.h"
#include "spoor/json_out.h"
#include "spoor/text_table.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

char **ml_list_split(const char *s, size_t *n)
{
    char *copy = spoor_xstrdup(s), *save = NULL;
    char **v = spoor_xcalloc(strlen(s) + 2, sizeof *v);
    *n = 0;
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
        v[(*n)++] = spoor_xstrdup(t);
    free(copy);
    return v;
}

void ml_list_free(char **v)
{
    for (size_t i = 0; v && v[i]; i++)
        free(v[i]);
    free(v);
}

int ml_dataset_load(const char *cmd, const char *path, const struct spoor_dataset_spec *spec,
                    const struct spoor_load_opts *opts, struct spoor_dataset **out)
{
    struct spoor_load_result res = {0};
    struct spoor_error err = {0};
    int st = spoor_dataset_load(path, spec, opts, out, &res, &err);
    load_args_report(cmd, &res);
    spoor_load_result_free(&res);
    if (st != SPOOR_OK) {
        fprintf(stderr, "spoor %s: %s\n", cmd, err.msg);
        return 1;
    }
    const struct spoor_dataset *ds = *out;
    for (size_t i = 0; i < ds->ndropped; i++) {
        const struct spoor_dataset_drop *d = &ds->dropped[i];
        if (d->other)
            fprintf(stderr, "spoor %s: warning: dropped feature '%s': duplicate of '%s' (r = %.4f)\n", cmd, d->name,
                    d->other, d->r);
        else if (d->kept) /* a saved model's features are fixed: it uses the feature */
            fprintf(stderr, "spoor %s: warning: feature '%s' leaks: %s; kept (%s)\n", cmd, d->name, d->reason,
                    spec->classes ? "the model uses it; its scores here may be too good" : "--keep-leaky");
        else
            fprintf(stderr, "spoor %s: warning: dropped feature '%s': %s%s\n", cmd, d->name, d->reason,
                    d->leak ? "; --keep-leaky keeps it" : "");
    }
    if (ds->skipped_rows)
        fprintf(stderr,
                "spoor %s: %s:%llu: no numeric value for '%s' (skipped); skipped %llu rows lacking a value; --strict "
                "makes this an error\n",
                cmd, path, (unsigned long long)ds->first_skipped_line, ds->first_skipped_field,
                (unsigned long long)ds->skipped_rows);
    return 0;
}

int ml_model_dataset_load(const char *cmd, const char *model_path, const char *path, bool with_label,
                          const char *group, const struct spoor_load_opts *opts, struct spoor_model **model,
                          struct spoor_dataset **ds)
{
    struct spoor_error err = {0};
    if (spoor_model_load(model_path, model, &err) != SPOOR_OK) {
        fprintf(stderr, "spoor %s: %s\n", cmd, err.msg);
        return 1;
    }
    const struct spoor_model *m = *model;
    struct spoor_dataset_spec spec = {.features = (const char *const *)m->feat_names, .nfeatures = m->nfeat,
                                      .exact = true, .label = with_label ? m->label_name : NULL,
                                      .classes = (const char *const *)m->class_names, .nclasses = m->nclasses,
                                      .group = group, .leaks = with_label ? SPOOR_LEAKS_WARN : SPOOR_LEAKS_IGNORE};
    int code = ml_dataset_load(cmd, path, &spec, opts, ds);
    if (code) {
        spoor_model_free(*model);
        *model = NULL;
    }
    return code;
}

bool ml_format_choice(const char *cmd, const char *arg, const char *first, const char *second_name, bool *second)
{
    if (strcmp(arg, first) != 0 && strcmp(arg, second_name) != 0) {
        fprintf(stderr, "spoor %s: --format '%s': expected %s or %s\n", cmd, arg, first, second_name);
        return false;
    }
    *second = strcmp(arg, second_name) == 0;
    return true;
}

enum { OPT_GROUP = 1, OPT_FORMAT };

int ml_model_command_main(const struct ml_model_command *c, int argc, char **argv)
{
    static const struct option longs[] = {{"group", required_argument, 0, OPT_GROUP},
                                          {"format", required_argument, 0, OPT_FORMAT},
                                          {"output", required_argument, 0, 'o'},
                                          {"help", no_argument, 0, 'h'},
                                          LOAD_OPTIONS_BASE,
                                          {0, 0, 0, 0}};
    struct spoor_load_opts opts;
    load_args_init(&opts);
    opts.progress = false;
    const char *group = NULL, *output = NULL;
    bool second = false;
    int code;
    while ((code = cli_getopt(c->name, argc, argv, "o:h", longs, NULL)) != -1) {
        if (code == CLI_BAD_OPTION)
            return 2;
        int handled = load_args_handle(&opts, code, optarg, c->name);
        if (handled < 0)
            return 2;
        if (handled)
            continue;
        if (code == 'h') {
            fputs(c->usage, stdout);
            return 0;
        }
        if (code == 'o')
            output = optarg;
        else if (code == OPT_GROUP && c->with_group)
            group = optarg;
        else if (code == OPT_FORMAT && !ml_format_choice(c->name, optarg, c->formats[0], c->formats[1], &second))
            return 2;
        else if (code == OPT_GROUP) {
            fprintf(stderr, "spoor %s: unknown option '--group'; see 'spoor %s --help'\n", c->name, c->name);
            return 2;
        }
    }
    if (optind + 2 != argc) {
        fprintf(stderr, "spoor %s: needs MODEL and DATASET; see 'spoor %s --help'\n", c->name, c->name);
        return 2;
    }
    if (output_guard1(c->name, output, (const char *const *)argv + optind, 2, opts.cache_dir))
        return 2;
    struct spoor_model *m = NULL;
    struct spoor_dataset *ds = NULL;
    code = ml_model_dataset_load(c->name, argv[optind], argv[optind + 1], c->with_label, group, &opts, &m, &ds);
    if (!code)
        code = c->run(m, ds, group, second, output);
    spoor_dataset_free(ds);
    spoor_model_free(m);
    return code;
}

static void str(FILE *out, const char *s) { spoor_json_write_string(out, s, strlen(s)); }

/* How an iterative fit of the saved model ended (logistic regression). */
static bool has_fit(const struct spoor_model *fit) { return fit && fit->kind == SPOOR_MODEL_LOGISTIC; }

static void report_json(FILE *out, const char *how, double train_ms, const struct spoor_model *fit,
                        const struct spoor_dataset *ds, const struct ml_scored *s, size_t n)
{
    fprintf(out, "{\"evaluation\": ");
    str(out, how);
    if (train_ms >= 0)
        fprintf(out, ", \"train_ms\": %.3f", train_ms);
    if (has_fit(fit))
        fprintf(out,
                ", \"fit\": {\"iterations\": %zu, \"final_loss\": %.9g, \"final_gradient\": %.3g, \"converged\": %s}",
                fit->log.iterations, fit->log.final_loss, fit->log.final_gradient,
                fit->log.converged ? "true" : "false");
    fprintf(out, ", \"classes\": [");
    for (size_t c = 0; c < ds->nclasses; c++) {
        fputs(c ? ", " : "", out);
        str(out, ds->class_names[c]);
    }
    fprintf(out, "],\n \"methods\": [");
    for (size_t i = 0; i < n; i++) {
        const struct spoor_metrics *m = &s[i].m;
        fprintf(out, "%s\n  {\"method\": \"%s\", \"role\": \"%s\", \"rows\": %zu, \"accuracy\": %.6f, \"macro_f1\": %.6f,",
                i ? "," : "", s[i].name, i ? "baseline" : "model", m->n, m->accuracy, m->macro_f1);
        fprintf(out, " \"recall\": [");
        for (size_t c = 0; c < m->k; c++)
            fprintf(out, "%s%.6f", c ? ", " : "", m->recall[c]);
        fprintf(out, "], \"confusion\": [");
        for (size_t c = 0; c < m->k; c++) {
            fprintf(out, "%s[", c ? ", " : "");
            for (size_t o = 0; o < m->k; o++)
                fprintf(out, "%s%zu", o ? ", " : "", m->confusion[c * m->k + o]);
            fputc(']', out);
        }
        fprintf(out, "]}");
    }
    fprintf(out, "\n]}\n");
}

void ml_report(FILE *out, bool json, const char *how, double train_ms, const struct spoor_model *fit,
               const struct spoor_dataset *ds, const struct ml_scored *s, size_t n)
{
    if (json) {
        report_json(out, how, train_ms, fit, ds, s, n);
        return;
    }
    fprintf(out, "%s\n", how);
    if (train_ms >= 0)
        fprintf(out, "the saved model trained in %.1f ms\n", train_ms);
    if (has_fit(fit))
        fprintf(out, "%s in %zu L-BFGS iterations: final loss %.6g (mean cross-entropy + L2), max |gradient| %.2g\n",
                fit->log.converged ? "converged" : "NOT converged", fit->log.iterations, fit->log.final_loss,
                fit->log.final_gradient);
    fputc('\n', out);
    const char *h[] = {"method", "", "rows", "accuracy", "macro-F1"};
    const bool right[] = {false, false, true, true, true};
    struct spoor_text_table *t = spoor_text_table_new(5, h, right);
    for (size_t i = 0; i < n; i++) {
        spoor_text_table_cell(t, "%s", s[i].name);
        spoor_text_table_cell(t, "%s", i ? "baseline" : "model");
        spoor_text_table_cell(t, "%zu", s[i].m.n);
        spoor_text_table_cell(t, "%.4f", s[i].m.accuracy);
        spoor_text_table_cell(t, "%.4f", s[i].m.macro_f1);
    }
    spoor_text_table_print(t, out);
    spoor_text_table_free(t);

    /* The model's confusion matrix: rows are true classes. */
    const struct spoor_metrics *m = &s[0].m;
    size_t k = m->k;
    const char **ch = spoor_xcalloc(k + 2, sizeof *ch);
    bool *cr = spoor_xcalloc(k + 2, sizeof *cr);
    ch[0] = "true \\ predicted";
    for (size_t c = 0; c < k; c++) {
        ch[c + 1] = ds->class_names[c];
        cr[c + 1] = true;
    }
    ch[k + 1] = "recall";
    cr[k + 1] = true;
    t = spoor_text_table_new(k + 2, ch, cr);
    for (size_t c = 0; c < k; c++) {
        spoor_text_table_cell(t, "%s", ds->class_names[c]);
        for (size_t o = 0; o < k; o++)
            spoor_text_table_cell(t, "%zu", m->confusion[c * k + o]);
        spoor_text_table_cell(t, "%.4f", m->recall[c]);
    }
    fprintf(out, "\n%s:\n", s[0].name);
    spoor_text_table_print(t, out);
    spoor_text_table_free(t);
    free(ch);
    free(cr);
}
