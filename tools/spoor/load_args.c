#include "cli_getopt.h"
#include "cli_number.h"
#include "load_args.h"
#include "spoor/load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The groups' getopt_long rows (load_args.h names the groups). */
static const struct option base[] = {
    {"threads", required_argument, 0, LOAD_OPT_THREADS},
    {"strict", no_argument, 0, LOAD_OPT_STRICT},
    {"input-format", required_argument, 0, LOAD_OPT_INPUT_FORMAT},
    {"delimiter", required_argument, 0, LOAD_OPT_DELIMITER},
    {"no-index", no_argument, 0, LOAD_OPT_NO_INDEX},
};
static const struct option events[] = {
    {"dialect", required_argument, 0, LOAD_OPT_DIALECT},
    {"ts-unit", required_argument, 0, LOAD_OPT_TS_UNIT},
    {"dur-unit", required_argument, 0, LOAD_OPT_DUR_UNIT},
    {"ts", required_argument, 0, LOAD_OPT_FIELD_TS},
    {"dur", required_argument, 0, LOAD_OPT_FIELD_DUR},
    {"name", required_argument, 0, LOAD_OPT_FIELD_NAME},
    {"cat", required_argument, 0, LOAD_OPT_FIELD_CAT},
    {"pid", required_argument, 0, LOAD_OPT_FIELD_PID},
    {"tid", required_argument, 0, LOAD_OPT_FIELD_TID},
    {"input-columns", required_argument, 0, LOAD_OPT_INPUT_COLUMNS},
    {"utc-offset", required_argument, 0, LOAD_OPT_UTC_OFFSET},
    {"align", required_argument, 0, LOAD_OPT_ALIGN},
};
static const struct option cache[] = {
    {"no-cache", no_argument, 0, LOAD_OPT_NO_CACHE},
    {"cache-dir", required_argument, 0, LOAD_OPT_CACHE_DIR},
};
static const struct option progress[] = {
    {"no-progress", no_argument, 0, LOAD_OPT_NO_PROGRESS},
};

size_t load_args_options(unsigned groups, struct option *out)
{
    static const struct {
        unsigned group;
        const struct option *rows;
        size_t n;
    } all[] = {
        {LOAD_GROUP_BASE, base, sizeof base / sizeof *base},
        {LOAD_GROUP_EVENTS, events, sizeof events / sizeof *events},
        {LOAD_GROUP_CACHE, cache, sizeof cache / sizeof *cache},
        {LOAD_GROUP_PROGRESS, progress, sizeof progress / sizeof *progress},
    };
    size_t n = 0;
    for (size_t g = 0; g < sizeof all / sizeof *all; g++)
        if (groups & all[g].group) {
            memcpy(out + n, all[g].rows, all[g].n * sizeof *out);
            n += all[g].n;
        }
    return n;
}

void load_args_init(struct spoor_load_opts *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->read.args = SPOOR_ARGS_ALL;
    opts->progress = true;
}

static int unit(enum spoor_unit *dst, const char *arg, const char *cmd, const char *opt)
{
    *dst = spoor_unit_parse(arg);
    if (*dst == SPOOR_UNIT_AUTO) {
        cli_usage_error(cmd, "%s '%s': expected ns, us, ms or s", opt, arg);
        return -1;
    }
    return 1;
}

int load_args_handle(struct spoor_load_opts *opts, int code, const char *arg, const char *cmd)
{
    struct spoor_read_opts *r = &opts->read;
    switch (code) {
    case LOAD_OPT_THREADS: {
        uint64_t n;
        if (!cli_count(arg, 1024, &n) || n < 1) {
            cli_usage_error(cmd, "--threads '%s': expected a number from 1 to 1024", arg);
            return -1;
        }
        opts->threads = (int)n;
        return 1;
    }
    case LOAD_OPT_STRICT: r->strict = true; return 1;
    case LOAD_OPT_DIALECT: r->dialect = arg; return 1;
    case LOAD_OPT_TS_UNIT: return unit(&r->ts_unit, arg, cmd, "--ts-unit");
    case LOAD_OPT_DUR_UNIT: return unit(&r->dur_unit, arg, cmd, "--dur-unit");
    case LOAD_OPT_INPUT_FORMAT:
        if (!spoor_format_named(arg)) {
            char names[256];
            spoor_format_names(names, sizeof names);
            cli_usage_error(cmd, "--input-format '%s': expected %s", arg, names);
            return -1;
        }
        r->format = arg;
        return 1;
    case LOAD_OPT_NO_INDEX: opts->input.no_index = true; return 1;
    case LOAD_OPT_UTC_OFFSET: r->utc_offset = arg; return 1;
    case LOAD_OPT_ALIGN: r->align = arg; return 1;
    case LOAD_OPT_NO_CACHE: opts->no_cache = true; return 1;
    case LOAD_OPT_CACHE_DIR: {
        struct spoor_error err = {0};
        if (spoor_mkdirs(arg, &err) != SPOOR_OK) {
            fprintf(stderr, "spoor %s: --cache-dir: %s\n", cmd, err.msg);
            return -1;
        }
        opts->cache_dir = arg;
        return 1;
    }
    case LOAD_OPT_NO_PROGRESS: opts->progress = false; return 1;
    case LOAD_OPT_FIELD_TS: r->field_ts = arg; return 1;
    case LOAD_OPT_FIELD_DUR: r->field_dur = arg; return 1;
    case LOAD_OPT_FIELD_NAME: r->field_name = arg; return 1;
    case LOAD_OPT_FIELD_CAT: r->field_cat = arg; return 1;
    case LOAD_OPT_FIELD_PID: r->field_pid = arg; return 1;
    case LOAD_OPT_FIELD_TID: r->field_tid = arg; return 1;
    case LOAD_OPT_INPUT_COLUMNS: r->input_columns = arg; return 1;
    case LOAD_OPT_DELIMITER:
        if (!strcmp(arg, "\\t") || !strcmp(arg, "tab"))
            arg = "\t";
        if (strlen(arg) != 1) {
            cli_usage_error(cmd, "--delimiter '%s': expected one character", arg);
            return -1;
        }
        r->csv_delim = arg[0];
        return 1;
    default:
        return 0;
    }
}

void load_args_report(const char *cmd, const struct spoor_load_result *result)
{
    for (size_t i = 0; i < result->ninputs; i++) {
        const struct spoor_input_report *in = &result->inputs[i];
        if (in->warning)
            fprintf(stderr, "spoor %s: warning: %s\n", cmd, in->warning);
        if (in->dialect.unit_warning[0])
            fprintf(stderr, "spoor %s: warning: %s: %s\n", cmd, in->path, in->dialect.unit_warning);
        if (in->redefined)
            fprintf(stderr, "spoor %s: %s: %llu metadata definitions give a hash another meaning later in the file;"
                            " each event takes the one in force at its line\n",
                    cmd, in->path, (unsigned long long)in->redefined);
        const struct spoor_skips *s = &in->skips;
        if (!s->total)
            continue;
        for (size_t k = 0; k < s->nsamples; k++) {
            char where[600];
            spoor_skip_where(where, sizeof where, in->path, in->dialect.records, s->sample[k].line,
                             s->sample[k].byte);
            fprintf(stderr, "spoor %s: %s: %s%s%s (skipped)\n", cmd, where, s->sample[k].reason,
                    s->sample[k].detail[0] ? ": " : "", s->sample[k].detail);
        }
        fprintf(stderr, "spoor %s: %s: skipped %llu of %llu lines (", cmd, in->path,
                (unsigned long long)s->total, (unsigned long long)in->lines);
        for (size_t k = 0; k < s->nreasons; k++)
            fprintf(stderr, "%s%llu %s", k ? ", " : "", (unsigned long long)s->count[k], s->reason[k]);
        fprintf(stderr, "); --strict makes this an error\n");
    }
}
