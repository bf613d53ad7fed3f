/* Shared by the model commands: dataset loading with warnings, lists, the
 * MODEL DATASET command shape. */
#include "ml_cli.h"
#include "cli_getopt.h"
#include "load_args.h"
#include "spoor/ml.h"
#include "output_guard.h"

#include <getopt.h>

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

/* Loads the model at model_path and the dataset holding its features (label
 * as the model names it when with_label, numbered by the model's classes;
 * with the label, a leaky feature is warned about and kept).
 * Returns 0, or the exit code after printing why. */
static int model_dataset_load(const char *cmd, const char *model_path, const char *path, bool with_label,
                              const char *group, const struct spoor_load_opts *opts, struct spoor_model **model,
                          struct spoor_dataset **ds)
{
    struct spoor_error err = {0};
    if (spoor_model_load(model_path, model, &err) != SPOOR_OK) {
        fprintf(stderr, "spoor %s: %s\n", cmd, err.msg);
        return 1;
    }
    struct spoor_dataset_spec spec;
    spoor_model_dataset_spec(*model, with_label, group, &spec);
    int code = ml_dataset_load(cmd, path, &spec, opts, ds);
    if (code) {
        spoor_model_free(*model);
        *model = NULL;
    }
    return code;
}

int ml_model_command_main(const struct ml_model_command *c, int argc, char **argv)
{
    struct spoor_load_opts opts;
    load_args_init(&opts);
    opts.progress = false;
    const char *group = NULL, *output = NULL;
    struct cli_format format = {c->name, c->formats, c->nformats, c->formats[0]};
    const struct cli_option options[] = {
        CLI_OPT_FORMAT(&format),
        CLI_OPT_STRING("output", 'o', &output),
        c->with_group ? (struct cli_option)CLI_OPT_STRING("group", 0, &group) : (struct cli_option)CLI_END,
        CLI_END,
    };
    int code = cli_parse(c->name, c->usage, options, &opts, LOAD_GROUP_BASE, argc, argv);
    if (code >= 0)
        return code;
    if (optind + 2 != argc)
        return cli_usage_error(c->name, "needs MODEL and DATASET");
    if (output_guard1(c->name, output, (const char *const *)argv + optind, 2, opts.cache_dir) ||
        !cli_output_fits(c->name, format.value, output))
        return 2;
    struct spoor_model *m = NULL;
    struct spoor_dataset *ds = NULL;
    code = model_dataset_load(c->name, argv[optind], argv[optind + 1], c->with_label, group, &opts, &m, &ds);
    if (!code)
        code = c->run(m, ds, group, format.value, output);
    spoor_dataset_free(ds);
    spoor_model_free(m);
    return code;
}
