/* The generators behind `spoor gen`, part of the library: a synthetic
 * DataCrumbs trace (described here), then the cascade scheduler log and the
 * metric table, each with a ground-truth sidecar.
 *
 * `spoor gen`: a synthetic DataCrumbs trace with a ground-truth sidecar.
 *
 * The trace is in the DataCrumbs Python 2024 dialect (json.dumps spacing, a
 * first line "[", no closing "]", ts in µs, dur in ns, 128-bit integer hashes,
 * HH/FH metadata). Processes with a few threads each run application phases
 * (cat "app") made of system calls (cat "sys"); every system call carries a
 * unique args.call_id and has kernel-function events (cats vfs, ext4,
 * os_cache, block) nested strictly inside its time span on the same pid/tid;
 * kworker threads add background kernel events outside any call.
 *
 * Order: within a thread, events are written in end-time order, as an eBPF
 * writer emits them: a call's nested kernel events come before the call line,
 * and calls, app phases and kernel trees follow each other in time. Threads are
 * interleaved phase by phase, earliest clock first.
 *
 * The same options and seed always give the same bytes; a .gz path gives the
 * gzip of exactly those bytes. The sidecar PATH.truth.json (see docs) lists
 * totals, per (cat, name) counts and duration sums, and for every call the
 * line, name and duration of each kernel event nested in it. */
#ifndef SPOOR_GEN_H
#define SPOOR_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/error.h"

struct spoor_gen_opts {
    uint64_t size_bytes;    /* uncompressed target: stops after the phase that reaches it */
    int procs;              /* application processes; 0 = 4 */
    uint64_t seed;
    bool random_hashes;     /* a fresh file per open, and per event a random 128-bit
                               args.rid and 96-hex-digit args.digest: gzip -6
                               compresses ~3.5:1 instead of real traces' 10-25:1 */
    bool truth;             /* also write PATH.truth.json */
    int gzip_level;         /* for paths ending in .gz: 1..9; 0 = 6 */
};

struct spoor_gen_result {
    uint64_t lines;             /* "[" included */
    uint64_t events;            /* complete ("X") events */
    uint64_t metadata_events;   /* HH and FH */
    uint64_t calls;             /* system calls */
    uint64_t kernel_events;     /* nested in a call */
    uint64_t background_events; /* kernel events outside any call */
    uint64_t bytes;             /* uncompressed */
    uint64_t disk_bytes;        /* as written (compressed for .gz) */
};

/* Writes the trace to path (through a temporary file renamed at the end, so a
 * reader never sees half a trace) and, when opts->truth, its sidecar. Fails
 * with SPOOR_EUSAGE, before writing, when the size cannot fit in the free
 * space of path's filesystem. */
SPOOR_API int spoor_gen_write(const char *path, const struct spoor_gen_opts *opts,
                              struct spoor_gen_result *result, struct spoor_error *err);

/* The sidecar path for a trace: PATH.truth.json. */
SPOOR_API void spoor_gen_truth_path(const char *trace, char *out, size_t cap);

/* `spoor gen --kind cascade`: a synthetic log of the cascade scheduler with
 * known answers for `spoor lifecycle`, in the scheduler's record shapes
 * (docs/cli.md): `task` or `dataset`, action, worker, host, at, mode.
 *
 * Tasks ("retrieve(3, 41):9e3779b9", four kinds) go through taskPlanned,
 * taskEnqueued, taskStarted and taskFinished on a worker ("h1:w2"); about
 * half of them have their output (a dataset of the task's name) transferred
 * to a worker, an eighth to a second one too, in mode local (only
 * transmitPlanned and transmitFinished are logged), remote or redundant (all
 * four transmit stages). The controller logs the Planned stages, the workers
 * the others. Records are written in time order within windows of a few hundred
 * tasks, as JSON lines or, for a path ending in .log, as Python logging lines.
 * Entity names and placement depend only on the entity's index, times on the
 * seed: two seeds give two runs of the same workflow to --compare.
 *
 * Faults on request: a stage record dropped or repeated for ~2 % of entities
 * each, and a broken line every ~1000. The sidecars PATH.truth-tasks.csv and
 * PATH.truth-transmits.csv hold the exact `spoor lifecycle --preset ...
 * --format csv` output, computed from the generator's own records. */
struct spoor_gen_cascade_opts {
    uint64_t records;       /* stop after the window that reaches this many records */
    unsigned hosts, workers; /* workers per host */
    uint64_t seed;
    bool faults;            /* drop and repeat stage records, add broken lines */
    bool truth;             /* write the two sidecars */
    size_t top;             /* slowest entities in the truth (spoor lifecycle --top) */
};

struct spoor_gen_cascade_result {
    uint64_t lines, records, bad_lines, tasks, transfers;
    uint64_t bytes;
};

SPOOR_API int spoor_gen_cascade_write(const char *path, const struct spoor_gen_cascade_opts *opts,
                                      struct spoor_gen_cascade_result *result, struct spoor_error *err);

/* The truth sidecar of one preset: PATH.truth-tasks.csv or PATH.truth-transmits.csv. */
SPOOR_API void spoor_gen_cascade_truth_path(const char *path, bool transmits, char *out, size_t cap);

/* `spoor gen --kind metrics`: a synthetic node-metric table (the input of
 * `spoor series`) with a ground-truth sidecar.
 *
 * Every `interval` seconds from 2024-01-01T00:00:00Z (a Monday) each node
 * writes one row: timestamp, node, cpu_usage_rate, memory_usage, load_1m,
 * disk_io, net_rx. cpu follows a daily curve per node, load_1m rises with cpu
 * (r ~ 0.9), net_rx falls with it, memory_usage and disk_io are independent.
 * Every value is a multiple of 1/256 below 2^36, so any sum of up to 2^16
 * million of them is exact in a double: means are exact whatever the order of
 * summation, and the sidecar states them exactly.
 *
 * The sidecar PATH.truth.json holds the expected `spoor series --format json
 * --group node --by hour,weekday --corr 0.7 --resample 1h
 * --target cpu_usage_rate=0.65` sections (computed with exact integer sums),
 * plus the skipped-line count. */
enum spoor_gen_time { SPOOR_GEN_TIME_ISO, SPOOR_GEN_TIME_ISO_OFFSET, SPOOR_GEN_TIME_S, SPOOR_GEN_TIME_MS,
                      SPOOR_GEN_TIME_US, SPOOR_GEN_TIME_NS };

struct spoor_gen_metrics_opts {
    uint64_t rows;          /* data rows */
    int nodes;              /* 1..10000 */
    int interval_s;         /* seconds between samples of a node */
    uint64_t seed;
    enum spoor_gen_time time_format;
    bool jsonl;             /* JSON lines instead of CSV */
    double missing;         /* share of metric cells left empty (or "n/a" one time in 4) */
    uint64_t bad_lines;     /* malformed lines spread through the table */
    bool truth;
    int gzip_level;         /* for .gz paths; 0 = 6 */
};

struct spoor_gen_metrics_result {
    uint64_t rows, bad_lines, bytes, disk_bytes;
};

SPOOR_API int spoor_gen_metrics_write(const char *path, const struct spoor_gen_metrics_opts *opts,
                                      struct spoor_gen_metrics_result *result, struct spoor_error *err);

/* Parses "iso", "iso-offset", "s", "ms", "us", "ns". */
SPOOR_API bool spoor_gen_time_parse(const char *s, enum spoor_gen_time *out);

#endif
