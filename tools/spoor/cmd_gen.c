/* spoor --help: write a synthetic trace, metric table or scheduler log with its ground truth */
/* spoor gen: writes a synthetic DataCrumbs trace and its ground-truth sidecar. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_getopt.h"
#include "gen_kinds.h"
#include "output_guard.h"
#include "spoor/write.h"
#include "spoor/gen.h"

static const char gen_help[] =
    "usage: spoor gen -o FILE [options]\n"
    "\n"
    "Writes a synthetic trace in the DataCrumbs 2024 dialect (.pfw; gzip when FILE\n"
    "ends in .gz): processes and threads running application phases, system calls\n"
    "with kernel events nested inside them, and background kernel work. The same\n"
    "options and seed always give the same bytes. Also writes FILE.truth.json, the\n"
    "ground truth: totals, per (cat, name) counts and duration sums, and the kernel\n"
    "events nested in every call (by line).\n"
    "\n"
    "options:\n"
    "  -o, --output FILE    the trace to write (required)\n"
    "  --size-mb N          stop once the uncompressed trace reaches N MB (10^6 bytes;\n"
    "                       decimals allowed; default 64)\n"
    "  --procs N            application processes, 3 threads each (default 4)\n"
    "  --seed N             random seed (default 1)\n"
    "  --random-hashes      a fresh file per open, and per event a random 128-bit\n"
    "                       args.rid and a random 96-hex-digit args.digest, so gzip\n"
    "                       compresses ~3.5:1 (real traces: 10-25:1); stresses inflate\n"
    "  --level N            gzip level 1-9 for .gz output (default 6)\n"
    "  --no-truth           do not write FILE.truth.json\n"
    "  --kind trace         this trace (the default)\n"
    "  --kind metrics       a node-metric table instead (see --kind metrics --help)\n"
    "  --kind cascade       a scheduler log instead (see --kind cascade --help)\n"
    "  -h, --help           this help\n";

bool gen_truth_wanted(const char *path, bool asked)
{
    return asked && strcmp(path, "-") && !spoor_path_is_special(path);
}

FILE *gen_report(const char *path)
{
    return strcmp(path, "-") ? stdout : stderr;
}

int cmd_gen(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) { /* --kind K: another generator, with its own options */
        const char *kind = !strncmp(argv[i], "--kind=", 7) ? argv[i] + 7
                           : !strcmp(argv[i], "--kind") && i + 1 < argc ? argv[i + 1]
                                                                         : NULL;
        if (kind && !strcmp(kind, "metrics"))
            return cmd_gen_metrics(argc, argv);
        if (kind && !strcmp(kind, "cascade"))
            return cmd_gen_cascade(argc, argv);
        if (kind && strcmp(kind, "trace"))
            return cli_usage_error("gen", "unknown kind '%s': expected trace (the default), metrics or cascade", kind);
    }
    struct spoor_gen_opts opts = {.size_bytes = 64 * 1000000ull, .procs = 4, .seed = 1, .truth = true};
    const char *path = NULL, *kind = NULL;
    double mb = 64;
    bool no_truth = false;
    const struct cli_option options[] = {
        CLI_OPT_STRING("output", 'o', &path),
        CLI_OPT_REAL("size-mb", 0, &mb, 1e-6, 1e9, "expected a positive number of MB"),
        CLI_OPT_COUNT("procs", 0, &opts.procs, 1, 4096, "expected a number from 1 to 4096"),
        CLI_OPT_COUNT("seed", 0, &opts.seed, 0, (double)UINT64_MAX, "expected a non-negative integer"),
        CLI_OPT_FLAG("random-hashes", 0, &opts.random_hashes),
        CLI_OPT_COUNT("level", 0, &opts.gzip_level, 1, 9, "expected a gzip level from 1 to 9"),
        CLI_OPT_FLAG("no-truth", 0, &no_truth),
        CLI_OPT_STRING("kind", 0, &kind), /* trace: this one */
        CLI_END,
    };
    int code = cli_parse("gen", gen_help, options, NULL, 0, argc, argv);
    if (code >= 0)
        return code;
    if (optind < argc)
        return cli_usage_error("gen", "unexpected argument '%s'", argv[optind]);
    if (!path)
        return cli_usage_error("gen", "-o FILE is required");
    opts.size_bytes = (uint64_t)(mb * 1e6); /* 1e-6 MB, the least, is one byte */
    opts.truth = !no_truth;
    opts.truth = gen_truth_wanted(path, opts.truth);
    char truth[4096];
    spoor_gen_truth_path(path, truth, sizeof truth);
    if (output_guard("gen", (const char *[]){path, opts.truth ? truth : NULL}, 2, NULL, 0, NULL))
        return 2;

    struct spoor_gen_result r;
    struct spoor_error err = {0};
    int rc = spoor_gen_write(path, &opts, &r, &err);
    if (rc) {
        fprintf(stderr, "spoor gen: %s\n", err.msg);
        return rc == SPOOR_EUSAGE ? 2 : 1; /* a size beyond the free space is known before writing */
    }
    FILE *report = gen_report(path);
    fprintf(report, "%s: %llu lines, %llu events (%llu calls, %llu nested kernel, %llu background), "
           "%llu metadata; %.1f MB",
           path, (unsigned long long)r.lines, (unsigned long long)r.events, (unsigned long long)r.calls,
           (unsigned long long)r.kernel_events, (unsigned long long)r.background_events,
           (unsigned long long)r.metadata_events, r.bytes / 1e6);
    if (r.disk_bytes != r.bytes)
        fprintf(report, ", %.1f MB on disk (%.2f:1)", r.disk_bytes / 1e6, (double)r.bytes / (double)r.disk_bytes);
    fputc('\n', report);
    if (opts.truth)
        fprintf(report, "ground truth: %s\n", truth);
    return 0;
}
