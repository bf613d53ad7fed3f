/* spoor gen --kind metrics: the node-metric table of `spoor series` tests and
 * benchmarks, with its ground truth. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_getopt.h"
#include "cli_number.h"
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

static int usage_error(const char *what, const char *arg)
{
    fprintf(stderr, "spoor gen: %s '%s'; see 'spoor gen --kind metrics --help'\n", what, arg);
    return 2;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

int cmd_gen_metrics(int argc, char **argv)
{
    enum { OPT_KIND = 1000, OPT_ROWS, OPT_NODES, OPT_INTERVAL, OPT_TIME, OPT_MISSING, OPT_BAD, OPT_SEED, OPT_NO_TRUTH };
    static const struct option longopts[] = {
        {"output", required_argument, 0, 'o'},      {"kind", required_argument, 0, OPT_KIND},
        {"rows", required_argument, 0, OPT_ROWS},   {"nodes", required_argument, 0, OPT_NODES},
        {"interval", required_argument, 0, OPT_INTERVAL}, {"time-format", required_argument, 0, OPT_TIME},
        {"missing", required_argument, 0, OPT_MISSING}, {"bad-lines", required_argument, 0, OPT_BAD},
        {"seed", required_argument, 0, OPT_SEED},   {"no-truth", no_argument, 0, OPT_NO_TRUTH},
        {"help", no_argument, 0, 'h'},              {0, 0, 0, 0},
    };
    struct spoor_gen_metrics_opts o = {.rows = 100000, .nodes = 16, .interval_s = 30, .seed = 1, .truth = true};
    const char *path = NULL;
    uint64_t v;
    optind = 1;
    int c;
    while ((c = cli_getopt("gen", argc, argv, "o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o':
            path = optarg;
            break;
        case OPT_KIND:
            break; /* "metrics": how we got here */
        case OPT_ROWS:
            if (!cli_count(optarg, UINT64_MAX / 2, &o.rows))
                return usage_error("--rows wants a number of rows, not", optarg);
            break;
        case OPT_NODES:
            if (!cli_count(optarg, 10000, &v) || v < 1)
                return usage_error("--nodes wants a number from 1 to 10000, not", optarg);
            o.nodes = (int)v;
            break;
        case OPT_INTERVAL:
            if (!cli_count(optarg, 86400, &v) || v < 1)
                return usage_error("--interval wants seconds from 1 to 86400, not", optarg);
            o.interval_s = (int)v;
            break;
        case OPT_TIME:
            if (!spoor_gen_time_parse(optarg, &o.time_format))
                return usage_error("--time-format wants iso, iso-offset, s, ms, us or ns, not", optarg);
            break;
        case OPT_MISSING:
            if (!cli_real(optarg, 0, 1, &o.missing))
                return usage_error("--missing wants a share from 0 to 1, not", optarg);
            break;
        case OPT_BAD:
            if (!cli_count(optarg, UINT64_MAX / 2, &o.bad_lines))
                return usage_error("--bad-lines wants a number of lines, not", optarg);
            break;
        case OPT_SEED:
            if (!cli_count(optarg, UINT64_MAX, &o.seed))
                return usage_error("--seed wants a non-negative integer, not", optarg);
            break;
        case OPT_NO_TRUTH:
            o.truth = false;
            break;
        case 'h':
            fputs(help, stdout);
            return 0;
        default:
            return 2;
        }
    }
    if (optind < argc)
        return usage_error("unexpected argument", argv[optind]);
    if (!path)
        return usage_error("-o FILE is required:", "-o");
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
