/* spoor --help: rank the features of a dataset by their importance for a target */
/* spoor importance: which features of a dataset matter for a target, by
 * correlation, PCA, lasso, boosted trees (gain, SHAP) and permutation. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_number.h"
#include "spoor/report.h"
#include "cli_getopt.h"
#include "load_args.h"
#include "spoor/ml.h"
#include "output_guard.h"

static const char usage[] =
    "usage: spoor importance [options] DATASET --target COL\n"
    "\n"
    "Ranks the features of a CSV or JSONL dataset by their importance for the target:\n"
    "Pearson and Spearman correlation (the correlation ratio for a class target), PCA,\n"
    "lasso with a cross-validated alpha, gradient-boosted trees (XGBoost gain), TreeSHAP\n"
    "and permutation importance on held-out rows; then a consensus ranking, the smallest\n"
    "feature set reaching a cumulative share, and per-layer totals.\n"
    "\n"
    "options:\n"
    "  --target COL         the column to explain (required)\n"
    "  --features LIST      comma-separated names or globs (default: every numeric column\n"
    "                       but the target and the group)\n"
    "  --group COL          rows sharing COL (e.g. run_id) are held out together\n"
    "  --keep-leaky         keep leaky features (still warned about): one whose values\n"
    "                       match the classes one to one, or with --group one constant\n"
    "                       within every group\n"
    "  --task T             auto (default), classification or regression; auto: text\n"
    "                       or at most 10 distinct integers is classification\n"
    "  --methods LIST       corr,pca,lasso,trees,shap,permutation or all (default all)\n"
    "  --cumulative F       the share the smallest feature set must reach (default 0.95)\n"
    "  --layer-sep C        a feature's layer: before the first C, or after the last '-'\n"
    "                       for C '-' (default: '.' then '-')\n"
    "  --test-frac F        held-out share of rows or groups (default 0.2)\n"
    "  --folds K            lasso cross-validation folds (default 5)\n"
    "  --repeats N          shuffles per feature for permutation importance (default 5)\n"
    "  --rounds N           boosting rounds (default 100)\n"
    "  --max-depth N        tree depth (default 6)\n"
    "  --seed N             seed of splits, folds and shuffles (default 1)\n"
    "  --threads N          also XGBoost's threads (default 1); results do not depend on it\n"
    "  --top N              features listed in the table (default 20; 0: all)\n"
    "  --pairs N            strongest correlated pairs listed (default 10)\n"
    "  --components N       principal components listed (default 5)\n"
    "  --corr-matrix FILE   write the Pearson feature correlation matrix as CSV\n"
    "  --spearman-matrix FILE  the same for Spearman\n"
    "  --format F           table (default), json, csv or html (a page of charts; -o FILE.html)\n"
    "  -o FILE              write to FILE (complete or not at all) instead of stdout\n"
    "  -h, --help           this help\n" LOAD_HELP_HEAD LOAD_HELP_BASE;


struct args {
    const char *path, *target, *group, *features, *task, *output, *corr_matrix, *spearman_matrix;
    struct cli_format format;
    struct spoor_importance_opts opts;
    struct spoor_importance_view shown;
    bool keep_leaky;
    struct spoor_load_opts load;
};

/* The values checked by more than a range, as CLI_CALLs. */
static bool share(const char *arg, bool allow_one, double *out) /* in (0, 1), or (0, 1] with allow_one */
{
    double v;
    if (!cli_real(arg, 0, 1, &v) || v == 0 || (v == 1 && !allow_one))
        return false;
    *out = v;
    return true;
}

static bool share_below_one(void *out, const char *arg) { return share(arg, false, out); }
static bool share_up_to_one(void *out, const char *arg) { return share(arg, true, out); }

static bool set_task(void *task, const char *arg)
{
    *(const char **)task = arg;
    return !strcmp(arg, "auto") || !strcmp(arg, "classification") || !strcmp(arg, "regression");
}

static bool set_methods(void *methods, const char *arg)
{
    *(unsigned *)methods = spoor_importance_methods(arg);
    return *(unsigned *)methods != 0;
}

static bool set_char(void *c, const char *arg)
{
    *(char *)c = arg[0];
    return strlen(arg) == 1;
}

static int parse_args(int argc, char **argv, struct args *a)
{
    *a = (struct args){.task = "auto", .shown = {.top = 20, .pairs = 10, .components = 5},
                       .format = {"importance", spoor_chart_formats, 4, SPOOR_FORMAT_TABLE}};
    spoor_importance_opts_default(&a->opts);
    load_args_init(&a->load);
    a->load.progress = false;
    const struct cli_option options[] = {
        CLI_OPT_STRING("target", 0, &a->target),
        CLI_OPT_STRING("features", 0, &a->features),
        CLI_OPT_STRING("group", 0, &a->group),
        CLI_OPT_FLAG("keep-leaky", 0, &a->keep_leaky),
        CLI_OPT_CALL("task", 0, &a->task, set_task, "expected auto, classification or regression"),
        CLI_OPT_CALL("methods", 0, &a->opts.methods, set_methods,
                     "expected a list of corr, pca, lasso, trees, shap, permutation, all"),
        CLI_OPT_CALL("cumulative", 0, &a->opts.cumulative, share_up_to_one, "expected a share in (0, 1]"),
        CLI_OPT_CALL("layer-sep", 0, &a->shown.layer_sep, set_char, "expected one character"),
        CLI_OPT_CALL("test-frac", 0, &a->opts.test_frac, share_below_one, "expected a share in (0, 1)"),
        CLI_OPT_COUNT("folds", 0, &a->opts.folds, 2, (double)SIZE_MAX, "expected an integer >= 2"),
        CLI_OPT_COUNT("repeats", 0, &a->opts.repeats, 1, 100000, "expected an integer from 1 to 100000"),
        CLI_OPT_COUNT("rounds", 0, &a->opts.rounds, 1, 100000, "expected an integer from 1 to 100000"),
        CLI_OPT_COUNT("max-depth", 0, &a->opts.max_depth, 1, 100000, "expected an integer from 1 to 100000"),
        CLI_OPT_COUNT("seed", 0, &a->opts.seed, 0, (double)SIZE_MAX, "expected an integer >= 0"),
        CLI_OPT_COUNT("top", 0, &a->shown.top, 0, (double)SIZE_MAX, "expected an integer >= 0"),
        CLI_OPT_COUNT("pairs", 0, &a->shown.pairs, 0, (double)SIZE_MAX, "expected an integer >= 0"),
        CLI_OPT_COUNT("components", 0, &a->shown.components, 0, (double)SIZE_MAX, "expected an integer >= 0"),
        CLI_OPT_STRING("corr-matrix", 0, &a->corr_matrix),
        CLI_OPT_STRING("spearman-matrix", 0, &a->spearman_matrix),
        CLI_OPT_FORMAT(&a->format),
        CLI_OPT_STRING("output", 'o', &a->output),
        CLI_END,
    };
    int code = cli_parse("importance", usage, options, &a->load, LOAD_GROUP_BASE, argc, argv);
    if (code >= 0)
        return code;
    if (optind + 1 != argc || !a->target)
        return cli_usage_error("importance", "expected one DATASET and --target COL");
    a->path = argv[optind];
    const char *outputs[] = {a->output, a->corr_matrix, a->spearman_matrix};
    if (output_guard("importance", outputs, 3, &a->path, 1, a->load.cache_dir) ||
        !cli_output_fits("importance", a->format.value, a->output))
        return 2;
    /* XGBoost's OpenMP threads spin while they wait: on a busy machine two cost
     * twice the CPU of one for the same trees: one unless --threads asks for more. */
    a->opts.threads = a->load.threads > 0 ? a->load.threads : 1;
    return -1;
}

/* Prints what the task was decided from, and what the dataset layer dropped. */
static void tell(const struct args *a, const struct spoor_dataset *d, const char *why)
{
    if (why)
        fprintf(stderr, "spoor importance: target %s holds %s: %s", d->label_name, why,
                d->label_is_class ? "classification" : "regression");
    else
        fprintf(stderr, "spoor importance: target %s: %s (--task)", d->label_name, a->task);
    if (d->label_is_class)
        fprintf(stderr, " over %zu classes", d->nclasses);
    fputc('\n', stderr);
    for (size_t i = 0; i < d->ndropped; i++) {
        const struct spoor_dataset_drop *dr = &d->dropped[i];
        if (dr->kept) {
            fprintf(stderr, "spoor importance: %s: warning: feature %s leaks: %s; kept (--keep-leaky)\n", d->path,
                    dr->name, dr->reason);
            continue;
        }
        fprintf(stderr, "spoor importance: %s: %sdropped feature %s (%s%s%s", d->path, dr->leak ? "warning: " : "",
                dr->name, dr->reason, dr->other ? " " : "", dr->other ? dr->other : "");
        if (dr->other)
            fprintf(stderr, ", r = %.4f", dr->r);
        fprintf(stderr, ")%s\n", dr->leak ? "; --keep-leaky keeps it" : "");
    }
    if (d->skipped_rows)
        fprintf(stderr, "spoor importance: %s: skipped %llu rows lacking a value (first: line %llu, %s)\n", d->path,
                (unsigned long long)d->skipped_rows, (unsigned long long)d->first_skipped_line, d->first_skipped_field);
}

static int load(struct args *a, struct spoor_dataset **ds, struct spoor_error *err)
{
    size_t nfeatures = 0;
    char **features = a->features ? cli_split_commas(a->features, &nfeatures) : NULL;
    struct spoor_dataset_spec spec = {.features = (const char *const *)features, .nfeatures = nfeatures,
                                      .label = a->target, .group = a->group,
                                      .leaks = a->keep_leaky ? SPOOR_LEAKS_WARN : SPOOR_LEAKS_DROP};
    spec.label_kind = !strcmp(a->task, "classification") ? SPOOR_LABEL_CLASS
                      : !strcmp(a->task, "regression")   ? SPOOR_LABEL_NUMBER
                                                         : SPOOR_LABEL_AUTO;
    const char *why;
    int rc = spoor_importance_dataset_load(a->path, &spec, &a->load, ds, &why, err);
    if (rc == SPOOR_OK)
        tell(a, *ds, why);
    cli_split_free(features);
    return rc;
}

static int report(const struct args *a, const struct spoor_dataset *ds, const struct spoor_importance_report *r,
                  struct spoor_error *err)
{
    int rc = SPOOR_OK;
    if (a->corr_matrix && r->pearson)
        rc = spoor_importance_matrix_save(ds, r->pearson, a->corr_matrix, err);
    if (rc == SPOOR_OK && a->spearman_matrix && r->spearman)
        rc = spoor_importance_matrix_save(ds, r->spearman, a->spearman_matrix, err);
    if (rc != SPOOR_OK)
        return rc;
    struct spoor_report *rep = spoor_importance_to_report(ds, r, &a->opts, &a->shown);
    rc = spoor_report_save(rep, a->output, a->format.value, 1, err);
    spoor_report_free(rep);
    return rc;
}

int cmd_importance(int argc, char **argv)
{
    struct args a;
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    if ((a.corr_matrix || a.spearman_matrix) && !(a.opts.methods & (SPOOR_IMP_CORR | SPOOR_IMP_PCA)))
        return cli_usage_error("importance", "--corr-matrix needs the corr method");
    struct spoor_error err;
    struct spoor_dataset *ds = NULL;
    struct spoor_importance_report r;
    rc = load(&a, &ds, &err);
    if (rc == SPOOR_OK)
        rc = spoor_importance_run(ds, &a.opts, &r, &err);
    if (rc == SPOOR_OK) {
        rc = report(&a, ds, &r, &err);
        spoor_importance_report_free(&r);
    }
    spoor_dataset_free(ds);
    if (rc != SPOOR_OK) {
        fprintf(stderr, "spoor importance: %s\n", err.msg);
        return rc == SPOOR_EUSAGE ? 2 : 1;
    }
    return 0;
}
