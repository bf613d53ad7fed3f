/* The event table (table, its string pool and the column resolver).
 *
 * One header for a table's reader: the string pool its string columns are
 * ids into (first), the table itself, then how columns are named and read by
 * name (the resolver). Each part keeps its own comment below. */
#ifndef SPOOR_TABLE_H
#define SPOOR_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/error.h"

/* String interning: every distinct string gets a small dense id, so columns hold
 * 32-bit ids and equality is an integer compare. Id 0 is always the empty string,
 * which also stands for "absent". Interned bytes never move: pointers returned by
 * spoor_strpool_get stay valid until the pool is freed or cleared. */
struct spoor_strpool;

SPOOR_API struct spoor_strpool *spoor_strpool_new(void);
SPOOR_API void spoor_strpool_free(struct spoor_strpool *pool);
/* Forgets every string but keeps the memory for reuse. */
SPOOR_API void spoor_strpool_clear(struct spoor_strpool *pool);

/* A pool over n strings stored elsewhere (a mapped snapshot), ids 0..n-1 in
 * order: string i is the off[i+1] - off[i] - 1 bytes at bytes + off[i], followed
 * by a NUL, and hash[i] is its (uint32_t)spoor_hash_bytes(). Nothing is copied
 * and the bytes must outlive the pool; strings interned later are stored by the
 * pool as usual. The caller has checked the offsets. */
SPOOR_API struct spoor_strpool *spoor_strpool_over(const char *bytes, const uint32_t *off, const uint32_t *hash,
                                                   size_t n);

SPOOR_API uint32_t spoor_strpool_intern(struct spoor_strpool *pool, const char *s, size_t len);
/* Returns the id of s, or UINT32_MAX when s was never interned. */
SPOOR_API uint32_t spoor_strpool_find(const struct spoor_strpool *pool, const char *s, size_t len);
/* NUL-terminated; *len (if not NULL) receives the length. */
SPOOR_API const char *spoor_strpool_get(const struct spoor_strpool *pool, uint32_t id, size_t *len);
SPOOR_API size_t spoor_strpool_count(const struct spoor_strpool *pool);
/* The (uint32_t)spoor_hash_bytes() of string `id`, kept since it was interned. */
SPOOR_API uint32_t spoor_strpool_hash(const struct spoor_strpool *pool, uint32_t id);

SPOOR_API uint64_t spoor_hash_bytes(const void *p, size_t len);

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
    /* The storage (data, valid) of columns a clear dropped, which the next
     * columns made take over: a reader's batches mostly have the columns of
     * the one before, and fresh allocations of their size cost page faults
     * each time. */
    struct spoor_column *spare;
    size_t nspare, spare_cap;

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

SPOOR_API struct spoor_table *spoor_table_new(void);
/* Frees the table, or for a borrowed view only what the view owns. */
SPOOR_API void spoor_table_free(struct spoor_table *t);
/* Drops all rows, columns and lookups; keeps allocations. With clear_strings the
 * pool is emptied too (for streaming consumers that keep no ids across batches). */
SPOOR_API void spoor_table_clear(struct spoor_table *t, bool clear_strings);

/* Appends a row with every fixed column absent; returns its index. */
SPOOR_API size_t spoor_table_add_row(struct spoor_table *t);
/* Removes the last row (a reader that fails halfway through a line), its
 * dynamic columns' bits cleared. */
SPOOR_API void spoor_table_drop_last_row(struct spoor_table *t);

SPOOR_API uint32_t spoor_table_intern(struct spoor_table *t, const char *s, size_t len);
SPOOR_API const char *spoor_table_str(const struct spoor_table *t, uint32_t id);

/* Dynamic (args) columns, found or created by name. */
SPOOR_API struct spoor_column *spoor_table_column(struct spoor_table *t, uint32_t name_id);
SPOOR_API struct spoor_column *spoor_table_find_column(const struct spoor_table *t, const char *name);
/* Stores v in row `row` of col, promoting the column type if needed
 * (I64 + F64 -> F64; any number + string -> STR). */
SPOOR_API void spoor_table_set(struct spoor_table *t, struct spoor_column *col, size_t row,
                               const struct spoor_value *v);
/* Whether row holds a value in col. Inline: readers and recipes ask it per row. */
static inline bool spoor_column_valid(const struct spoor_column *col, size_t row)
{
    return (col->valid[row / 64] >> (row % 64)) & 1;
}

SPOOR_API uint32_t spoor_table_add_source(struct spoor_table *t, const char *name);

/* Adds the definition key -> value made by input src at line. A definition
 * that repeats the value already in force there is dropped. Definitions of one
 * (src, key) may come in any order of lines. */
SPOOR_API void spoor_lookup_put(struct spoor_lookup *l, uint32_t src, uint32_t key, uint32_t value, uint64_t line);
/* The value of key in force at line of input src (the last definition at or
 * before it), or 0 when there is none. from/to (either may be NULL) receive the
 * lines [from, to) over which that answer holds (to = UINT64_MAX: to the end of
 * what is known), so callers can cache it. */
SPOOR_API uint32_t spoor_lookup_get(const struct spoor_lookup *l, uint32_t src, uint32_t key, uint64_t line,
                                    uint64_t *from, uint64_t *to);
/* Definitions that gave a key of an input a different value than the one in
 * force before them. */
SPOOR_API size_t spoor_lookup_redefinitions(const struct spoor_lookup *l);
/* Adds base to every definition's line (a batch's chunk-relative lines made
 * absolute). */
SPOOR_API void spoor_lookup_shift_lines(struct spoor_lookup *l, uint64_t base);
/* Frees a lookup's storage, leaving it empty. */
SPOOR_API void spoor_lookup_release(struct spoor_lookup *l);

/* Appends every row, column and lookup of src to dst, re-interning strings into
 * dst's pool. Appending batches in input order gives the same rows, columns and
 * strings for any number of threads. */
SPOOR_API void spoor_table_append(struct spoor_table *dst, const struct spoor_table *src);
/* The same for the lookups alone. */
SPOOR_API void spoor_table_append_lookups(struct spoor_table *dst, const struct spoor_table *src);

/* Rows sel[0..n) of t (in that order) as a table of their own, for read-only
 * use while t lives: it shares t's string pool, lookups, sources and column
 * index. Free it with spoor_table_select_free, never spoor_table_free. */
SPOOR_API struct spoor_table *spoor_table_select(const struct spoor_table *t, const uint32_t *sel, size_t n);
SPOOR_API void spoor_table_select_free(struct spoor_table *s);
/* Keeps rows sel[0..n) (increasing) of t, in place, and drops the others;
 * the strings, columns and lookups stay. Not for a borrowed view. */
SPOOR_API void spoor_table_keep_rows(struct spoor_table *t, const uint32_t *sel, size_t n);

/* Naming columns of an event table and reading them batch by batch.
 *
 * A *field* is a column as a user names it in --where or --columns: a fixed
 * column (ts, dur, name, cat, pid, tid, ph, line, source), a resolved one
 * (file, host) or an args column ("size" or "args.size"). A *view* binds a
 * field to one batch: typed pointers straight into the table, no copy.
 *
 * Resolved columns need the lookup tables (FH, HH metadata) of every batch
 * before the current one, so a *resolver* learns them batch by batch in input
 * order (the loader's reduce) and resolves the rows of each batch:
 *   file = FH lookup of the row's `fhash`, else its `fname`, else null;
 *   host = HH lookup of the row's `hhash`, else its `hostname`, else null.
 * A hash resolves through the definition in force at the row's line in the
 * row's own input: never another input's, and none before the input's first
 * definition of it (DFTracer writes it before the first use), so the answer
 * is the same for any chunking and any other inputs. */
enum spoor_field {
    SPOOR_FIELD_TS,
    SPOOR_FIELD_DUR,
    SPOOR_FIELD_NAME,
    SPOOR_FIELD_CAT,
    SPOOR_FIELD_PID,
    SPOOR_FIELD_TID,
    SPOOR_FIELD_PH,
    SPOOR_FIELD_LINE,
    SPOOR_FIELD_SOURCE,
    SPOOR_FIELD_FILE,
    SPOOR_FIELD_HOST,
    SPOOR_FIELD_ARG,        /* an args column, named by its key */
};

/* The fixed and resolved names, in the default output order; NULL-terminated. */
SPOOR_API extern const char *const spoor_field_names[];

/* Parses a column name. For SPOOR_FIELD_ARG, key and key_len receive the args
 * key: the name itself, or what follows "args.". */
SPOOR_API enum spoor_field spoor_field_parse(const char *name, size_t len, const char **key, size_t *key_len);

/* Whether an args key must be written as "args.<key>" to stay apart from a
 * fixed or resolved name (or from an args key that itself starts "args."). */
SPOOR_API bool spoor_field_arg_needs_prefix(const char *key, size_t len);

/* The known name closest to `name` (a likely typo), among the fixed and
 * resolved names and `extra` (e.g. args keys seen); NULL when none is close. */
SPOOR_API const char *spoor_field_suggest(const char *name, const char *const *extra, size_t nextra);

/* Per-row file and host of one batch, as ids into `pool` (0 = null). The pool
 * only grows, so an id means the same string in every batch. */
struct spoor_resolved {
    const struct spoor_strpool *pool;
    const uint32_t *file, *host;
    size_t nrows;
};

enum spoor_view_kind {
    SPOOR_VIEW_NULL,        /* the column is absent from this batch */
    SPOOR_VIEW_I64,         /* null = SPOOR_NULL unless `valid` is set */
    SPOOR_VIEW_F64,         /* `valid` always set */
    SPOOR_VIEW_STR,         /* ids into `pool`; null = id 0 unless `valid` is set */
    SPOOR_VIEW_PH,          /* one byte per row, the phase letter; null = 0 */
    SPOOR_VIEW_SOURCE,      /* uint32 index into `sources`; never null */
};

struct spoor_view {
    enum spoor_view_kind kind;
    union {
        const int64_t *i64;
        const double *f64;
        const uint32_t *str;
        const uint8_t *ph;
        const uint32_t *src;
    };
    const uint64_t *valid;  /* validity bits of an args column, else NULL */
    const struct spoor_strpool *pool;
    bool stable_ids;        /* ids keep their meaning across batches (resolved columns) */
    const char *const *sources;
    size_t nsources;
};

/* Binds a field to a batch. `res` may be NULL (file and host are then null).
 * Returns false (and a NULL view) when an args column is absent from the batch. */
SPOOR_API bool spoor_view_bind(struct spoor_view *v, enum spoor_field field, const char *key, size_t key_len,
                               const struct spoor_table *t, const struct spoor_resolved *res);

static inline bool spoor_view_is_null(const struct spoor_view *v, size_t row)
{
    switch (v->kind) {
    case SPOOR_VIEW_NULL: return true;
    case SPOOR_VIEW_I64: return v->valid ? !((v->valid[row / 64] >> (row % 64)) & 1) : v->i64[row] == SPOOR_NULL;
    case SPOOR_VIEW_F64: return !((v->valid[row / 64] >> (row % 64)) & 1);
    case SPOOR_VIEW_STR: return v->valid ? !((v->valid[row / 64] >> (row % 64)) & 1) : v->str[row] == 0;
    case SPOOR_VIEW_PH: return v->ph[row] == 0;
    case SPOOR_VIEW_SOURCE: return false;
    }
    return true;
}

/* The text of a string-like view's value (STR, PH, SOURCE); len receives its length. */
SPOOR_API const char *spoor_view_text(const struct spoor_view *v, size_t row, char phbuf[2], size_t *len);

struct spoor_resolver;

SPOOR_API struct spoor_resolver *spoor_resolver_new(void);
SPOOR_API void spoor_resolver_free(struct spoor_resolver *r);
/* Learns the batch's FH and HH lookups, then resolves its rows. The result
 * stays valid until the next call. Batches must come in input order. */
SPOOR_API const struct spoor_resolved *spoor_resolver_resolve(struct spoor_resolver *r,
                                                              const struct spoor_table *batch);
/* The same, files only: every host reads as null. */
SPOOR_API const struct spoor_resolved *spoor_resolver_resolve_files(struct spoor_resolver *r,
                                                                    const struct spoor_table *batch);
/* The same for rows[0..n) of the batch only; the other rows read as null. */
SPOOR_API const struct spoor_resolved *spoor_resolver_resolve_rows(struct spoor_resolver *r,
                                                                   const struct spoor_table *batch,
                                                                   const uint32_t *rows, size_t n);
/* For recipes that want names, not rows (stats counts distinct files): learns
 * the batch's FH and HH definitions as the calls above do (batches in input
 * order), then answers for one hash text at a time: the name (an id in the
 * resolver's pool, 0 = none) that `hash` has for field (SPOOR_FIELD_FILE or
 * SPOOR_FIELD_HOST) in the batch's input `input` (index into its sources) at
 * line, and the lines [from, to) over which that answer holds. */
SPOOR_API void spoor_resolver_learn(struct spoor_resolver *r, const struct spoor_table *batch);
SPOOR_API uint32_t spoor_resolver_find(const struct spoor_resolver *r, enum spoor_field field, uint32_t input,
                                       const char *hash, size_t len, uint64_t line, uint64_t *from, uint64_t *to);
/* A name given by a row itself (fname, hostname), as an id of the same pool. */
SPOOR_API uint32_t spoor_resolver_intern(struct spoor_resolver *r, const char *s, size_t len);
SPOOR_API const struct spoor_strpool *spoor_resolver_pool(const struct spoor_resolver *r);
/* The args keys file or host (field) is resolved from: the hash, then the
 * name the row may carry itself. */
SPOOR_API void spoor_resolver_keys(enum spoor_field field, const char *keys[2]);

struct spoor_snapshot_need;
/* Adds to need the stored columns of t that field is read from (file and
 * host: the keys they are resolved from), each once; need->args must have
 * room for t->ncols names. */
SPOOR_API void spoor_field_need(const struct spoor_table *t, enum spoor_field field, const char *key, size_t key_len,
                                struct spoor_snapshot_need *need);

#endif
