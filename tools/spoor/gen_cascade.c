/* spoor gen --kind cascade: a synthetic cascade scheduler log and the exact
 * `spoor lifecycle` answers for both presets. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_getopt.h"
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

int cmd_gen_cascade(int argc, char **argv)
{
    struct spoor_gen_cascade_opts o = {.records = 100000, .hosts = 4, .workers = 4, .seed = 1, .top = 10};
    const char *path = NULL, *kind = NULL;
    bool no_truth = false;
    const struct cli_option options[] = {
        CLI_OPT_STRING("output", 'o', &path),
        CLI_OPT_STRING("kind", 0, &kind), /* "cascade": how we got here */
        CLI_OPT_COUNT("records", 0, &o.records, 1, (double)(UINT64_MAX / 2), "expected a positive integer"),
        CLI_OPT_COUNT("hosts", 0, &o.hosts, 1, 1000, "expected a number from 1 to 1000"),
        CLI_OPT_COUNT("workers", 0, &o.workers, 1, 1000, "expected a number from 1 to 1000"),
        CLI_OPT_COUNT("seed", 0, &o.seed, 0, (double)UINT64_MAX, "expected a non-negative integer"),
        CLI_OPT_FLAG("faults", 0, &o.faults),
        CLI_OPT_COUNT("top", 0, &o.top, 0, 10000, "expected a number from 0 to 10000"),
        CLI_OPT_FLAG("no-truth", 0, &no_truth),
        CLI_END,
    };
    int code = cli_parse("gen --kind cascade", help, options, NULL, 0, argc, argv);
    if (code >= 0)
        return code;
    if (!path || optind < argc)
        return cli_usage_error("gen --kind cascade", "needs -o FILE and no other arguments");
    o.truth = !no_truth;
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
