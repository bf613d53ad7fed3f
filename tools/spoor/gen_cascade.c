/* spoor gen --kind cascade: a synthetic cascade scheduler log and the exact
 * `spoor lifecycle` answers for both presets. */
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
    "usage: spoor gen --kind cascade -o FILE [options]\n"
    "\n"
    "Writes a synthetic log of the cascade scheduler: tasks (taskPlanned, taskEnqueued,\n"
    "taskStarted, taskFinished) and transfers of their outputs (transmitPlanned,\n"
    "transmitStarted, transmitLoaded, transmitFinished; local transfers log only the\n"
    "first and last), one record per line in the scheduler's shapes: task (or dataset),\n"
    "action, worker, host, at (ns) and, on transfers' first and last records, mode; the\n"
    "controller logs the Planned stages with host 'controller' and the full worker name.\n"
    "JSON lines, or Python logging lines when FILE ends in .log.\n"
    "Entity names and placement do not depend on the seed, so two seeds are two runs\n"
    "of one workflow. Also writes FILE.truth-tasks.csv and FILE.truth-transmits.csv:\n"
    "the exact output of 'spoor lifecycle --preset cascade-tasks|cascade-transmits\n"
    "--format csv FILE'.\n"
    "\n"
    "options:\n"
    "  -o, --output FILE    the log to write (required)\n"
    "  --records N          stop once about N records are written (default 100000)\n"
    "  --hosts N            hosts (default 4)\n"
    "  --workers N          workers per host (default 4)\n"
    "  --seed N             random seed for times and faults (default 1)\n"
    "  --faults             drop or repeat a stage record of ~2% of entities each, and\n"
    "                       write a broken line every ~1000 lines\n"
    "  --top N              slowest entities listed in the truth (default 10)\n"
    "  --no-truth           do not write the truth sidecars\n"
    "  -h, --help           this help\n";

static int bad(const char *opt, const char *arg, const char *want)
{
    fprintf(stderr, "spoor gen: %s wants %s, not '%s'; see 'spoor gen --kind cascade --help'\n", opt, want, arg);
    return 2;
}

int cmd_gen_cascade(int argc, char **argv)
{
    enum { OPT_KIND = 1000, OPT_RECORDS, OPT_HOSTS, OPT_WORKERS, OPT_SEED, OPT_FAULTS, OPT_TOP, OPT_NO_TRUTH };
    static const struct option longopts[] = {
        {"output", required_argument, 0, 'o'},   {"kind", required_argument, 0, OPT_KIND},
        {"records", required_argument, 0, OPT_RECORDS}, {"hosts", required_argument, 0, OPT_HOSTS},
        {"workers", required_argument, 0, OPT_WORKERS}, {"seed", required_argument, 0, OPT_SEED},
        {"faults", no_argument, 0, OPT_FAULTS},  {"top", required_argument, 0, OPT_TOP},
        {"no-truth", no_argument, 0, OPT_NO_TRUTH}, {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    struct spoor_gen_cascade_opts o = {.records = 100000, .hosts = 4, .workers = 4, .seed = 1, .truth = true,
                                       .top = 10};
    const char *path = NULL;
    uint64_t v;
    optind = 1;
    int c;
    while ((c = cli_getopt("gen", argc, argv, "o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': path = optarg; break;
        case OPT_KIND: break;
        case OPT_RECORDS:
            if (!cli_count(optarg, UINT64_MAX / 2, &v) || !v)
                return bad("--records", optarg, "a positive integer");
            o.records = v;
            break;
        case OPT_HOSTS:
        case OPT_WORKERS:
            if (!cli_count(optarg, 1000, &v) || !v)
                return bad(c == OPT_HOSTS ? "--hosts" : "--workers", optarg, "a number from 1 to 1000");
            *(c == OPT_HOSTS ? &o.hosts : &o.workers) = (unsigned)v;
            break;
        case OPT_SEED:
            if (!cli_count(optarg, UINT64_MAX, &o.seed))
                return bad("--seed", optarg, "a non-negative integer");
            break;
        case OPT_TOP:
            if (!cli_count(optarg, 10000, &v))
                return bad("--top", optarg, "a number from 0 to 10000");
            o.top = (size_t)v;
            break;
        case OPT_FAULTS: o.faults = true; break;
        case OPT_NO_TRUTH: o.truth = false; break;
        case 'h': fputs(help, stdout); return 0;
        default: return 2;
        }
    }
    if (!path || optind < argc) {
        fputs("spoor gen: --kind cascade needs -o FILE and no other arguments\n", stderr);
        return 2;
    }
    o.truth = gen_truth_wanted(path, o.truth);
    char a[4096], b[4096];
    spoor_gen_cascade_truth_path(path, false, a, sizeof a);
    spoor_gen_cascade_truth_path(path, true, b, sizeof b);
    if (output_guard("gen", (const char *[]){path, o.truth ? a : NULL, o.truth ? b : NULL}, 3, NULL, 0, NULL))
        return 2;
    struct spoor_gen_cascade_result r;
    struct spoor_error err = {0};
    if (spoor_gen_cascade_write(path, &o, &r, &err)) {
        fprintf(stderr, "spoor gen: %s\n", err.msg);
        return 1;
    }
    FILE *report = gen_report(path);
    fprintf(report, "%s: %llu lines, %llu records (%llu tasks, %llu transfers), %llu broken lines; %.1f MB\n",
            path, (unsigned long long)r.lines, (unsigned long long)r.records, (unsigned long long)r.tasks,
            (unsigned long long)r.transfers, (unsigned long long)r.bad_lines, r.bytes / 1e6);
    if (o.truth)
        fprintf(report, "ground truth: %s, %s\n", a, b);
    return 0;
}
