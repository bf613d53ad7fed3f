/* Inside the SQLite exporter (write_sqlite.c): values as SQLite would store
 * them (write_sqlite_value.c), the indexes (write_sqlite_index.c) and the
 * lookups and meta (write_sqlite_lookups.c). */
#ifndef SPOOR_OUT_WRITE_SQLITE_INTERNAL_H
#define SPOOR_OUT_WRITE_SQLITE_INTERNAL_H

#include "out/sqlite_file.h"
#include "out/write_internal.h"
#include "spoor/load.h"
#include "spoor/resolve.h"
#include "spoor/table.h"

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
void sqlw_record_value(struct sqlf_record *rec, const struct sqlw_value *v);
/* s with every invalid byte replaced by U+FFFD, into b (cleared first). */
void sqlw_utf8_repair(struct wbuf *b, const char *s, size_t len);
/* Appends s between quotes, quotes in it doubled: an SQL identifier ('"') or
 * string literal ('\''); NUL and invalid UTF-8 become U+FFFD. */
void sqlw_put_quoted(struct wbuf *b, const char *s, size_t len, char quote);

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
/* Makes room for one more row (set its keys at index k->n, then k->n++). */
void sqlw_keys_grow(struct sqlw_keys *k);
/* Sorts each index's keys and writes its b-tree; objects receive the
 * CREATE INDEX statements and roots (at most 3). */
size_t sqlw_keys_write(struct sqlw_keys *k, struct sqlf_file *f, struct sqlf_object *objects);

/* Lookups and meta, staged in an in-memory database and copied into the
 * finished file by SQLite (they are small). */
struct sqlw_lookups;

int sqlw_lookups_new(struct sqlw_lookups **out, struct spoor_error *err);
void sqlw_lookups_free(struct sqlw_lookups *l);
int sqlw_lookups_add(struct sqlw_lookups *l, const struct spoor_table *t, struct spoor_error *err);
/* Adds meta, then every table to the database at path. */
int sqlw_lookups_finish(struct sqlw_lookups *l, const struct spoor_load_result *loaded, const char *path,
                        struct spoor_error *err);

#endif
