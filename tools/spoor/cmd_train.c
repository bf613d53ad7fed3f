/* spoor --help: train a classifier on a dataset and save it as a model */
/* spoor train: fits a classifier on a dataset, scores it on held-out rows (or
 * by cross-validation) beside the baselines, and saves it as a JSON model. */
#include <time.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli_number.h"
#include "cli_getopt.h"
#include "load_args.h"
#include "spoor/ml.h"
#include "ml_cli.h"
#include "output_guard.h"

static const char usage[] =
    "usage: spoor train DATASET --label COL [options] -o MODEL\n"
    "\n"
    "Trains a classifier on a CSV or JSONL dataset, scores it on rows it never saw\n"
    "beside three baselines (majority class, the best depth-2 rule, 5-NN), and\n"
    "saves it as a JSON model for spoor eval, predict and export-model.\n"
    "\n"
    "data:\n"
    "  --label COL          the class column (required)\n"
    "  --features LIST      feature columns by name or glob, comma-separated\n"
    "                       (default: every numeric column but label and group);\n"
    "                       constant and duplicate (|r| > 0.999) ones are dropped with a warning\n"
    "  --keep-redundant     keep the features exactly as listed (plain names)\n"
    "  --group COL          rows of one group (e.g. run_id) are held out together\n"
    "  --keep-leaky         keep leaky features (still warned about): one whose\n"
    "                       values match the classes one to one, and with --group\n"
    "                       one constant within every group (run settings, run_*)\n"
    "evaluation:\n"
    "  --test-frac F        held-out fraction (default 0.2): whole groups with --group,\n"
    "                       else stratified rows\n"
    "  --split rows         hold out stratified rows even with --group (leaky; to\n"
    "                       reproduce a row-level split)\n"
    "  --cv K|logo          K-fold or leave-one-group-out cross-validation instead;\n"
    "                       the saved model is then trained on every row\n"
    "model:\n"
    "  --model M            mlp:W1,W2,... (default mlp:32,16), logistic, rule or trees\n"
    "  --dropout P --lr R --batch N --epochs N --patience N\n"
    "                       MLP settings (defaults 0.2, 1e-3, 128, 60, 8)\n"
    "  --val F              validation part of the training rows for the MLP's early\n"
    "                       stopping (default 0.15; whole groups with --group; 0: none)\n"
    "  --l2 L --max-iter N  logistic: L2 penalty (default 1e-4) and L-BFGS iterations\n"
    "                       at most (default 10000); it trains to convergence and\n"
    "                       reports the iterations and the final loss\n"
    "  --rounds N --max-depth N --eta R\n"
    "                       trees settings (defaults 100, 4, 0.3)\n"
    "  --seed N             seed of every random draw (default 1)\n"
    "  --actions SPEC       per-class action table NAME:CLASS=INT,... (e.g.\n"
    "                       readahead_kb:sequential=256,random=16,mixed=64)\n"
    "output:\n"
    "  -o FILE              the model (required; written whole or not at all)\n"
    "  --format F           table (default) or json for the evaluation on stdout\n"
    "  --save-split FILE    the held-out split as CSV line,part (train, validation,\n"
    "                       test), to train another tool on the very same rows\n"
    "  -h, --help           this help\n" LOAD_HELP_HEAD LOAD_HELP_THREADS LOAD_HELP_BASE;

struct cli {
    const char *label, *features, *group, *cv, *actions, *output, *save_split;
    bool keep, keep_leaky, row_split;
    struct cli_format format;
    double test;
    size_t folds;                   /* --cv K; 0 for logo */
    struct spoor_train_opts train;
};

/* "mlp:32,16", "logistic", "rule", "trees", into the train options. */
static bool parse_model(void *train, const char *arg)
{
    struct spoor_train_opts *o = train;
    const char *colon = strchr(arg, ':');
    char kind[16];
    snprintf(kind, sizeof kind, "%.*s", colon ? (int)(colon - arg) : (int)strlen(arg), arg);
    int k = spoor_model_kind_parse(kind);
    if (k < 0 || (colon && k != SPOOR_MODEL_MLP))
        return false;
    o->kind = (enum spoor_model_kind)k;
    if (!colon)
        return true;
    size_t n;
    char **widths = ml_list_split(colon + 1, &n);
    bool ok = n >= 1 && n <= 8;
    for (size_t i = 0; ok && i < n; i++) {
        uint64_t w;
        ok = cli_count(widths[i], 1024, &w) && w >= 1;
        o->hidden[i] = (size_t)w;
    }
    o->nhidden = n;
    ml_list_free(widths);
    return ok;
}

/* --cv K (folds) or logo, into the command's settings. */
static bool parse_cv(void *cli, const char *arg)
{
    struct cli *c = cli;
    uint64_t k = 0;
    c->cv = arg;
    c->folds = 0;
    if (!strcmp(arg, "logo"))
        return true;
    if (!cli_count(arg, 1000000, &k) || k < 2)
        return false;
    c->folds = (size_t)k;
    return true;
}

static int parse_cli(int argc, char **argv, struct cli *c, struct spoor_load_opts *opts)
{
    static const enum spoor_output_format formats[] = {SPOOR_FORMAT_TABLE, SPOOR_FORMAT_JSON};
    static const char *const split_words[] = {"rows", NULL};
    spoor_train_opts_default(&c->train);
    c->test = 0.2;
    c->format = (struct cli_format){"train", formats, 2, SPOOR_FORMAT_TABLE};
    struct spoor_train_opts *t = &c->train;
    int split = -1;
#define OUT_OF_RANGE(range) "out of range, expected a number from " range
    const struct cli_option options[] = {
        CLI_OPT_STRING("label", 0, &c->label),
        CLI_OPT_STRING("features", 0, &c->features),
        CLI_OPT_FLAG("keep-redundant", 0, &c->keep),
        CLI_OPT_STRING("group", 0, &c->group),
        CLI_OPT_REAL("test-frac", 0, &c->test, 0.01, 0.99, OUT_OF_RANGE("0.01 to 0.99")),
        CLI_OPT_WORD("split", 0, &split, split_words, "expected rows"),
        CLI_OPT_CALL("cv", 0, c, parse_cv, "expected a number of folds (2 or more) or logo"),
        CLI_OPT_CALL("model", 0, t, parse_model, "expected mlp:W1,W2,... (widths 1..1024), logistic, rule or trees"),
        CLI_OPT_REAL("dropout", 0, &t->dropout, 0, 0.95, OUT_OF_RANGE("0 to 0.95")),
        CLI_OPT_REAL("lr", 0, &t->lr, 1e-9, 10, OUT_OF_RANGE("1e-9 to 10")),
        CLI_OPT_COUNT("batch", 0, &t->batch, 1, (double)SIZE_MAX, OUT_OF_RANGE("1 up")),
        CLI_OPT_COUNT("epochs", 0, &t->epochs, 1, (double)SIZE_MAX, OUT_OF_RANGE("1 up")),
        CLI_OPT_COUNT("patience", 0, &t->patience, 1, (double)SIZE_MAX, OUT_OF_RANGE("1 up")),
        CLI_OPT_REAL("val", 0, &t->val_frac, 0, 0.9, OUT_OF_RANGE("0 to 0.9")),
        CLI_OPT_COUNT("rounds", 0, &t->trees_rounds, 1, 10000, OUT_OF_RANGE("1 to 10000")),
        CLI_OPT_COUNT("max-depth", 0, &t->trees_depth, 1, 16, OUT_OF_RANGE("1 to 16")),
        CLI_OPT_REAL("eta", 0, &t->trees_eta, 1e-6, 1, OUT_OF_RANGE("1e-6 to 1")),
        CLI_OPT_COUNT("seed", 0, &t->seed, 0, (double)UINT64_MAX, OUT_OF_RANGE("0 up")),
        CLI_OPT_STRING("actions", 0, &c->actions),
        CLI_OPT_FORMAT(&c->format),
        CLI_OPT_STRING("save-split", 0, &c->save_split),
        CLI_OPT_STRING("output", 'o', &c->output),
        CLI_OPT_REAL("l2", 0, &t->l2, 1e-12, 1e3, OUT_OF_RANGE("1e-12 to 1000")),
        CLI_OPT_COUNT("max-iter", 0, &t->max_iter, 1, 10000000, OUT_OF_RANGE("1 to 10000000")),
        CLI_OPT_FLAG("keep-leaky", 0, &c->keep_leaky),
        /* the spellings before 0.1.0, kept for scripts */
        CLI_OPT_REAL("test", 0, &c->test, 0.01, 0.99, OUT_OF_RANGE("0.01 to 0.99")),
        CLI_OPT_COUNT("depth", 0, &t->trees_depth, 1, 16, OUT_OF_RANGE("1 to 16")),
        CLI_END,
    };
#undef OUT_OF_RANGE
    int code = cli_parse("train", usage, options, opts, LOAD_GROUP_BASE, argc, argv);
    if (code >= 0)
        return code;
    c->row_split = split == 0;
    if (c->save_split && c->cv)
        return cli_usage_error("train", "--save-split writes a held-out split, not --cv folds");
    if (optind + 1 != argc || !c->label || !c->output)
        return cli_usage_error("train", "needs one DATASET, --label and -o MODEL");
    const char *outputs[] = {c->output, c->save_split};
    return output_guard("train", outputs, 2, (const char *const *)argv + optind, 1, opts->cache_dir) ? 2 : -1;
}

static const char *const baselines[] = {"majority", "rule", "knn"};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The model trained on rows, timed. */
static int train_timed(const struct cli *c, const struct spoor_dataset *ds, const size_t *rows, size_t n,
                       struct spoor_model **model, double *ms, struct spoor_error *err)
{
    double t0 = now_ms();
    int st = spoor_model_train(ds, rows, n, &c->train, model, err);
    *ms = now_ms() - t0;
    return st;
}

/* Every row's part of the held-out split, by source line. */
static int save_split(const struct cli *c, const struct spoor_dataset *ds, const struct spoor_split *split,
                      struct spoor_error *err)
{
    struct spoor_split val;
    struct spoor_train_opts o = c->train;
    if (o.kind != SPOOR_MODEL_MLP)
        o.val_frac = 0; /* only the MLP carves a validation part */
    int st = spoor_model_val_split(ds, split->train, split->ntrain, &o, &val, err);
    if (st != SPOOR_OK)
        return st;
    const char **part = spoor_xcalloc(ds->nrows + 1, sizeof *part);
    for (size_t i = 0; i < split->ntest; i++)
        part[split->test[i]] = "test";
    for (size_t i = 0; i < val.ntrain; i++)
        part[val.train[i]] = "train";
    for (size_t i = 0; i < val.ntest; i++)
        part[val.test[i]] = "validation";
    struct spoor_report *rep = spoor_report_new("split");
    static const struct spoor_sheet_col cols[] = {{"line", SPOOR_CU_NONE, 0, SPOOR_HINT_NONE},
                                                  {"part", SPOOR_CU_NONE, 0, SPOOR_HINT_CATEGORY}};
    struct spoor_sheet *sh = spoor_report_table(rep, "split", SPOOR_FORMATS_ALL, cols, 2);
    spoor_sheet_reserve(sh, ds->nrows);
    for (size_t r = 0; r < ds->nrows; r++) {
        spoor_sheet_count(sh, ds->line[r]);
        if (part[r])
            spoor_sheet_name(sh, part[r]);
        else
            spoor_sheet_null(sh);
    }
    st = spoor_report_save(rep, c->save_split, SPOOR_FORMAT_CSV, 1, err);
    spoor_report_free(rep);
    free(part);
    spoor_split_free(&val);
    return st;
}

/* Cross-validated scores of the model and the baselines, then the model on every row. */
static int cross_validate(const struct cli *c, bool logo, const struct spoor_dataset *ds, struct spoor_model **model,
                          double *train_ms, struct ml_scored *s, char *how, size_t how_len, struct spoor_error *err)
{
    struct spoor_folds folds;
    int st = logo ? spoor_folds_logo(ds, NULL, 0, &folds, err)
                  : spoor_folds_kfold(ds, NULL, 0, c->folds, c->train.seed, &folds, err);
    if (st != SPOOR_OK)
        return st;
    snprintf(how, how_len, "%s over %zu rows (%zu folds%s, seed %llu); predictions of every fold pooled",
             logo ? "leave-one-group-out" : "k-fold cross-validation", ds->nrows, folds.n,
             ds->group ? ", whole groups" : ", stratified", (unsigned long long)c->train.seed);
    const char *methods[] = {spoor_model_kind_name(c->train.kind), baselines[0], baselines[1], baselines[2]};
    for (size_t i = 0; i < 4 && st == SPOOR_OK; i++) {
        struct spoor_pooled p;
        if ((st = spoor_cross_predict(ds, &folds, methods[i], &c->train, &p, err)) == SPOOR_OK) {
            spoor_pooled_metrics(ds, &p, &s[i].m);
            spoor_pooled_free(&p);
        }
    }
    spoor_folds_free(&folds);
    if (st != SPOOR_OK)
        return st;
    size_t *all = spoor_xcalloc(ds->nrows + 1, sizeof *all);
    for (size_t i = 0; i < ds->nrows; i++)
        all[i] = i;
    st = train_timed(c, ds, all, ds->nrows, model, train_ms, err);
    free(all);
    return st;
}

/* Scores the model (held-out) and the baselines on the same rows. */
static int holdout(const struct cli *c, const struct spoor_dataset *ds, struct spoor_model **model, double *train_ms,
                   struct ml_scored *s, char *how, size_t how_len, struct spoor_error *err)
{
    struct spoor_split split;
    bool grouped = ds->group && !c->row_split;
    int st = grouped ? spoor_split_holdout(ds, NULL, 0, c->test, c->train.seed, &split, err)
                     : spoor_split_rows(ds, NULL, 0, c->test, c->train.seed, &split, err);
    if (st != SPOOR_OK)
        return st;
    /* Whole groups can leave a class out of the test part: its recall would be
     * no measure at all, so every group is held out in turn instead. */
    long missing = grouped ? spoor_split_missing_class(ds, &split) : -1;
    if (missing >= 0) {
        spoor_split_free(&split);
        if (c->save_split)
            return spoor_fail(err, SPOOR_EUSAGE,
                              "the held-out groups have no '%s' row, so train falls back to leave-one-group-out, "
                              "which has no split to save (--save-split)", ds->class_names[missing]);
        fprintf(stderr, "spoor train: warning: the held-out groups have no '%s' row; scoring by leave-one-group-out "
                        "instead\n", ds->class_names[missing]);
        st = cross_validate(c, true, ds, model, train_ms, s, how, how_len, err);
        size_t used = strlen(how);
        snprintf(how + used, how_len - used, "; instead of a held-out split whose groups had no '%s' row",
                 ds->class_names[missing]);
        return st;
    }
    snprintf(how, how_len, "held-out %zu of %zu rows (%s, seed %llu); trained on the other %zu", split.ntest, ds->nrows,
             grouped ? "whole groups" : "stratified rows", (unsigned long long)c->train.seed, split.ntrain);
    uint32_t *truth = spoor_xcalloc(split.ntest + 1, sizeof *truth), *pred = spoor_xcalloc(split.ntest + 1, sizeof *pred);
    for (size_t i = 0; i < split.ntest; i++)
        truth[i] = ds->cls[split.test[i]];
    st = c->save_split ? save_split(c, ds, &split, err) : SPOOR_OK;
    if (st == SPOOR_OK)
        st = train_timed(c, ds, split.train, split.ntrain, model, train_ms, err);
    if (st == SPOOR_OK) {
        double scores[ds->nclasses + 1];
        for (size_t i = 0; i < split.ntest; i++)
            pred[i] = spoor_model_predict(*model, ds->x + split.test[i] * ds->nfeat, scores);
        spoor_metrics_compute(&s[0].m, ds->nclasses, truth, pred, split.ntest);
    }
    for (size_t b = 0; b < 3 && st == SPOOR_OK; b++)
        if ((st = spoor_fit_predict(ds, &split, baselines[b], &c->train, pred, err)) == SPOOR_OK)
            spoor_metrics_compute(&s[b + 1].m, ds->nclasses, truth, pred, split.ntest);
    free(truth);
    free(pred);
    spoor_split_free(&split);
    return st;
}

/* Rows split at random (held out or in folds) while the rows come in groups,
 * given (--split rows) or guessed from a column's name. */
static void warn_row_split(const struct cli *c, const struct spoor_dataset *ds)
{
    if (ds->group) {
        if (c->row_split && !c->cv)
            fprintf(stderr, "spoor train: warning: --split rows splits rows at random although --group %s groups "
                            "them: rows of one group on both sides leak\n", ds->group_name);
        return;
    }
    for (size_t i = 0; i < ds->ngroup_like; i++)
        fprintf(stderr,
                "spoor train: warning: rows are split at random, yet '%s' looks like a group id (%zu values repeated "
                "over %zu rows): if rows that share a value are alike, the split leaks; --group %s holds whole "
                "groups out\n",
                ds->group_like[i].name, ds->group_like[i].distinct, ds->nrows, ds->group_like[i].name);
}

static int run(const struct cli *c, const char *path, const struct spoor_load_opts *opts)
{
    size_t nfeat = 0;
    char **feat = c->features ? ml_list_split(c->features, &nfeat) : NULL;
    struct spoor_dataset_spec spec = {.features = (const char *const *)feat, .nfeatures = nfeat, .exact = c->keep,
                                      .label = c->label, .label_kind = SPOOR_LABEL_CLASS, .group = c->group,
                                      .leaks = c->keep_leaky ? SPOOR_LEAKS_WARN : SPOOR_LEAKS_DROP};
    struct spoor_dataset *ds = NULL;
    int code = ml_dataset_load("train", path, &spec, opts, &ds);
    ml_list_free(feat);
    if (code)
        return code;
    warn_row_split(c, ds);
    struct ml_scored s[4] = {{.name = spoor_model_kind_name(c->train.kind)}, {.name = "majority"},
                             {.name = "rule (depth 2)"}, {.name = "knn (k=5)"}};
    struct spoor_model *model = NULL;
    struct spoor_error err = {0};
    char how[384];
    double train_ms = -1;
    int st = c->cv ? cross_validate(c, !c->folds, ds, &model, &train_ms, s, how, sizeof how, &err)
                   : holdout(c, ds, &model, &train_ms, s, how, sizeof how, &err);
    if (st == SPOOR_OK && c->actions)
        st = spoor_model_set_actions(model, c->actions, &err);
    if (st == SPOOR_OK)
        st = spoor_model_save(model, c->output, &err);
    if (st == SPOOR_OK && model->kind == SPOOR_MODEL_LOGISTIC && !model->log.converged)
        fprintf(stderr, "spoor train: warning: logistic regression did not converge in %zu iterations (max |gradient| "
                        "%.2g); --max-iter raises the limit, a larger --l2 makes it easier\n",
                model->log.iterations, model->log.final_gradient);
    if (st == SPOOR_OK) {
        struct spoor_report *r = ml_report(how, train_ms, model, ds, s, 4);
        st = spoor_report_write(stdout, r, c->format.value, 1, &err);
        spoor_report_free(r);
    }
    if (st != SPOOR_OK)
        fprintf(stderr, "spoor train: %s\n", err.msg);
    for (size_t i = 0; i < 4; i++)
        spoor_metrics_free(&s[i].m);
    spoor_model_free(model);
    spoor_dataset_free(ds);
    return cli_exit_code(st);
}

int cmd_train(int argc, char **argv)
{
    struct cli c = {0};
    struct spoor_load_opts opts;
    load_args_init(&opts);
    opts.progress = false;
    int code = parse_cli(argc, argv, &c, &opts);
    return code >= 0 ? code : run(&c, argv[optind], &opts);
}
