/* The lookup tables filled from metadata events: files (FH), hosts (HH),
 * strings (SH), procs (process names by pid) and threads (thread names by
 * tid), one row per definition in order: its input (source) and the line it
 * holds from, until that input's next definition of the key. Hashes stay
 * text (they may be wider than 64 bits); a pid or tid that reads as an
 * integer is one. */
#include "sql/sql_internal.h"

#include <errno.h>
#include <stdlib.h>

static size_t lookup_rows(const struct spoor_sql *s, const struct sql_small_table *d)
{
    return s->t->lookups[d->kind].n;
}

static void result_text(sqlite3_context *ctx, const struct spoor_table *t, uint32_t id)
{
    size_t len;
    const char *text = spoor_strpool_get(t->pool, id, &len);
    sqlite3_result_text(ctx, text, (int)len, SQLITE_STATIC);
}

static void result_integer_or_text(sqlite3_context *ctx, const struct spoor_table *t, uint32_t id)
{
    const char *text = spoor_strpool_get(t->pool, id, NULL);
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (*text && !*end && !errno)
        sqlite3_result_int64(ctx, v);
    else
        result_text(ctx, t, id);
}

static void lookup_column(const struct spoor_sql *s, const struct sql_small_table *d, size_t row, int col,
                          sqlite3_context *ctx)
{
    const struct spoor_lookup *l = &s->t->lookups[d->kind];
    bool numeric_key = d->kind == SPOOR_LOOKUP_PROCESS || d->kind == SPOOR_LOOKUP_THREAD;
    if (col == 3)
        sqlite3_result_int64(ctx, (int64_t)l->lines[row]);
    else if (col == 2 && l->srcs[row] < s->t->nsources)
        sqlite3_result_text(ctx, s->t->sources[l->srcs[row]], -1, SQLITE_STATIC);
    else if (col == 2)
        sqlite3_result_null(ctx);
    else if (col == 1)
        result_text(ctx, s->t, l->values[row]);
    else if (numeric_key)
        result_integer_or_text(ctx, s->t, l->keys[row]);
    else
        result_text(ctx, s->t, l->keys[row]);
}

const struct sql_small_table sql_lookup_tables[] = {
    {"files", "CREATE TABLE files(hash TEXT, name TEXT, source TEXT, line INTEGER)", lookup_rows, lookup_column,
     SPOOR_LOOKUP_FILE},
    {"hosts", "CREATE TABLE hosts(hash TEXT, name TEXT, source TEXT, line INTEGER)", lookup_rows, lookup_column,
     SPOOR_LOOKUP_HOST},
    {"strings", "CREATE TABLE strings(hash TEXT, value TEXT, source TEXT, line INTEGER)", lookup_rows, lookup_column,
     SPOOR_LOOKUP_STRING},
    {"procs", "CREATE TABLE procs(pid INTEGER, name TEXT, source TEXT, line INTEGER)", lookup_rows, lookup_column,
     SPOOR_LOOKUP_PROCESS},
    {"threads", "CREATE TABLE threads(tid INTEGER, name TEXT, source TEXT, line INTEGER)", lookup_rows,
     lookup_column, SPOOR_LOOKUP_THREAD},
    {NULL, NULL, NULL, NULL, 0},
};
