/* The shape of a bpftrace printf table: its columns in print order, each with
 * a type and a role. The tables of the MLPerf tracing pipeline (bio, open,
 * vfs_rw) are built in; any other is described by the user with
 * --input-columns NAME:TYPE,... (docs/formats.md, "bpftrace"). */
#ifndef SPOOR_READ_BPFTRACE_TABLE_H
#define SPOOR_READ_BPFTRACE_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/error.h"

enum { BPF_MAX_COLS = 32 };

/* How a field's text is read. */
enum bpf_type {
    BPF_INT,    /* decimal integer */
    BPF_NS,     /* decimal integer of nanoseconds */
    BPF_LAT,    /* nanoseconds printed as a signed 32-bit value: a negative one is
                   recovered with & 0xFFFFFFFF (and counted) */
    BPF_CLOCK,  /* wall clock HH:MM:SS, kept as seconds of the day */
    BPF_STR,    /* one blank-free word */
    BPF_REST,   /* the rest of the line, blanks included (last column only) */
};

/* Where a field goes. */
enum bpf_role {
    BPF_COLUMN,     /* a column of its own name */
    BPF_TS,         /* the start time */
    BPF_TS_END,     /* the end time: ts = it - dur (bpftrace prints when the operation returns) */
    BPF_DUR,
    BPF_PID,
    BPF_TID,
    BPF_NAME,
    BPF_CAT,
    BPF_OP,         /* the name, from an R/W letter: read / write (and kept as a column) */
    BPF_OP_ONLY,    /* the same, not kept as a column */
};

struct bpf_col {
    char name[32];
    enum bpf_type type;
    enum bpf_role role;
};

struct bpf_table {
    char name[16];          /* "bio", "open", "vfs_rw", "custom" */
    const char *cat;        /* the category of every row, or NULL */
    size_t ncols;
    struct bpf_col col[BPF_MAX_COLS];
    bool rest_last;         /* the last column takes the rest of the line and may be empty */
    size_t min_fields;      /* fields a whole row has at least */
};

/* The built-in tables, in the order a line is tried against them (the more
 * specific first: a vfs_rw row also splits as an open row). */
extern const struct bpf_table *const bpf_builtin[];
extern const size_t bpf_nbuiltin;

/* Parses --input-columns ("ts_end:ns,wall:clock,pid:int,comm:str,..."; types
 * int, ns, lat, clock, str, rest; the names ts, ts_end, dur, pid, tid, name and
 * cat fill the fixed columns) into t. Usage errors name the bad item. */
int bpf_table_parse(const char *spec, struct bpf_table *t, struct spoor_error *err);

/* Whether the field text reads as the type. */
bool bpf_field_fits(enum bpf_type type, const char *p, size_t n);

/* Whether a line [p, end) is a whole row of table t. */
bool bpf_line_fits(const struct bpf_table *t, const char *p, const char *end);

/* The built-in table most of the head's lines are rows of (a last line cut by
 * the head aside), or NULL; *rows and *lines say how many fit of how many. */
const struct bpf_table *bpf_table_guess(const char *head, size_t len, size_t *rows, size_t *lines);

#endif
