/* Readers turn lines into rows of an event table. One reader per input format
 * (pfw = Chrome trace events one per line in all DFTracer/DataCrumbs dialects,
 * jsonl = JSON lines with user-named fields, csv = CSV with a header, pylog =
 * Python logging lines with a k=v;k=v message).
 *
 * A format first *detects* what it needs from the head of the input (dialect,
 * units, CSV header and types) into a spoor_dialect, then *parses* chunks of
 * whole lines, possibly on several threads at once, each into its own table. */
#ifndef SPOOR_READ_H
#define SPOOR_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/error.h"
#include "spoor/io.h"
#include "spoor/table.h"

enum spoor_unit { SPOOR_UNIT_AUTO = 0, SPOOR_UNIT_NS, SPOOR_UNIT_US, SPOOR_UNIT_MS, SPOOR_UNIT_S };

const char *spoor_unit_name(enum spoor_unit u);
/* Parses "ns", "us", "ms", "s"; returns SPOOR_UNIT_AUTO for anything else. */
enum spoor_unit spoor_unit_parse(const char *s);
/* Nanoseconds per unit. */
int64_t spoor_unit_ns(enum spoor_unit u);

enum spoor_args_mode {
    SPOOR_ARGS_ALL,     /* every arg becomes a column */
    SPOOR_ARGS_NONE,    /* fixed columns only (fastest) */
    SPOOR_ARGS_LISTED,  /* only the keys in arg_keys */
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
    bool strict;                    /* the first skipped line is an error */
};

struct spoor_format;

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

void spoor_skips_add(struct spoor_skips *s, uint64_t line, const char *reason, const char *detail,
                     size_t detail_len);
/* n lines from `line` on skipped for one reason: counted n times, sampled once. */
void spoor_skips_add_lines(struct spoor_skips *s, uint64_t line, uint64_t n, const char *reason,
                           const char *detail, size_t detail_len);
/* Adds b's counts and samples to a (samples with line offset added). */
void spoor_skips_merge(struct spoor_skips *a, const struct spoor_skips *b, uint64_t line_offset);
/* Where a skipped record is, for messages: "FILE:LINE", or in a JSON events
 * document (where `line` counts events) "FILE: event N (byte B)". */
void spoor_skip_where(char *buf, size_t cap, const char *path, enum spoor_records records, uint64_t line,
                      uint64_t byte);

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
};

extern const struct spoor_format spoor_format_pfw;
extern const struct spoor_format spoor_format_jsonl;
extern const struct spoor_format spoor_format_csv;
/* Python logging lines `asctime:LEVEL:name:pid:k=v;k=v;...` (docs/formats.md). */
extern const struct spoor_format spoor_format_pylog;

/* Picks the format (opts->format or by sniffing) and detects the dialect. */
int spoor_detect(const char *head, size_t len, const struct spoor_read_opts *opts,
                 struct spoor_dialect *d, struct spoor_error *err);
void spoor_dialect_release(struct spoor_dialect *d);

#endif
