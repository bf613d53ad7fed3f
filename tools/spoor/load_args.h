/* Options shared by every command that reads traces, and the report of what
 * was skipped. A command names the groups of options that act on it to
 * cli_parse() (cli_getopt.h), which passes their codes to load_args_handle(),
 * and prints the same groups' help. */
#ifndef SPOOR_LOAD_ARGS_H
#define SPOOR_LOAD_ARGS_H

#include <getopt.h>

#include "spoor/load.h"

enum {
    LOAD_OPT_THREADS = 1000,
    LOAD_OPT_STRICT,
    LOAD_OPT_DIALECT,
    LOAD_OPT_TS_UNIT,
    LOAD_OPT_DUR_UNIT,
    LOAD_OPT_INPUT_FORMAT,
    LOAD_OPT_NO_INDEX,
    LOAD_OPT_NO_PROGRESS,
    LOAD_OPT_FIELD_TS,
    LOAD_OPT_FIELD_DUR,
    LOAD_OPT_FIELD_NAME,
    LOAD_OPT_FIELD_CAT,
    LOAD_OPT_FIELD_PID,
    LOAD_OPT_FIELD_TID,
    LOAD_OPT_DELIMITER,
    LOAD_OPT_NO_CACHE,
    LOAD_OPT_CACHE_DIR,
    LOAD_OPT_INPUT_COLUMNS,
    LOAD_OPT_UTC_OFFSET,
    LOAD_OPT_ALIGN,
};

/* The reading options come in groups, and a command takes (and lists in its
 * help) only the groups that act on it:
 *   BASE      every reader: --threads --strict --input-format --delimiter --no-index
 *   EVENTS    event traces: --dialect --ts-unit --dur-unit, the field options,
 *             --utc-offset (the zone of text tools' local times) and --align
 *   CACHE     readers that keep snapshots: --no-cache --cache-dir
 *   PROGRESS  readers that draw a progress bar: --no-progress
 * LOAD_GROUP_ALL and LOAD_ARGS_HELP are all four, for the trace commands. */
enum {
    LOAD_GROUP_BASE = 1,
    LOAD_GROUP_EVENTS = 2,
    LOAD_GROUP_CACHE = 4,
    LOAD_GROUP_PROGRESS = 8,
    LOAD_GROUP_ALL = 15,
};
/* Writes the getopt_long rows of the groups to out (room for all of them);
 * returns how many. */
size_t load_args_options(unsigned groups, struct option *out);

/* The help of each group; LOAD_HELP_THREADS apart, for a command that
 * describes --threads among its own options. */
#define LOAD_HELP_HEAD "reading options:\n"
#define LOAD_HELP_THREADS "  --threads N          worker threads (default: all cores)\n"
#define LOAD_HELP_BASE                                                                          \
    "  --strict             fail on the first skipped line or damaged input\n"                  \
    "  --input-format F     pfw, jsonl, csv, pylog, bpftrace, ps, blkparse, ftrace,\n"     \
    "                       lttng, mpstat, pmon, pytext or mllog (default: detected)\n"    \
    "  --delimiter C        CSV delimiter (default: detected)\n"                                \
    "  --no-index           neither use nor write the gzip checkpoint index\n"
#define LOAD_HELP_EVENTS                                                                        \
    "  --dialect D          pfw dialect (default: detected; see docs/formats.md)\n"             \
    "  --ts-unit U          unit of ts in the input: ns, us, ms, s (default: per dialect)\n"    \
    "  --dur-unit U         unit of dur in the input (default: per dialect)\n"                  \
    "  --ts/--dur/--name/--cat/--pid/--tid FIELD\n"                                             \
    "                       generic JSONL/CSV: the field holding that column\n"                \
    "  --input-columns LIST another bpftrace printf table: NAME:TYPE,... (int ns lat\n"       \
    "                       clock str rest; ts ts_end dur pid tid name cat are fixed)\n"      \
    "  --utc-offset Z       zone of local wall times (mpstat, pmon, pytext): +02:00, -5h\n"     \
    "                       or a tz zone such as Europe/Berlin (default: UTC, said so)\n"     \
    "  --align auto|DATE    put bpftrace's boot-clock ns on UTC: fitted on its wall-clock\n"   \
    "                       column, the date from mpstat or a log (or DATE, YYYY-MM-DD)\n"
#define LOAD_HELP_CACHE                                                                         \
    "  --no-cache           neither use nor write the snapshot sidecar (TRACE.spoor-snap)\n"    \
    "  --cache-dir DIR      keep snapshots in DIR, created if need be (for traces in\n"         \
    "                       read-only directories)\n"
#define LOAD_HELP_PROGRESS "  --no-progress        no progress bar on stderr\n"
#define LOAD_ARGS_HELP \
    LOAD_HELP_HEAD LOAD_HELP_THREADS LOAD_HELP_BASE LOAD_HELP_EVENTS LOAD_HELP_CACHE LOAD_HELP_PROGRESS

void load_args_init(struct spoor_load_opts *opts);
/* Applies one option; returns 1 if it was a loading option, 0 if not, and -1
 * (after printing a one-line error) if its value is bad. */
int load_args_handle(struct spoor_load_opts *opts, int code, const char *arg, const char *cmd);
/* Prints warnings and skipped-line summaries of every input to stderr. */
void load_args_report(const char *cmd, const struct spoor_load_result *result);

#endif
