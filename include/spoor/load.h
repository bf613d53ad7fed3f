/* Loading traces: inputs, readers, snapshots and the loader.
 *
 * In the order a trace flows: an input (a plain, gzip or zstd file, or a
 * stream) is cut into chunks; a reader parses chunks into table batches; a
 * snapshot sidecar can serve a whole input instead; the loader runs all of it
 * on threads and hands batches to a sink. Each part keeps its comment below. */
#ifndef SPOOR_LOAD_H
#define SPOOR_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/error.h"
#include "spoor/table.h"

/* Bytes from disk: plain files, gzip (ISA-L; single- and multi-member), zstd;
 * from a regular file (read with pread into bounded buffers), or from standard
 * input ("-") or a FIFO, read once in order. An input is read as one or more
 * independent *parts*; each part is read by a *cursor* as a sequence of
 * line-aligned chunks of about 4 MiB.
 *
 * Gzip inputs keep a checkpoint index sidecar (TRACE.spoor-idx) built during the
 * first full sequential scan at no extra pass; with it, later scans split the
 * file into parts that threads inflate independently. Plain files split at
 * newline boundaries. */
enum spoor_input_kind { SPOOR_INPUT_PLAIN, SPOOR_INPUT_GZIP, SPOOR_INPUT_ZSTD };

/* How an input's bytes divide into records (docs/perf-notes.md, "Records"). */
enum spoor_records {
    SPOOR_RECORDS_LINES,        /* one record per line (the default) */
    /* JSON lines whose strings may hold a raw newline: a line cut short
     * inside a string goes on in the next line (spoor_json_line_joins) */
    SPOOR_RECORDS_JSON_LINES,
    /* one JSON document whose array of events (a whole-file `[...]`, or the
     * `"traceEvents"` member of an object) may be one line of any length:
     * read in order, each chunk cut after an event, and rewritten so that
     * every event is one line (see spoor_chunk) */
    SPOOR_RECORDS_JSON_EVENTS,
    /* log records: a line that does not begin with a `YYYY-MM-DD HH:MM:SS`
     * stamp goes on with the record before it (spoor_log_line_joins) */
    SPOOR_RECORDS_LOG_LINES,
};

struct spoor_input_opts {
    bool no_index;      /* neither read nor write the checkpoint index */
    size_t chunk_size;  /* target chunk size in bytes; 0 = 4 MiB */
};

struct spoor_input;
struct spoor_cursor;

/* A damaged stretch of a compressed input whose lines were dropped: a gzip
 * member that failed its CRC or length check, or whose deflate data is
 * corrupt, up to the next member that decodes. `lines` counts the lines
 * decoded from it (and the line pieces either side that it cut). */
struct spoor_drop {
    uint64_t lines;         /* 0: nothing was dropped */
    uint64_t from, to;      /* its bytes on disk, [from, to) */
    const char *why;        /* "checksum mismatch", ... (static) */
};

/* A run of whole lines. `data` points into `buf` (owned by the chunk, reused,
 * grown by the cursor as needed, e.g. for a line longer than chunk_size) or,
 * for a plain file, into `map`, a window of the file mapped for this chunk
 * alone. It stays valid until the chunk is passed to spoor_cursor_next()
 * again. The last line of a chunk ends with '\n' unless it is the last line
 * of the input. Offsets count the bytes delivered: a dropped stretch (see
 * `dropped`) takes no room. */
struct spoor_chunk {
    const char *data;
    size_t len;
    uint64_t offset;        /* uncompressed byte offset of data[0] in the input */
    uint64_t first_line;    /* 1-based line number of data[0]; 0 when not known here */
    struct spoor_drop dropped; /* lines dropped just before data[0] (chunk may be empty) */
    char *buf;              /* owned storage; free with spoor_chunk_release */
    size_t cap;
    void *map;              /* owned mapping, or NULL */
    size_t map_len;
    int map_guard;
};

SPOOR_API void spoor_chunk_release(struct spoor_chunk *chunk);

/* Opens a file, or standard input for "-", and detects the kind from magic
 * bytes. Errors name the file: missing, a directory or device, unreadable, a
 * FIFO with no writer, standard input a second time. An empty file is a valid
 * input with no lines. A regular file is read up to the size it had here:
 * bytes appended later are not read, and a file that shrinks is an error
 * ("shrank from N to M bytes while being read") from the cursor reading it.
 * A stream (standard input, a FIFO) has one part, no index, and one cursor. */
SPOOR_API int spoor_input_open(const char *path, const struct spoor_input_opts *opts,
                               struct spoor_input **out, struct spoor_error *err);
SPOOR_API void spoor_input_close(struct spoor_input *in);
/* True when path names a stream: "-", or a FIFO (checked without opening it). */
SPOOR_API bool spoor_input_is_stream(const char *path);

SPOOR_API enum spoor_input_kind spoor_input_kind(const struct spoor_input *in);
/* Bytes on disk; for a stream, the bytes read from it so far. */
SPOOR_API uint64_t spoor_input_size(const struct spoor_input *in);

/* Splits the input into parts for up to nthreads readers; returns the count.
 * One part means the input must be read sequentially. */
SPOOR_API size_t spoor_input_plan(struct spoor_input *in, int nthreads);

/* Fills chunk with the next lines of the part. Returns 1 when a chunk was
 * filled, 0 at the end of the part, negative with err set on a hard error. */
SPOOR_API int spoor_cursor_next(struct spoor_cursor *c, struct spoor_chunk *chunk, struct spoor_error *err);
/* After the end: a one-line report of a damaged input (truncated or corrupt
 * gzip: "truncated at byte N"), or NULL when the input ended cleanly.
 *
 * A gzip member's lines are delivered only once its CRC and length check out
 * (up to its first 4 MiB of output; see docs/perf-notes.md, "Reading"): those of
 * a member that fails are dropped and reported in the next chunk's `dropped`,
 * and reading goes on at the next member. Damage found in a larger member
 * after some of its lines went out is a hard error. */
SPOOR_API const char *spoor_cursor_warning(const struct spoor_cursor *c);
SPOOR_API void spoor_cursor_close(struct spoor_cursor *c);

/* Positions a cursor at or before 1-based line `line` (for `spoor cat`): the
 * returned cursor's first chunk starts at line *first_line <= line. */
SPOOR_API int spoor_cursor_open_at_line(struct spoor_input *in, uint64_t line, struct spoor_cursor **out,
                                        uint64_t *first_line, struct spoor_error *err);

/* Builds (or rebuilds) the index explicitly: `spoor index`. */
SPOOR_API int spoor_input_build_index(struct spoor_input *in, struct spoor_error *err);
/* The sidecar path for a trace. */
SPOOR_API void spoor_index_path(const char *trace, char *out, size_t cap);

/* The snapshot sidecar (TRACE.spoor-snap): one input's whole event table,
 * written after it was loaded whole, so later loads map it instead of parsing
 * (the loader does both; src/table/snapshot.h has the rest). A reader says
 * which columns it will read (spoor_load_opts.columns_read) so that only those
 * are checked. */
/* The sidecar path of a trace: TRACE.spoor-snap, or with cache_dir a name in
 * it made from a hash of the trace's absolute path. */
SPOOR_API void spoor_snapshot_path(const char *trace, const char *cache_dir, char *out, size_t cap);

/* The fixed columns, in file order: bits of spoor_snapshot_need.fixed. */
enum spoor_snapshot_fixed {
    SPOOR_SNAP_TS, SPOOR_SNAP_DUR, SPOOR_SNAP_PID, SPOOR_SNAP_TID,
    SPOOR_SNAP_LINE, SPOOR_SNAP_NAME, SPOOR_SNAP_CAT, SPOOR_SNAP_PH,
};

/* The columns a reader is about to read. */
struct spoor_snapshot_need {
    unsigned fixed;             /* 1 << spoor_snapshot_fixed */
    bool all_args;
    uint32_t *args;             /* args columns by name (pool id); malloc'ed by whoever fills it */
    size_t nargs;
};

/* Readers turn lines into rows of an event table. One reader per input format
 * (pfw = Chrome trace events one per line in all DFTracer/DataCrumbs dialects,
 * jsonl = JSON lines with user-named fields, csv = CSV with a header, pylog =
 * Python logging lines with a k=v;k=v message).
 *
 * A format first *detects* what it needs from the head of the input (dialect,
 * units, CSV header and types) into a spoor_dialect, then *parses* chunks of
 * whole lines, possibly on several threads at once, each into its own table. */
enum spoor_unit { SPOOR_UNIT_AUTO = 0, SPOOR_UNIT_NS, SPOOR_UNIT_US, SPOOR_UNIT_MS, SPOOR_UNIT_S };

SPOOR_API const char *spoor_unit_name(enum spoor_unit u);
/* Parses "ns", "us", "ms", "s"; returns SPOOR_UNIT_AUTO for anything else. */
SPOOR_API enum spoor_unit spoor_unit_parse(const char *s);
/* Nanoseconds per unit. */
SPOOR_API int64_t spoor_unit_ns(enum spoor_unit u);

enum spoor_args_mode {
    SPOOR_ARGS_ALL,     /* every arg becomes a column */
    SPOOR_ARGS_NONE,    /* fixed columns only (fastest) */
    SPOOR_ARGS_LISTED,  /* only the keys in arg_keys */
};

/* The boot clock on UTC. Some tracers stamp rows with ns since the machine
 * booted (bpftrace's nsecs) and print the local wall clock of the same
 * instant beside it (HH:MM:SS, no date). With --align, the loader first reads
 * every such input's (stamp, wall clock) pairs, fits one offset for the run
 * (src/read/align.c), takes the date from an input whose times carry one
 * (mpstat's banner, a log) or from --align DATE, and the readers add it. */
struct spoor_boot_clock {
    bool known;                 /* boot ns + offset_ns = UTC ns */
    int64_t offset_ns;
    int64_t bound_ns;           /* the fit's error bound: the offset is within +- this */
    char how[224];              /* one line: the fit, its pairs, the date's source */
    char warning[160];          /* when the pairs or the date look implausible, or "" */
};

struct spoor_read_opts {
    const char *format;             /* "pfw", "jsonl", "csv"; NULL = sniff */
    const char *dialect;            /* pfw dialect name; NULL = detect */
    enum spoor_unit ts_unit, dur_unit; /* AUTO = as the dialect says */
    enum spoor_args_mode args;
    const char *const *arg_keys;
    size_t n_arg_keys;
    /* Generic readers: which input field fills each fixed column (NULL = the
     * column's own name if present). Every other field becomes a column. */
    const char *field_ts, *field_dur, *field_name, *field_cat, *field_pid, *field_tid;
    /* The options a command names those fields (in that order) and ts_unit
     * with, for messages; NULL: ts, dur, ... and ts-unit, as in spoor events.
     * E.g. spoor series calls field_ts "time" and ts_unit "time-unit". */
    const char *field_option[6], *ts_unit_option;
    /* Generic readers, for tables that are not events (metric tables): only the
     * fields named above fill fixed columns, and only those (a field merely
     * called "dur" or "pid" stays a dynamic column; a named field is not also
     * kept as a dynamic column of its own name). */
    bool fields_exclusive;
    char csv_delim;                 /* 0 = ',' */
    /* bpftrace reader: the columns of a table it does not know, as
     * "NAME:TYPE,..." (--input-columns; docs/formats.md) */
    const char *input_columns;
    bool strict;                    /* the first skipped line is an error */
    /* Readers of local wall times (mpstat, pmon, Python logging): their zone,
     * "+02:00", "-5h" or a tz database name; NULL = taken as UTC, and said so. */
    const char *utc_offset;
    /* --align: "auto" (the date from the inputs), a date "YYYY-MM-DD", or NULL.
     * spoor_load and spoor_load_table then fit the boot clock first (below). */
    const char *align;
    struct spoor_boot_clock boot;   /* filled by the loader's fit, not by callers */
};

struct spoor_format;
struct spoor_wall_fit;

/* Which clock a format's times are on, for --align. */
enum spoor_clock {
    SPOOR_CLOCK_OTHER = 0,      /* whatever the input says (pfw, CSV, ...) */
    SPOOR_CLOCK_DATED,          /* wall times with a date, on UTC (mpstat, logs): give --align its date */
    SPOOR_CLOCK_BOOT,           /* ns since boot: --align adds the fitted offset */
};

/* What detection decided for one input; read-only while chunks are parsed,
 * except the labels format->reduced may revise. */
struct spoor_dialect {
    const struct spoor_format *format;
    char name[48];                  /* e.g. "dftracer-2023", "csv" */
    enum spoor_unit ts_unit, dur_unit;
    bool pid_tid_swapped;
    enum spoor_records records;     /* how the input divides into records */
    char assumed[256];              /* one line: why these units/orders were assumed */
    char unit_warning[192];         /* one line when the data contradict the units, or "" */
    char clock[256];                /* how its times were put on UTC (--align), or "" */
    void *state;                    /* format-specific, freed by format->release */
};

/* Skipped lines of one chunk: counts by reason and the first few, with their
 * chunk-relative line numbers. Reasons are static strings. */
enum { SPOOR_SKIP_REASONS_MAX = 16, SPOOR_SKIP_SAMPLES = 8 };
struct spoor_skips {
    const char *reason[SPOOR_SKIP_REASONS_MAX];
    uint64_t count[SPOOR_SKIP_REASONS_MAX];
    size_t nreasons;
    uint64_t total;
    struct {
        uint64_t line;              /* relative to the chunk (1-based) until merged */
        uint64_t byte;              /* 1 + the record's byte offset in the input; 0: not known */
        const char *reason;
        char detail[96];            /* e.g. the offending text, cut short */
    } sample[SPOOR_SKIP_SAMPLES];
    size_t nsamples;
};

SPOOR_API void spoor_skips_add(struct spoor_skips *s, uint64_t line, const char *reason, const char *detail,
                               size_t detail_len);
/* n lines from `line` on skipped for one reason: counted n times, sampled once. */
SPOOR_API void spoor_skips_add_lines(struct spoor_skips *s, uint64_t line, uint64_t n, const char *reason,
                                     const char *detail, size_t detail_len);
/* Adds b's counts and samples to a (samples with line offset added). */
SPOOR_API void spoor_skips_merge(struct spoor_skips *a, const struct spoor_skips *b, uint64_t line_offset);
/* Where a skipped record is, for messages: "FILE:LINE", or in a JSON events
 * document (where `line` counts events) "FILE: event N (byte B)". */
SPOOR_API void spoor_skip_where(char *buf, size_t cap, const char *path, enum spoor_records records, uint64_t line,
                                uint64_t byte);
/* A record left unmatched by a join across batches (an E without its B, a
 * completion without its issue): counted in skips, or with strict the error
 * "WHERE: REASON (--strict)". */
SPOOR_API int spoor_skip_or_fail(struct spoor_skips *skips, const char *path, enum spoor_records records, bool strict,
                                 uint64_t line, const char *reason, struct spoor_error *err);

/* One chunk's parse job. */
struct spoor_parse_job {
    const struct spoor_dialect *dialect;
    const struct spoor_read_opts *opts;
    struct spoor_table *out;        /* rows are appended; row.line is chunk-relative, 1-based */
    uint32_t src;                   /* source index to store in each row */
    bool at_file_start;             /* the chunk begins at byte 0 (CSV header, BOM) */
    uint64_t offset;                /* byte offset of the chunk in the input */
    struct spoor_skips *skips;
    uint64_t lines;                 /* out: lines in the chunk, structural ones included */
};

struct spoor_format {
    const char *name;
    /* Confidence 0..100 that head is this format. */
    int (*sniff)(const char *head, size_t len);
    int (*detect)(const char *head, size_t len, const struct spoor_read_opts *opts,
                  struct spoor_dialect *d, struct spoor_error *err);
    /* Parses whole lines. With opts->strict, stops at the first skipped line and
     * returns SPOOR_ESTRICT (the skip is recorded in job->skips). */
    int (*parse)(struct spoor_parse_job *job, const char *buf, size_t len, struct spoor_error *err);
    /* Optional: sees every parsed batch of the input in order, one at a time,
     * and may revise the labels (name, assumed) from the whole input; never
     * anything parse reads. */
    void (*reduced)(struct spoor_dialect *d, const struct spoor_table *batch);
    void (*release)(struct spoor_dialect *d);
    /* Optional: sees every parsed batch of the input in order, one at a time,
     * before any sink does (map() of its batches then waits for it; such a
     * format has no B/E pairing), and fixes rows from what came before: a date
     * carried past midnight, an interval whose start an earlier batch held, a
     * block request's issue joined with its completion. It may rewrite rows,
     * add rows, or drop rows in place; *view is what goes on: the batch
     * itself, or a selection to free with spoor_table_select_free. Records it
     * rejects go to skips (absolute lines; with strict the first is an error).
     * Called once more with batch NULL (and view NULL) at the end of the
     * input. Its state is in d->state, in a part parse never reads. */
    int (*in_order)(struct spoor_dialect *d, struct spoor_table *batch, struct spoor_skips *skips,
                    const char *path, bool strict, struct spoor_table **view, struct spoor_error *err);
    enum spoor_clock clock;
    /* Optional, for SPOOR_CLOCK_BOOT: adds each row's (boot stamp, wall
     * clock) pair of whole lines to the fit (src/read/wall_fit.h). */
    void (*wall_pairs)(const struct spoor_dialect *d, const char *buf, size_t len, struct spoor_wall_fit *fit);
};

SPOOR_API extern const struct spoor_format spoor_format_pfw;
SPOOR_API extern const struct spoor_format spoor_format_jsonl;
SPOOR_API extern const struct spoor_format spoor_format_csv;
/* Python logging lines `asctime:LEVEL:name:pid:k=v;k=v;...` (docs/formats.md). */
SPOOR_API extern const struct spoor_format spoor_format_pylog;
/* bpftrace printf tables (bio, open, vfs_rw, or --input-columns). */
SPOOR_API extern const struct spoor_format spoor_format_bpftrace;
/* `ps aux` rows: one per process. */
SPOOR_API extern const struct spoor_format spoor_format_ps;
/* Block-layer traces: blkparse's default output, ftrace / trace-cmd text and
 * LTTng through babeltrace2's text; each issue joined with its completion
 * (docs/formats.md, "Block-layer traces"). */
SPOOR_API extern const struct spoor_format spoor_format_blkparse;
SPOOR_API extern const struct spoor_format spoor_format_ftrace;
SPOOR_API extern const struct spoor_format spoor_format_lttng;
/* `mpstat -P ALL` output: one row per sample and CPU (docs/formats.md). */
SPOOR_API extern const struct spoor_format spoor_format_mpstat;
/* `nvidia-smi pmon -s um -o DT` output: one row per GPU process per sample. */
SPOOR_API extern const struct spoor_format spoor_format_pmon;
/* Python logging lines `asctime:LEVEL: message`, continuation lines folded in. */
SPOOR_API extern const struct spoor_format spoor_format_pytext;
/* MLPerf `:::MLLOG {json}` lines; start/stop pairs joined into intervals. */
SPOOR_API extern const struct spoor_format spoor_format_mllog;

/* The reader of that --input-format name, or NULL. */
SPOOR_API const struct spoor_format *spoor_format_named(const char *name);
/* The readers' names as "pfw, jsonl, ... or mllog" into buf (cut to size). */
SPOOR_API void spoor_format_names(char *buf, size_t size);
/* Picks the format (opts->format or by sniffing) and detects the dialect. */
SPOOR_API int spoor_detect(const char *head, size_t len, const struct spoor_read_opts *opts,
                           struct spoor_dialect *d, struct spoor_error *err);
SPOOR_API void spoor_dialect_release(struct spoor_dialect *d);

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
struct spoor_snapshot_need;

struct spoor_load_opts {
    struct spoor_read_opts read;
    struct spoor_input_opts input;
    int threads;        /* 0 = number of cores */
    bool progress;      /* progress bar on stderr when it is a terminal */
    bool no_cache;      /* neither read nor write snapshots (see the snapshot part above) */
    const char *cache_dir; /* snapshots go here instead of beside the traces
                              (made beforehand by spoor_mkdirs) */
    /* spoor_load_table of one input served by its snapshot verifies only the
     * columns this names (the caller then reads no others); NULL: all. */
    void (*columns_read)(void *ctx, const struct spoor_table *t, struct spoor_snapshot_need *need);
    void *columns_read_ctx;
};

/* A directory and its missing parents, as `mkdir -p` makes them (a cache
 * directory): SPOOR_OK when path is a directory (made now or before); else err
 * names the part that could not be made and why. */
SPOOR_API int spoor_mkdirs(const char *path, struct spoor_error *err);

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
SPOOR_API int spoor_load_threads(const struct spoor_load_opts *opts);

/* Loads every path. Stops at the first hard error (missing file, --strict skip,
 * sink error) with err set; otherwise returns 0 and fills result. */
SPOOR_API int spoor_load(const char *const *paths, size_t npaths, const struct spoor_load_opts *opts,
                         const struct spoor_sink *sink, struct spoor_load_result *result,
                         struct spoor_error *err);
SPOOR_API void spoor_load_result_free(struct spoor_load_result *r);

/* Loads everything into one table (args as opts say). With one input served
 * from its snapshot, the table is a read-only view of the mapped snapshot
 * (t->borrowed; spoor_table_free unmaps it); an input it parses gets its
 * snapshot written when args is SPOOR_ARGS_ALL. */
SPOOR_API int spoor_load_table(const char *const *paths, size_t npaths, const struct spoor_load_opts *opts,
                               struct spoor_table **out, struct spoor_load_result *result,
                               struct spoor_error *err);

#endif
