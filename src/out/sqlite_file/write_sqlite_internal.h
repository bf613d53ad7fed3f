/* Inside the SQLite exporter (write_sqlite.c): values as SQLite would store
 * them (write_sqlite_value.c), rows encoded column by column
 * (write_sqlite_encode.c), batches encoded on the load's workers
 * (write_sqlite_prepare.c), the indexes (write_sqlite_index.c) and the
 * lookups and meta (write_sqlite_lookups.c). */
#ifndef SPOOR_SQLITE_FILE_WRITE_SQLITE_INTERNAL_H
#define SPOOR_SQLITE_FILE_WRITE_SQLITE_INTERNAL_H

#include "out/sqlite_file/sqlite_file.h"
#include "out/write_internal.h"
#include "spoor/load.h"
#include "spoor/table.h"

#include <pthread.h>

/* A column's affinity, from its declared type: what SQLite converts values to. */
enum sqlw_affinity { SQLW_BLOB, SQLW_INTEGER, SQLW_REAL, SQLW_TEXT };

enum sqlw_type { SQLW_NULL, SQLW_INT, SQLW_FLOAT, SQLW_TEXT_VALUE };

/* One value as stored; text points into the converter's scratch or a pool. */
struct sqlw_value {
    enum sqlw_type type;
    int64_t i;
    double r;
    const char *s;
    size_t len;
};

/* Whether each string id of a pool is valid UTF-8 is learned once. */
enum { UTF8_UNKNOWN, UTF8_VALID, UTF8_INVALID };

/* The value at row of v as SQLite stores it in a column of affinity aff:
 * text repaired to valid UTF-8, numbers converted as INSERT would. known
 * caches the UTF-8 state of the view's string ids, by id (NULL: no cache). */
void sqlw_convert(struct wbuf *scratch, enum sqlw_affinity aff, const struct spoor_view *v, size_t row,
                  uint8_t *known, struct sqlw_value *out);
static inline void sqlw_record_value(struct sqlf_record *rec, const struct sqlw_value *v)
{
    switch (v->type) {
    case SQLW_NULL: sqlf_record_null(rec); break;
    case SQLW_INT: sqlf_record_int(rec, v->i); break;
    case SQLW_FLOAT: sqlf_record_real(rec, v->r); break;
    case SQLW_TEXT_VALUE: sqlf_record_text(rec, v->s, v->len); break;
    }
}
/* s with every invalid byte replaced by U+FFFD, into b (cleared first). */
void sqlw_utf8_repair(struct wbuf *b, const char *s, size_t len);
/* Appends s between quotes, quotes in it doubled: an SQL identifier ('"') or
 * string literal ('\''); NUL and invalid UTF-8 become U+FFFD. */
void sqlw_put_quoted(struct wbuf *b, const char *s, size_t len, char quote);

/* Where encoding a row puts its index keys (NULL: that index is not built). */
struct sqlw_row_keys {
    int64_t *ts, *pid, *tid;
    uint32_t *name;
};

/* The keys of the three indexes, one entry per row in rowid order. */
struct sqlw_keys {
    bool ts, name, pid_tid;     /* which indexes the table's columns allow */
    int64_t *ts_of, *pid_of, *tid_of;
    uint32_t *name_of;          /* ids in names; 0 = NULL */
    struct spoor_strpool *names;
    size_t n, cap;
};

void sqlw_keys_init(struct sqlw_keys *k, bool ts, bool name, bool pid_tid);
void sqlw_keys_free(struct sqlw_keys *k);
void sqlw_keys_grow(struct sqlw_keys *k);
/* Where the next row's keys go (k->n is then counted). Inline: every row. */
static inline struct sqlw_row_keys sqlw_keys_next(struct sqlw_keys *k)
{
    if (k->n == k->cap)
        sqlw_keys_grow(k);
    size_t i = k->n++;
    return (struct sqlw_row_keys){
        .ts = k->ts ? &k->ts_of[i] : NULL,
        .pid = k->pid_tid ? &k->pid_of[i] : NULL,
        .tid = k->pid_tid ? &k->tid_of[i] : NULL,
        .name = k->name ? &k->name_of[i] : NULL,
    };
}
/* Sorts each index's keys and writes its b-tree; objects receive the
 * CREATE INDEX statements and roots (at most 3). */
size_t sqlw_keys_write(struct sqlw_keys *k, struct sqlf_file *f, struct sqlf_object *objects);
/* The CREATE INDEX statements of those indexes (at most 3); returns how many. */
size_t sqlw_keys_statements(const struct sqlw_keys *k, const char **sql);

/* How a column of a batch is encoded, chosen once per batch
 * (sqlw_encoder_plan): the usual cases go straight into the record. */
enum sqlw_how { SQLW_SKIP, SQLW_ABSENT, SQLW_AS_INT, SQLW_AS_TEXT, SQLW_AS_LETTER, SQLW_CONVERT };
enum sqlw_key { SQLW_NO_KEY, SQLW_KEY_TS, SQLW_KEY_PID, SQLW_KEY_TID, SQLW_KEY_NAME };

struct sqlw_op {
    uint8_t how, key;
};

/* What rows are encoded with: the views of one batch's columns and their
 * affinities. One per thread: the writer's own (input order) and one per
 * load worker. */
struct sqlw_encoder {
    char apart[64];                 /* no cache line shared with the data of another thread */
    struct spoor_view *views;
    enum sqlw_affinity *affinity;
    struct sqlw_op *ops;
    size_t n, cap;                  /* the table's columns when the batch started */
    bool usual;                     /* the default columns planned the usual way (encode.c) */
    uint8_t *batch_utf8;            /* UTF-8 state of the batch's string ids */
    size_t batch_utf8_cap;
    uint32_t *name_key_of_id;       /* the batch's name ids -> name index key + 1; 0 = not yet */
    size_t name_key_cap;
    struct wbuf scratch;
    struct sqlf_record rec;
    char apart_end[64];
};

struct sqlw_prepared;

struct spoor_sqlite_writer {
    char *path, *name;          /* the file written; the user's name for it, in errors */
    struct sqlf_file file;
    bool file_open;
    struct sqlf_table events;
    struct sqlw_keys keys;
    struct sqlw_lookups *lookups;
    uint64_t rowid;

    struct out_col *cols;           /* the explicit list, or the fixed default columns */
    size_t ncols;
    bool defaults;                  /* args columns follow, added as they appear */
    size_t ncolumns;                /* in the table: cols, then args columns */
    enum sqlw_affinity *affinity;   /* of each table column */
    size_t affinity_cap;
    size_t generated_col;           /* source as a generated column (only_source), or SIZE_MAX */
    struct wbuf create;             /* CREATE TABLE events(..., without the ')' */
    size_t ts_col, name_col, pid_col, tid_col;  /* SIZE_MAX: absent */
    /* Columns [deferred_from, deferred_to) hold line, file or host, known
     * only in input order: workers encode the others. */
    size_t deferred_from, deferred_to;

    /* Guards, while workers encode, the args columns (registry, affinity,
     * ncolumns), keys.names and the prepared batches. */
    pthread_mutex_t mu;
    /* Default mode: args column of each key (registry id -> column + 1). */
    struct spoor_strpool *keys_seen;
    uint32_t *column_of_key;
    size_t column_of_key_cap;
    struct spoor_strpool *names_lower;  /* column names as SQLite compares them */

    struct sqlw_encoder main;           /* input order */
    struct sqlw_encoder **workers;      /* per load worker */
    size_t nworkers;
    struct sqlw_prepared **prepared;    /* batches the workers encoded */
    size_t nprepared;
    uint8_t *resolved_utf8;             /* UTF-8 state of the resolved (stable) ids */
    size_t resolved_utf8_n, resolved_utf8_cap;
    struct sqlf_buf bytes;
    struct sqlw_via *via;               /* through SQLite's API instead (write_sqlite_via.c) */
};

/* write_sqlite_encode.c */
void sqlw_encoder_free(struct sqlw_encoder *e);
/* Starts a batch: the first n table columns with their affinities, every
 * view NULL until bound, the string-id caches sized for t. */
void sqlw_encoder_start(struct sqlw_encoder *e, const struct spoor_table *t, const enum sqlw_affinity *affinity,
                        size_t n, bool name_keys);
/* Adds a column (NULL view) for a table column added during the batch. */
void sqlw_encoder_add(struct sqlw_encoder *e, enum sqlw_affinity aff);
/* Chooses how each column is encoded, once the views are bound. */
void sqlw_encoder_plan(const struct spoor_sqlite_writer *w, struct sqlw_encoder *e);
/* Appends the values of columns [from, to) of row to e->rec, and their
 * index keys to keys (the encoder planned). */
void sqlw_encode(struct spoor_sqlite_writer *w, struct sqlw_encoder *e, size_t from, size_t to, size_t row,
                 const struct sqlw_row_keys *keys);

/* write_sqlite_prepare.c */
void sqlw_prepared_free(struct spoor_sqlite_writer *w);
/* Takes the batch's prepared rows, when a worker encoded them: each row's
 * deferred columns are encoded and its record completed, in input order. */
bool sqlw_prepared_write(struct spoor_sqlite_writer *w, const struct spoor_table *t);

/* write_sqlite_via.c: rows of the batch bound (sel NULL: rows 0..n) and
 * inserted through SQLite; at the end the table and indexes made by SQL. */
struct sqlw_via;
int sqlw_via_write(struct spoor_sqlite_writer *w, const uint32_t *sel, size_t n, struct spoor_error *err);
int sqlw_via_finish(struct spoor_sqlite_writer *w, struct spoor_error *err);
void sqlw_via_free(struct sqlw_via *v);

/* Lookups and meta, staged in an in-memory database and copied into the
 * finished file by SQLite (they are small). */
struct sqlw_lookups;

int sqlw_lookups_new(struct sqlw_lookups **out, struct spoor_error *err);
void sqlw_lookups_free(struct sqlw_lookups *l);
int sqlw_lookups_add(struct sqlw_lookups *l, const struct spoor_table *t, struct spoor_error *err);
/* Adds meta, then every table to the database at path (name in errors). */
int sqlw_lookups_finish(struct sqlw_lookups *l, const struct spoor_load_result *loaded, const char *path,
                        const char *name, struct spoor_error *err);

#endif
