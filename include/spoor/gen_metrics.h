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
#ifndef SPOOR_GEN_METRICS_H
#define SPOOR_GEN_METRICS_H

#include <stdbool.h>
#include <stdint.h>

#include "spoor/error.h"

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

int spoor_gen_metrics_write(const char *path, const struct spoor_gen_metrics_opts *opts,
                            struct spoor_gen_metrics_result *result, struct spoor_error *err);

/* Parses "iso", "iso-offset", "s", "ms", "us", "ns". */
bool spoor_gen_time_parse(const char *s, enum spoor_gen_time *out);

#endif
