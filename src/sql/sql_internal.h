/* Inside the SQL session: the events column catalog (sql_columns.c), lazily
 * built row indexes (sql_index.c), the push-down plan (sql_plan.c), the
 * virtual table modules (sql_events.c, sql_small.c with sql_lookups.c and
 * sql_meta.c) and the result writers (sql_output.c). */
#ifndef SPOOR_SQL_INTERNAL_H
#define SPOOR_SQL_INTERNAL_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "spoor/table.h"
#include "spoor/sql.h"

/* The session's SQLite connection (tests and the fuzzer prepare on it). */
sqlite3 *spoor_sql_db(struct spoor_sql *s);
/* Rows of events that cursors have looked at so far: a query that pushes a
 * selective constraint down visits far fewer rows than the table has. */
uint64_t spoor_sql_rows_visited(const struct spoor_sql *s);

/* ---- events columns: the fixed ones in spoor_field order, then the args. */

struct sql_column {
    char *label;                /* the SQL column name */
    enum spoor_field field;
    const char *key;            /* args key (SPOOR_FIELD_ARG) */
    const char *decl_type;      /* INTEGER, REAL, TEXT or "" */
};

struct sql_columns {
    struct sql_column *v;
    size_t n;
    char *decl;                 /* CREATE TABLE events(...) */
};

void sql_columns_init(struct sql_columns *c, const struct spoor_table *t);
void sql_columns_free(struct sql_columns *c);

/* ---- indexes: row numbers sorted by a key, ties in row order. */

enum sql_index_kind {
    SQL_INDEX_TS,
    SQL_INDEX_NAME,             /* by the text's rank */
    SQL_INDEX_CAT,
    SQL_INDEX_PID,
    SQL_INDEX_TID,
    SQL_INDEX_CAT_NAME,         /* by (cat, name) text ranks */
    SQL_INDEXES
};

struct sql_index {
    int64_t *keys;              /* sorted */
    uint32_t *rows;
    size_t n;
    uint32_t *rank_of_id;       /* NAME, CAT: string id -> key (UINT32_MAX: not in the column) */
};

/* The key of every row for an index kind (and, for NAME and CAT, the map
 * from string id to key). */
int64_t *sql_index_keys(const struct spoor_table *t, enum sql_index_kind kind, uint32_t **rank_of_id);
/* Takes keys (one per row) and the map, and sorts rows by the keys. */
struct sql_index *sql_index_new(int64_t *keys, uint32_t *rank_of_id, size_t n);
void sql_index_free(struct sql_index *ix);
/* [*begin, *end): the positions whose key lies in [lo, hi]. */
void sql_index_span(const struct sql_index *ix, int64_t lo, int64_t hi, size_t *begin, size_t *end);
/* The key of a string id in a NAME or CAT index; -1 when no row has it. */
int64_t sql_index_key_of_id(const struct sql_index *ix, uint32_t id);

/* ---- the session */

struct spoor_sql {
    sqlite3 *db;
    const struct spoor_table *t;
    const struct spoor_load_result *loaded;
    struct sql_columns cols;
    struct spoor_view *views;           /* per events column, over the whole table */
    struct spoor_resolver *resolver;    /* file and host, on first use */
    struct sql_index *index[SQL_INDEXES];
    uint64_t rows_visited;
    struct sql_meta_row *meta;
    size_t nmeta;
};

/* The view of an events column; binds file and host on first use. */
const struct spoor_view *sql_view(struct spoor_sql *s, size_t col);
const struct sql_index *sql_index(struct spoor_sql *s, enum sql_index_kind kind);

/* ---- push-down */

/* How a cursor hands rows out (xBestIndex's idxNum). */
enum sql_order {
    SQL_ORDER_NONE,
    SQL_ORDER_TS_ASC,
    SQL_ORDER_TS_DESC,
    SQL_ORDER_NAME,             /* by the text, ascending (desc: walked backwards) */
    SQL_ORDER_NAME_DESC,
    SQL_ORDER_CAT,
    SQL_ORDER_CAT_DESC,
    SQL_ORDER_CAT_NAME,
    SQL_ORDER_CAT_NAME_DESC,
};

/* The constraints of one xFilter call, decoded. Rows outside them are not
 * visited; SQLite checks every constraint again (omit is never set), so the
 * filter only has to keep a superset of the answer. */
struct sql_filter {
    bool empty;                 /* nothing can match */
    bool has_ts, has_name, has_cat, has_pid, has_tid;
    int64_t ts_lo, ts_hi;       /* inclusive */
    uint32_t name, cat;
    int64_t pid, tid;
};

/* What a cursor walks: positions [begin, end) of an index's rows, or of
 * the row numbers themselves when rows is NULL (a full scan). */
struct sql_path {
    const uint32_t *rows;
    size_t begin, end;
    bool desc;
};

int sql_plan_best_index(const struct spoor_sql *s, sqlite3_index_info *info);
void sql_plan_filter(const struct spoor_sql *s, const char *ops, int argc, sqlite3_value **argv,
                     struct sql_filter *f);
bool sql_filter_keeps(const struct spoor_table *t, const struct sql_filter *f, size_t row);
/* Builds the index it needs on first use. */
void sql_plan_path(struct spoor_sql *s, enum sql_order order, const struct sql_filter *f, struct sql_path *path);

/* ---- modules */

int sql_events_register(struct spoor_sql *s);

/* A small read-only table over arrays (lookups, meta): a full scan. */
struct sql_small_table {
    const char *name;
    const char *decl;
    size_t (*nrows)(const struct spoor_sql *s, const struct sql_small_table *d);
    void (*column)(const struct spoor_sql *s, const struct sql_small_table *d, size_t row, int col,
                   sqlite3_context *ctx);
    int kind;                   /* the lookup kind, for the lookup tables */
};

int sql_small_register(struct spoor_sql *s, const struct sql_small_table *d);
extern const struct sql_small_table sql_lookup_tables[];   /* terminated by a NULL name */
extern const struct sql_small_table sql_meta_table;

void sql_meta_build(struct spoor_sql *s);
void sql_meta_free(struct spoor_sql *s);

/* ---- results */

/* One value of a result row, typed as SQLite types it (SQLITE_NULL,
 * SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT). */
struct sql_cell {
    int type;
    int64_t i;
    double f;
    const char *text;
    size_t len;
};

/* A result set, from a statement or from the native executor: the writers
 * only see this, so both paths print byte for byte alike. */
struct sql_rows {
    int ncols;
    const char *const *names;
    /* Fills ncols cells with the next row (valid until the next call):
     * SQLITE_ROW, SQLITE_DONE or an error, described by errmsg(). */
    int (*next)(struct sql_rows *r, struct sql_cell *cells);
    const char *(*errmsg)(struct sql_rows *r);
};

/* Writes every row of r; `nth` counts result sets written before (they are
 * separated). */
int sql_output_rows(struct sql_rows *r, enum spoor_sql_format format, FILE *out, size_t nth,
                    struct spoor_error *err);
/* Steps st to the end, writing its rows. */
int sql_output_write(sqlite3_stmt *st, enum spoor_sql_format format, FILE *out, size_t nth,
                     struct spoor_error *err);

#endif
