/* The event table: one row per trace event, stored column by column.
 *
 * Fixed columns exist for every row. Times are int64 nanoseconds; an absent
 * integer is SPOOR_NULL (INT64_MIN); an absent string is id 0 (""). Strings are
 * ids into the table's own string pool. Every key under `args` becomes a dynamic
 * column on first sight, typed by what it holds, with a validity bitmap.
 * Metadata events (file, host, string, process and thread names) also fill
 * lookup maps from a hash or id (interned) to a name (interned).
 *
 * A table is both the unit a reader fills for one chunk (a batch) and, after
 * spoor_table_append() of batches in input order, the whole trace. */
#ifndef SPOOR_TABLE_H
#define SPOOR_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/strpool.h"

#define SPOOR_NULL INT64_MIN

struct spoor_snapshot;

enum spoor_type { SPOOR_I64, SPOOR_F64, SPOOR_STR };

/* A value as a reader found it; `text` is its source spelling, used when a
 * numeric column has to become a string column. */
struct spoor_value {
    enum spoor_type type;
    bool is_null;
    union {
        int64_t i64;
        double f64;
        uint32_t str;
    };
    const char *text;
    size_t text_len;
};

struct spoor_column {
    uint32_t name;          /* id in the table's pool */
    enum spoor_type type;
    bool typed;             /* false until the first non-null value fixes the type */
    union {
        int64_t *i64;
        double *f64;
        uint32_t *str;
        void *data;
    };
    uint64_t *valid;        /* bit per row; 0 at every row from nrows on, so a new row starts absent */
};

/* Lookup maps filled from metadata events. */
enum spoor_lookup_kind {
    SPOOR_LOOKUP_FILE,      /* FH: file hash -> path */
    SPOOR_LOOKUP_HOST,      /* HH: host hash -> host name */
    SPOOR_LOOKUP_STRING,    /* SH: string hash -> string */
    SPOOR_LOOKUP_PROCESS,   /* process_name / PR: pid -> name */
    SPOOR_LOOKUP_THREAD,    /* thread_name: tid -> name */
    SPOOR_LOOKUP_KINDS
};

/* Definitions belong to the input (src) that wrote them and hold from their
 * line on: DFTracer writes one trace per process, numbering files and hosts
 * with small hashes that collide between processes, and one process may give
 * a hash a new meaning later in its file. So a key means, for a row, the last
 * definition of that key in the row's own input at or before the row's line,
 * and nothing before the first one. */
struct spoor_lookup {
    uint32_t *keys, *values; /* parallel arrays of pool ids, in order of definition */
    uint32_t *srcs;          /* the input (index into sources) that defined it */
    uint64_t *lines;         /* its line in that input (0: before every line) */
    uint32_t *older;         /* the definition of (src, key) it replaced: position + 1, 0 = none */
    size_t n, cap;
    uint32_t *slots;         /* hash index over (src, key): position + 1 of the latest definition */
    size_t nslots, nkeys;    /* nkeys: distinct (src, key) */
};

struct spoor_table {
    size_t nrows, cap;
    int64_t *ts, *dur;       /* ns */
    uint32_t *name, *cat;
    int64_t *pid, *tid;
    uint8_t *ph;             /* phase letter: 'X', 'B', 'E', 'i', 'C', 'M', ... */
    uint32_t *src;           /* index into sources */
    uint64_t *line;          /* 1-based line in the source file */

    struct spoor_column *cols;
    size_t ncols, cols_cap;
    uint32_t *col_by_name;   /* pool id -> column index + 1 (0 = none) */
    size_t col_by_name_cap;

    struct spoor_lookup lookups[SPOOR_LOOKUP_KINDS];

    char **sources;          /* source file names */
    size_t nsources;

    struct spoor_strpool *pool;

    /* A read-only view (a batch of a mapped snapshot): the fixed columns, the
     * column data and validity, the lookups, the sources and the pool belong to
     * the snapshot, which outlives the view; the view owns only itself, `cols`
     * and `col_by_name`. Only spoor_table_free may change it. */
    bool borrowed;
    /* A view that owns its snapshot (spoor_snapshot_table): closed when the
     * view is freed. */
    struct spoor_snapshot *snapshot;
};

struct spoor_table *spoor_table_new(void);
/* Frees the table, or for a borrowed view only what the view owns. */
void spoor_table_free(struct spoor_table *t);
/* Drops all rows, columns and lookups; keeps allocations. With clear_strings the
 * pool is emptied too (for streaming consumers that keep no ids across batches). */
void spoor_table_clear(struct spoor_table *t, bool clear_strings);

/* Appends a row with every fixed column absent; returns its index. */
size_t spoor_table_add_row(struct spoor_table *t);
/* Removes the last row (a reader that fails halfway through a line), its
 * dynamic columns' bits cleared. */
void spoor_table_drop_last_row(struct spoor_table *t);

uint32_t spoor_table_intern(struct spoor_table *t, const char *s, size_t len);
const char *spoor_table_str(const struct spoor_table *t, uint32_t id);

/* Dynamic (args) columns, found or created by name. */
struct spoor_column *spoor_table_column(struct spoor_table *t, uint32_t name_id);
struct spoor_column *spoor_table_find_column(const struct spoor_table *t, const char *name);
/* Stores v in row `row` of col, promoting the column type if needed
 * (I64 + F64 -> F64; any number + string -> STR). */
void spoor_table_set(struct spoor_table *t, struct spoor_column *col, size_t row,
                     const struct spoor_value *v);
/* Whether row holds a value in col. Inline: readers and recipes ask it per row. */
static inline bool spoor_column_valid(const struct spoor_column *col, size_t row)
{
    return (col->valid[row / 64] >> (row % 64)) & 1;
}

uint32_t spoor_table_add_source(struct spoor_table *t, const char *name);

/* Adds the definition key -> value made by input src at line. A definition
 * that repeats the value already in force there is dropped. Definitions of one
 * (src, key) may come in any order of lines. */
void spoor_lookup_put(struct spoor_lookup *l, uint32_t src, uint32_t key, uint32_t value, uint64_t line);
/* The value of key in force at line of input src (the last definition at or
 * before it), or 0 when there is none. from/to (either may be NULL) receive the
 * lines [from, to) over which that answer holds (to = UINT64_MAX: to the end of
 * what is known), so callers can cache it. */
uint32_t spoor_lookup_get(const struct spoor_lookup *l, uint32_t src, uint32_t key, uint64_t line, uint64_t *from,
                          uint64_t *to);
/* Definitions that gave a key of an input a different value than the one in
 * force before them. */
size_t spoor_lookup_redefinitions(const struct spoor_lookup *l);
/* Adds base to every definition's line (a batch's chunk-relative lines made
 * absolute). */
void spoor_lookup_shift_lines(struct spoor_lookup *l, uint64_t base);
/* Frees a lookup's storage, leaving it empty. */
void spoor_lookup_release(struct spoor_lookup *l);

/* Appends every row, column and lookup of src to dst, re-interning strings into
 * dst's pool. Appending batches in input order gives the same rows, columns and
 * strings for any number of threads. */
void spoor_table_append(struct spoor_table *dst, const struct spoor_table *src);
/* The same for the lookups alone. */
void spoor_table_append_lookups(struct spoor_table *dst, const struct spoor_table *src);

/* Rows sel[0..n) of t (in that order) as a table of their own, for read-only
 * use while t lives: it shares t's string pool, lookups, sources and column
 * index. Free it with spoor_table_select_free, never spoor_table_free. */
struct spoor_table *spoor_table_select(const struct spoor_table *t, const uint32_t *sel, size_t n);
void spoor_table_select_free(struct spoor_table *s);

#endif
