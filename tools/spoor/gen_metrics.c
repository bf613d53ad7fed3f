/* spoor gen --kind metrics: the node-metric table of `spoor series` tests and
 * benchmarks, with its ground truth. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_getopt.h"
#include "gen_kinds.h"
#include "output_guard.h"
#include "spoor/write.h"
#include "spoor/gen.h"

static const char help[] =
    "usage: spoor gen --kind metrics -o FILE [options]\n"
    "\n"
    "Writes a node-metric table (CSV, or JSON lines when FILE ends in .jsonl or\n"
    ".jsonl.gz; gzip when it ends in .gz): every --interval seconds from\n"
    "2024-01-01T00:00:00Z each node writes timestamp, node, cpu_usage_rate,\n"
    "memory_usage, load_1m, disk_io, net_rx. Values are multiples of 1/256, so\n"
    "sums and means are exact. Also writes FILE.truth.json with the sections\n"
    "`spoor series --format json --group node --by hour,weekday --corr 0.7\n"
    "--resample 1h --target cpu_usage_rate=0.65` must print.\n"
    "\n"
    "options:\n"
    "  -o, --output FILE    the table to write (required)\n"
    "  --rows N             data rows (default 100000)\n"
    "  --nodes N            nodes, sampled in turn (default 16)\n"
    "  --interval S         seconds between samples of a node (default 30)\n"
    "  --time-format F      iso (default), iso-offset (+02:00), s, ms, us, ns\n"
    "  --missing P          share of metric cells left empty; a quarter of them\n"
    "                       hold 'n/a' instead (default 0)\n"
    "  --bad-lines N        malformed lines spread through the table (default 0)\n"
    "  --seed N             random seed (default 1)\n"
    "  --no-truth           do not write FILE.truth.json\n"
    "  -h, --help           this help\n";

static bool time_format(void *target, const char *value) { return spoor_gen_time_parse(value, target); }

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

int cmd_gen_metrics(int argc, char **argv)
{
    struct spoor_gen_metrics_opts o = {.rows = 100000, .nodes = 16, .interval_s = 30, .seed = 1};
    const char *path = NULL, *kind = NULL;
    bool no_truth = false;
    const struct cli_option options[] = {
        CLI_OPT_STRING("output", 'o', &path),
        CLI_OPT_STRING("kind", 0, &kind), /* "metrics": how we got here */
        CLI_OPT_COUNT("rows", 0, &o.rows, 0, (double)(UINT64_MAX / 2), "expected a number of rows"),
        CLI_OPT_COUNT("nodes", 0, &o.nodes, 1, 10000, "expected a number from 1 to 10000"),
        CLI_OPT_COUNT("interval", 0, &o.interval_s, 1, 86400, "expected seconds from 1 to 86400"),
        CLI_OPT_CALL("time-format", 0, &o.time_format, time_format, "expected iso, iso-offset, s, ms, us or ns"),
        CLI_OPT_REAL("missing", 0, &o.missing, 0, 1, "expected a share from 0 to 1"),
        CLI_OPT_COUNT("bad-lines", 0, &o.bad_lines, 0, (double)(UINT64_MAX / 2), "expected a number of lines"),
        CLI_OPT_COUNT("seed", 0, &o.seed, 0, (double)UINT64_MAX, "expected a non-negative integer"),
        CLI_OPT_FLAG("no-truth", 0, &no_truth),
        CLI_END,
    };
    int code = cli_parse("gen --kind metrics", help, options, NULL, 0, argc, argv);
    if (code >= 0)
        return code;
    if (optind < argc)
        return cli_usage_error("gen --kind metrics", "unexpected argument '%s'", argv[optind]);
    if (!path)
        return cli_usage_error("gen --kind metrics", "-o FILE is required");
    o.truth = !no_truth;
    o.truth = gen_truth_wanted(path, o.truth);
    char truth[4096];
    spoor_gen_truth_path(path, truth, sizeof truth);
    if (output_guard("gen", (const char *[]){path, o.truth ? truth : NULL}, 2, NULL, 0, NULL))
        return 2;
    o.jsonl = ends_with(path, ".jsonl") || ends_with(path, ".jsonl.gz");

    struct spoor_gen_metrics_result r;
    struct spoor_error err = {0};
    if (spoor_gen_metrics_write(path, &o, &r, &err)) {
        fprintf(stderr, "spoor gen: %s\n", err.msg);
        return 1;
    }
    FILE *report = gen_report(path);
    fprintf(report, "%s: %llu rows, %llu bad lines; %.1f MB", path, (unsigned long long)r.rows,
            (unsigned long long)r.bad_lines, r.bytes / 1e6);
    if (r.disk_bytes != r.bytes)
        fprintf(report, ", %.1f MB on disk", r.disk_bytes / 1e6);
    fputc('\n', report);
    if (o.truth)
        fprintf(report, "ground truth: %s\n", truth);
    return 0;
}
