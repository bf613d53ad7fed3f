/* The columns of the events table: the fixed and resolved ones, then every
 * args column of the loaded table, named as the row writers name them. SQL
 * names are case-insensitive, so a key that meets an earlier name in another
 * case gets the "args." prefix too, and a number if that is taken as well. */
#include "sql/sql_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const fixed_types[] = {
    [SPOOR_FIELD_TS] = "INTEGER", [SPOOR_FIELD_DUR] = "INTEGER", [SPOOR_FIELD_NAME] = "TEXT",
    [SPOOR_FIELD_CAT] = "TEXT",   [SPOOR_FIELD_PID] = "INTEGER", [SPOOR_FIELD_TID] = "INTEGER",
    [SPOOR_FIELD_PH] = "TEXT",    [SPOOR_FIELD_LINE] = "INTEGER", [SPOOR_FIELD_SOURCE] = "TEXT",
    [SPOOR_FIELD_FILE] = "TEXT",  [SPOOR_FIELD_HOST] = "TEXT",
};

static bool taken(const struct sql_columns *c, const char *label)
{
    for (size_t i = 0; i < c->n; i++)
        if (!sqlite3_stricmp(c->v[i].label, label))
            return true;
    return false;
}

static char *arg_label(const struct sql_columns *c, const char *key)
{
    size_t len = strlen(key);
    char *label = spoor_xmalloc(len + 32);
    bool prefixed = spoor_field_arg_needs_prefix(key, len);
    snprintf(label, len + 32, "%s%s", prefixed ? "args." : "", key);
    if (taken(c, label) && !prefixed)
        snprintf(label, len + 32, "args.%s", key);
    for (int n = 2; taken(c, label); n++)
        snprintf(label, len + 32, "args.%s:%d", key, n);
    return label;
}

static const char *arg_type(const struct spoor_column *col)
{
    if (!col->typed)
        return "";
    return col->type == SPOOR_I64 ? "INTEGER" : col->type == SPOOR_F64 ? "REAL" : "TEXT";
}

/* CREATE TABLE events("ts" INTEGER, ...): every name quoted, quotes doubled. */
static char *declaration(const struct sql_columns *c)
{
    sqlite3_str *s = sqlite3_str_new(NULL);
    sqlite3_str_appendall(s, "CREATE TABLE events(");
    for (size_t i = 0; i < c->n; i++)
        sqlite3_str_appendf(s, "%s\"%w\" %s", i ? ", " : "", c->v[i].label, c->v[i].decl_type);
    sqlite3_str_appendall(s, ")");
    char *sql = sqlite3_str_finish(s);
    char *decl = spoor_xstrdup(sql);
    sqlite3_free(sql);
    return decl;
}

void sql_columns_init(struct sql_columns *c, const struct spoor_table *t)
{
    size_t nfixed = sizeof fixed_types / sizeof *fixed_types;
    c->v = spoor_xcalloc(nfixed + t->ncols, sizeof *c->v);
    c->n = 0;
    for (size_t f = 0; f < nfixed; f++)
        c->v[c->n++] = (struct sql_column){.label = spoor_xstrdup(spoor_field_names[f]),
                                           .field = (enum spoor_field)f, .decl_type = fixed_types[f]};
    for (size_t i = 0; i < t->ncols; i++) {
        const char *key = spoor_table_str(t, t->cols[i].name);
        char *label = arg_label(c, key);
        c->v[c->n++] = (struct sql_column){.label = label, .field = SPOOR_FIELD_ARG, .key = key,
                                           .decl_type = arg_type(&t->cols[i])};
    }
    c->decl = declaration(c);
}

void sql_columns_free(struct sql_columns *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->v[i].label);
    free(c->v);
    free(c->decl);
}
