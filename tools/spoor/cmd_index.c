/* spoor --help: build the checkpoint index of gzip traces for fast random access */
/* spoor index: builds the checkpoint index sidecar of gzip traces. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_getopt.h"
#include "spoor/load.h"

static const char index_help[] =
    "usage: spoor index TRACE...\n"
    "\n"
    "Builds (or rebuilds) TRACE.spoor-idx, the checkpoint index of a gzip trace: a\n"
    "snapshot of the decoder every ~4 MiB of output, with the line number there.\n"
    "With it, reads split the file across threads and 'spoor cat' starts near the\n"
    "line it wants. The first full read of a trace builds the index too; it is\n"
    "rebuilt whenever the trace changes. Prints one line per trace: checkpoints,\n"
    "index size and its share of the trace's size. Plain and zstd traces need none.\n"
    "\n"
    "options:\n"
    "  -h, --help    this help\n";

static void human(char *out, size_t cap, double bytes)
{
    const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024 && u < 4) {
        bytes /= 1024;
        u++;
    }
    snprintf(out, cap, u ? "%.1f %s" : "%.0f %s", bytes, units[u]);
}

/* Builds one trace's index and reports it; 0, or 1 after printing an error. */
static int index_one(const char *path)
{
    struct spoor_input *in;
    struct spoor_error err;
    if (spoor_input_open(path, NULL, &in, &err) != SPOOR_OK) {
        fprintf(stderr, "spoor index: %s\n", err.msg);
        return 1;
    }
    enum spoor_input_kind kind = spoor_input_kind(in);
    if (kind != SPOOR_INPUT_GZIP) {
        printf("%s: %s; no index needed\n", path,
               kind == SPOOR_INPUT_ZSTD ? "zstd-compressed, read in one pass" : "not compressed");
        spoor_input_close(in);
        return 0;
    }
    if (spoor_input_build_index(in, &err) != SPOOR_OK) {
        fprintf(stderr, "spoor index: %s\n", err.msg);
        spoor_input_close(in);
        return 1;
    }
    size_t checkpoints = spoor_input_plan(in, 1) - 1;
    char sidecar[4200];
    spoor_index_path(path, sidecar, sizeof sidecar);
    struct stat st;
    double size = stat(sidecar, &st) == 0 ? (double)st.st_size : 0;
    double trace = (double)spoor_input_size(in);
    char index_h[32], trace_h[32];
    human(index_h, sizeof index_h, size);
    human(trace_h, sizeof trace_h, trace);
    printf("%s: %zu checkpoint%s, index %s (%.2f%% of %s)\n", path, checkpoints,
           checkpoints == 1 ? "" : "s", index_h, trace > 0 ? 100.0 * size / trace : 0.0, trace_h);
    spoor_input_close(in);
    return 0;
}

int cmd_index(int argc, char **argv)
{
    static const struct cli_option no_options[] = {CLI_END};
    int code = cli_parse("index", index_help, no_options, NULL, 0, argc, argv);
    if (code >= 0)
        return code;
    if (optind == argc)
        return cli_usage_error("index", "no trace given");
    int status = 0;
    for (int i = optind; i < argc; i++)
        status |= index_one(argv[i]);
    return status;
}
