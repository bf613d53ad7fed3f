/* spoor --help: the I/O pattern of block traces per time window, reads and writes apart */
/* spoor windows: block-layer requests (blkparse, ftrace, lttng) summed per
 * time window (and device), reads and writes apart: counts, sizes, rates,
 * latencies, seek distances and queue depth, ready for `spoor train`. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_getopt.h"
#include "cli_number.h"
#include "load_args.h"
#include "output_guard.h"
#include "spoor/report.h"
#include "spoor/windows.h"

static const char usage[] =
    "usage: spoor windows BLOCKTRACE... --every DUR [options]\n"
    "\n"
    "Sums the requests of block-layer traces (blkparse, ftrace or lttng text) per\n"
    "time window: one row per window (and device) with, for reads and for writes,\n"
    "requests, bytes, mean and median size, IOPS, bandwidth (bytes/s), completions\n"
    "and their latency mean, p50 and p99 (ns; a latency counts in the window of its\n"
    "completion), the mean sector distance from the previous request's end,\n"
    "the shares of jumps (> 1 MiB) and of sequential requests (distance 0), and the\n"
    "mean queue depth. Windows start at the first request's issue time; a window\n"
    "with no issue and no completion makes no row.\n"
    "\n"
    "options:\n"
    "  --every DUR          the window width: a number and ns, us, ms, s, min, h or d\n"
    "                       (2.5s, 250ms)\n"
    "  --by dev             a row per window and device (default: devices together)\n"
    "  --run-id R           a run_id column holding R (for spoor train --group)\n"
    "  --label L            a label column holding L (for spoor train --label)\n"
    "  --format F           table (default), csv, json or jsonl\n"
    "  -o FILE              write to FILE (complete or not at all) instead of stdout\n"
    "  -h, --help           this help\n"
    LOAD_HELP_HEAD LOAD_HELP_THREADS LOAD_HELP_BASE LOAD_HELP_PROGRESS;

static const enum spoor_output_format formats[] = {SPOOR_FORMAT_TABLE, SPOOR_FORMAT_CSV, SPOOR_FORMAT_JSON,
                                                   SPOOR_FORMAT_JSONL};

static bool set_every(void *target, const char *arg) { return cli_duration("windows", "--every", arg, target); }

static bool set_by(void *target, const char *arg)
{
    if (strcmp(arg, "dev")) {
        cli_usage_error("windows", "--by wants dev, not '%s'", arg);
        return false;
    }
    *(bool *)target = true;
    return true;
}

int cmd_windows(int argc, char **argv)
{
    struct spoor_load_opts load;
    load_args_init(&load);
    load.no_cache = true; /* one streaming pass: a snapshot would only cost */
    struct spoor_windows_opts wo = {0};
    struct cli_format format = {"windows", formats, 4, SPOOR_FORMAT_TABLE};
    const char *output = NULL;
    const struct cli_option options[] = {
        CLI_OPT_CALL("every", 0, &wo.every_ns, set_every, NULL),
        CLI_OPT_CALL("by", 0, &wo.by_dev, set_by, NULL),
        CLI_OPT_STRING("run-id", 0, &wo.run_id),
        CLI_OPT_STRING("label", 0, &wo.label),
        CLI_OPT_FORMAT(&format),
        CLI_OPT_STRING("output", 'o', &output),
        CLI_END,
    };
    int code = cli_parse("windows", usage, options, &load, LOAD_GROUP_BASE | LOAD_GROUP_PROGRESS, argc, argv);
    if (code >= 0)
        return code;
    if (optind >= argc)
        return cli_usage_error("windows", "no block trace given");
    if (!wo.every_ns)
        return cli_usage_error("windows", "--every DUR is required");
    if (output_guard1("windows", output, (const char *const *)argv + optind, (size_t)(argc - optind),
                      load.cache_dir) ||
        !cli_output_fits("windows", format.value, output))
        return 2;

    struct spoor_windows w;
    struct spoor_load_result res;
    struct spoor_error err;
    int st = spoor_windows_load((const char *const *)argv + optind, (size_t)(argc - optind), &load, &wo, &w, &res,
                                &err);
    load_args_report("windows", &res);
    if (st == SPOOR_OK) {
        struct spoor_report *report = spoor_windows_report(&w, &wo);
        st = spoor_report_save(report, output, format.value, spoor_load_threads(&load), &err);
        spoor_report_free(report);
    }
    if (st != SPOOR_OK)
        fprintf(stderr, "spoor windows: %s\n", err.msg);
    spoor_windows_free(&w);
    spoor_load_result_free(&res);
    return cli_exit_code(st);
}
