/* Options shared by every command that reads traces, and the report of what
 * was skipped. A command puts LOAD_LONG_OPTIONS in its getopt_long table,
 * passes unknown codes to load_args_handle(), and prints LOAD_ARGS_HELP. */
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
};

#define LOAD_LONG_OPTIONS                                                  \
    {"threads", required_argument, 0, LOAD_OPT_THREADS},                   \
    {"strict", no_argument, 0, LOAD_OPT_STRICT},                           \
    {"dialect", required_argument, 0, LOAD_OPT_DIALECT},                   \
    {"ts-unit", required_argument, 0, LOAD_OPT_TS_UNIT},                   \
    {"dur-unit", required_argument, 0, LOAD_OPT_DUR_UNIT},                 \
    {"input-format", required_argument, 0, LOAD_OPT_INPUT_FORMAT},         \
    {"no-index", no_argument, 0, LOAD_OPT_NO_INDEX},                       \
    {"no-progress", no_argument, 0, LOAD_OPT_NO_PROGRESS},                 \
    {"ts", required_argument, 0, LOAD_OPT_FIELD_TS},                       \
    {"dur", required_argument, 0, LOAD_OPT_FIELD_DUR},                     \
    {"name", required_argument, 0, LOAD_OPT_FIELD_NAME},                   \
    {"cat", required_argument, 0, LOAD_OPT_FIELD_CAT},                     \
    {"pid", required_argument, 0, LOAD_OPT_FIELD_PID},                     \
    {"tid", required_argument, 0, LOAD_OPT_FIELD_TID},                     \
    {"delimiter", required_argument, 0, LOAD_OPT_DELIMITER},               \
    {"no-cache", no_argument, 0, LOAD_OPT_NO_CACHE},                       \
    {"cache-dir", required_argument, 0, LOAD_OPT_CACHE_DIR}

#define LOAD_ARGS_HELP                                                                          \
    "reading options:\n"                                                                        \
    "  --threads N          worker threads (default: all cores)\n"                              \
    "  --strict             fail on the first skipped line or damaged input\n"                  \
    "  --input-format F     pfw, jsonl, csv or pylog (default: detected)\n"                   \
    "  --dialect D          pfw dialect (default: detected; see docs/formats.md)\n"             \
    "  --ts-unit U          unit of ts in the input: ns, us, ms, s (default: per dialect)\n"    \
    "  --dur-unit U         unit of dur in the input (default: per dialect)\n"                  \
    "  --ts/--dur/--name/--cat/--pid/--tid FIELD\n"                                             \
    "                       generic JSONL/CSV: the field holding that column\n"                 \
    "  --delimiter C        CSV delimiter (default: detected)\n"                                \
    "  --no-index           neither use nor write the gzip checkpoint index\n"                  \
    "  --no-cache           neither use nor write the snapshot sidecar (TRACE.spoor-snap)\n"       \
    "  --cache-dir DIR      keep snapshots in DIR (for traces in read-only directories)\n"      \
    "  --no-progress        no progress bar on stderr\n"

void load_args_init(struct spoor_load_opts *opts);
/* Applies one option; returns 1 if it was a loading option, 0 if not, and -1
 * (after printing a one-line error) if its value is bad. */
int load_args_handle(struct spoor_load_opts *opts, int code, const char *arg, const char *cmd);
/* Prints warnings and skipped-line summaries of every input to stderr. */
void load_args_report(const char *cmd, const struct spoor_load_result *result);

#endif
