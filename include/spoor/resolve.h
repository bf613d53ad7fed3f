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
#ifndef SPOOR_RESOLVE_H
#define SPOOR_RESOLVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/table.h"

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
extern const char *const spoor_field_names[];

/* Parses a column name. For SPOOR_FIELD_ARG, key and key_len receive the args
 * key: the name itself, or what follows "args.". */
enum spoor_field spoor_field_parse(const char *name, size_t len, const char **key, size_t *key_len);

/* Whether an args key must be written as "args.<key>" to stay apart from a
 * fixed or resolved name (or from an args key that itself starts "args."). */
bool spoor_field_arg_needs_prefix(const char *key, size_t len);

/* The known name closest to `name` (a likely typo), among the fixed and
 * resolved names and `extra` (e.g. args keys seen); NULL when none is close. */
const char *spoor_field_suggest(const char *name, const char *const *extra, size_t nextra);

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
bool spoor_view_bind(struct spoor_view *v, enum spoor_field field, const char *key, size_t key_len,
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
const char *spoor_view_text(const struct spoor_view *v, size_t row, char phbuf[2], size_t *len);

struct spoor_resolver;

struct spoor_resolver *spoor_resolver_new(void);
void spoor_resolver_free(struct spoor_resolver *r);
/* Learns the batch's FH and HH lookups, then resolves its rows. The result
 * stays valid until the next call. Batches must come in input order. */
const struct spoor_resolved *spoor_resolver_resolve(struct spoor_resolver *r, const struct spoor_table *batch);
/* The same, files only: every host reads as null. */
const struct spoor_resolved *spoor_resolver_resolve_files(struct spoor_resolver *r, const struct spoor_table *batch);
/* The same for rows[0..n) of the batch only; the other rows read as null. */
const struct spoor_resolved *spoor_resolver_resolve_rows(struct spoor_resolver *r, const struct spoor_table *batch,
                                                         const uint32_t *rows, size_t n);
/* For recipes that want names, not rows (stats counts distinct files): learns
 * the batch's FH and HH definitions as the calls above do (batches in input
 * order), then answers for one hash text at a time: the name (an id in the
 * resolver's pool, 0 = none) that `hash` has for field (SPOOR_FIELD_FILE or
 * SPOOR_FIELD_HOST) in the batch's input `input` (index into its sources) at
 * line, and the lines [from, to) over which that answer holds. */
void spoor_resolver_learn(struct spoor_resolver *r, const struct spoor_table *batch);
uint32_t spoor_resolver_find(const struct spoor_resolver *r, enum spoor_field field, uint32_t input, const char *hash,
                             size_t len, uint64_t line, uint64_t *from, uint64_t *to);
/* A name given by a row itself (fname, hostname), as an id of the same pool. */
uint32_t spoor_resolver_intern(struct spoor_resolver *r, const char *s, size_t len);
const struct spoor_strpool *spoor_resolver_pool(const struct spoor_resolver *r);
/* The args keys file or host (field) is resolved from: the hash, then the
 * name the row may carry itself. */
void spoor_resolver_keys(enum spoor_field field, const char *keys[2]);

struct spoor_snapshot_need;
/* Adds to need the stored columns of t that field is read from (file and
 * host: the keys they are resolved from), each once; need->args must have
 * room for t->ncols names. */
void spoor_field_need(const struct spoor_table *t, enum spoor_field field, const char *key, size_t key_len,
                      struct spoor_snapshot_need *need);

#endif
