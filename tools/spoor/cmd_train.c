/* spoor --help: train a classifier on a dataset and save it as a model */
/* spoor train: fits a classifier on a dataset, scores it on held-out rows (or
 * by cross-validation) beside the baselines, and saves it as a JSON model. */
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
    const char *label, *features, *group, *actions, *output;
    bool keep, keep_leaky;
    struct cli_format format;
    struct spoor_train_plan plan;
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
    char **widths = cli_split_commas(colon + 1, &n);
    bool ok = n >= 1 && n <= 8;
    for (size_t i = 0; ok && i < n; i++) {
        uint64_t w;
        ok = cli_count(widths[i], 1024, &w) && w >= 1;
        o->hidden[i] = (size_t)w;
    }
    o->nhidden = n;
    cli_split_free(widths);
    return ok;
}

/* --cv K (folds) or logo, into the command's settings. */
static bool parse_cv(void *cli, const char *arg)
{
    struct cli *c = cli;
    uint64_t k = 0;
    c->plan.cv = true;
    c->plan.folds = 0;
    if (!strcmp(arg, "logo"))
        return true;
    if (!cli_count(arg, 1000000, &k) || k < 2)
        return false;
    c->plan.folds = (size_t)k;
    return true;
}

static int parse_cli(int argc, char **argv, struct cli *c, struct spoor_load_opts *opts)
{
    static const enum spoor_output_format formats[] = {SPOOR_FORMAT_TABLE, SPOOR_FORMAT_JSON};
    static const char *const split_words[] = {"rows", NULL};
    spoor_train_opts_default(&c->plan.train);
    c->plan.test_frac = 0.2;
    c->format = (struct cli_format){"train", formats, 2, SPOOR_FORMAT_TABLE};
    struct spoor_train_opts *t = &c->plan.train;
    int split = -1;
#define OUT_OF_RANGE(range) "out of range, expected a number from " range
    const struct cli_option options[] = {
        CLI_OPT_STRING("label", 0, &c->label),
        CLI_OPT_STRING("features", 0, &c->features),
        CLI_OPT_FLAG("keep-redundant", 0, &c->keep),
        CLI_OPT_STRING("group", 0, &c->group),
        CLI_OPT_REAL("test-frac", 0, &c->plan.test_frac, 0.01, 0.99, OUT_OF_RANGE("0.01 to 0.99")),
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
        CLI_OPT_STRING("save-split", 0, &c->plan.save_split),
        CLI_OPT_STRING("output", 'o', &c->output),
        CLI_OPT_REAL("l2", 0, &t->l2, 1e-12, 1e3, OUT_OF_RANGE("1e-12 to 1000")),
        CLI_OPT_COUNT("max-iter", 0, &t->max_iter, 1, 10000000, OUT_OF_RANGE("1 to 10000000")),
        CLI_OPT_FLAG("keep-leaky", 0, &c->keep_leaky),
        /* the spellings before 0.1.0, kept for scripts */
        CLI_OPT_REAL("test", 0, &c->plan.test_frac, 0.01, 0.99, OUT_OF_RANGE("0.01 to 0.99")),
        CLI_OPT_COUNT("depth", 0, &t->trees_depth, 1, 16, OUT_OF_RANGE("1 to 16")),
        CLI_END,
    };
#undef OUT_OF_RANGE
    int code = cli_parse("train", usage, options, opts, LOAD_GROUP_BASE, argc, argv);
    if (code >= 0)
        return code;
    c->plan.row_split = split == 0;
    if (c->plan.save_split && c->plan.cv)
        return cli_usage_error("train", "--save-split writes a held-out split, not --cv folds");
    if (optind + 1 != argc || !c->label || !c->output)
        return cli_usage_error("train", "needs one DATASET, --label and -o MODEL");
    const char *outputs[] = {c->output, c->plan.save_split};
    return output_guard("train", outputs, 2, (const char *const *)argv + optind, 1, opts->cache_dir) ? 2 : -1;
}

/* Rows split at random (held out or in folds) while the rows come in groups,
 * given (--split rows) or guessed from a column's name. */
static void warn_row_split(const struct cli *c, const struct spoor_dataset *ds)
{
    if (ds->group) {
        if (c->plan.row_split && !c->plan.cv)
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
    char **feat = c->features ? cli_split_commas(c->features, &nfeat) : NULL;
    struct spoor_dataset_spec spec = {.features = (const char *const *)feat, .nfeatures = nfeat, .exact = c->keep,
                                      .label = c->label, .label_kind = SPOOR_LABEL_CLASS, .group = c->group,
                                      .leaks = c->keep_leaky ? SPOOR_LEAKS_WARN : SPOOR_LEAKS_DROP};
    struct spoor_dataset *ds = NULL;
    int code = ml_dataset_load("train", path, &spec, opts, &ds);
    cli_split_free(feat);
    if (code)
        return code;
    warn_row_split(c, ds);
    struct spoor_trained t;
    struct spoor_error err = {0};
    int st = spoor_train_evaluate(ds, &c->plan, &t, &err);
    if (t.missing_class)
        fprintf(stderr, "spoor train: warning: the held-out groups have no '%s' row; scoring by leave-one-group-out "
                        "instead\n", t.missing_class);
    if (st == SPOOR_OK && c->actions)
        st = spoor_model_set_actions(t.model, c->actions, &err);
    if (st == SPOOR_OK)
        st = spoor_model_save(t.model, c->output, &err);
    if (st == SPOOR_OK && t.model->kind == SPOOR_MODEL_LOGISTIC && !t.model->log.converged)
        fprintf(stderr, "spoor train: warning: logistic regression did not converge in %zu iterations (max |gradient| "
                        "%.2g); --max-iter raises the limit, a larger --l2 makes it easier\n",
                t.model->log.iterations, t.model->log.final_gradient);
    if (st == SPOOR_OK) {
        struct spoor_report *r = spoor_trained_report(&t, ds);
        st = spoor_report_write(stdout, r, c->format.value, 1, &err);
        spoor_report_free(r);
    }
    if (st != SPOOR_OK)
        fprintf(stderr, "spoor train: %s\n", err.msg);
    spoor_trained_free(&t);
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
