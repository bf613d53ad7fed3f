/* The loader: runs the chunks of one or more inputs through their reader on a
 * pool of threads and hands the parsed batches to a sink.
 *
 * map() runs on worker threads as soon as a batch is parsed (row line numbers are
 * still chunk-relative there); reduce() runs one batch at a time in input order,
 * with absolute line numbers. Memory stays bounded: at most a few batches per
 * thread are alive at once. Output built in reduce() is the same for any
 * --threads.
 *
 * Unless opts->no_cache, an input with a valid snapshot sidecar is served from
 * it: its batches are views into the mapped snapshot (t->borrowed), with
 * absolute line numbers in map() too. Only spoor_load_table, which holds the
 * whole table, writes snapshots (with args SPOOR_ARGS_ALL). */
#ifndef SPOOR_LOAD_H
#define SPOOR_LOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "spoor/io.h"
#include "spoor/read.h"

struct spoor_snapshot_need;

struct spoor_load_opts {
    struct spoor_read_opts read;
    struct spoor_input_opts input;
    int threads;        /* 0 = number of cores */
    bool progress;      /* progress bar on stderr when it is a terminal */
    bool no_cache;      /* neither read nor write snapshots (see spoor/snapshot.h) */
    const char *cache_dir; /* snapshots go here instead of beside the traces */
    /* spoor_load_table of one input served by its snapshot verifies only the
     * columns this names (the caller then reads no others); NULL: all. */
    void (*columns_read)(void *ctx, const struct spoor_table *t, struct spoor_snapshot_need *need);
    void *columns_read_ctx;
};

/* What happened to one input. */
struct spoor_input_report {
    char *path;
    struct spoor_dialect dialect;   /* state released; name, units, assumed kept */
    uint64_t lines;                 /* lines read, structural ones included */
    uint64_t rows;                  /* rows produced */
    uint64_t bytes;                 /* uncompressed bytes */
    uint64_t disk_bytes;            /* bytes on disk */
    struct spoor_skips skips;       /* absolute line numbers */
    uint64_t redefined;             /* FH/HH/SH definitions that changed a hash's meaning in this input */
    char *warning;                  /* damaged input, read-only index dir, ...; or NULL */
    char *text;                     /* storage of skip reasons read from a snapshot */
};

struct spoor_sink {
    void *ctx;
    /* Optional. worker is 0..threads-1 and indexes per-thread state. */
    int (*map)(void *ctx, int worker, const struct spoor_table *batch);
    /* Optional. In input order; input indexes the paths given to spoor_load. */
    int (*reduce)(void *ctx, size_t input, const struct spoor_table *batch);
};

struct spoor_load_result {
    struct spoor_input_report *inputs;
    size_t ninputs;
    int threads;                    /* threads actually used */
};

/* The number of worker threads spoor_load will use (opts->threads, or the
 * number of cores when 0); sinks size their per-thread state by it. */
int spoor_load_threads(const struct spoor_load_opts *opts);

/* Loads every path. Stops at the first hard error (missing file, --strict skip,
 * sink error) with err set; otherwise returns 0 and fills result. */
int spoor_load(const char *const *paths, size_t npaths, const struct spoor_load_opts *opts,
               const struct spoor_sink *sink, struct spoor_load_result *result,
               struct spoor_error *err);
void spoor_load_result_free(struct spoor_load_result *r);

/* Loads everything into one table (args as opts say). With one input served
 * from its snapshot, the table is a read-only view of the mapped snapshot
 * (t->borrowed; spoor_table_free unmaps it); an input it parses gets its
 * snapshot written when args is SPOOR_ARGS_ALL. */
int spoor_load_table(const char *const *paths, size_t npaths, const struct spoor_load_opts *opts,
                     struct spoor_table **out, struct spoor_load_result *result,
                     struct spoor_error *err);

#endif
