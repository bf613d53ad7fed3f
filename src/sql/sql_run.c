/* Running a query string: each statement in turn is prepared, its
 * parameters bound from --param values, stepped and written. */
#include "sql/native/sql_native.h"
#include "sql/sql_internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The name without its ':', '@' or '$' (and "?7" as "7"). */
static const char *bare(const char *name) { return strchr(":@$?", name[0]) ? name + 1 : name; }

static void bind_value(sqlite3_stmt *st, int i, const char *value)
{
    char *end;
    bool numeric_start = *value && !isspace((unsigned char)*value);
    errno = 0;
    long long n = strtoll(value, &end, 10);
    if (numeric_start && !*end && !errno) {
        sqlite3_bind_int64(st, i, n);
        return;
    }
    double d = strtod(value, &end);
    if (numeric_start && !*end && isfinite(d) && !strpbrk(value, "xX")) {
        sqlite3_bind_double(st, i, d);
        return;
    }
    sqlite3_bind_text(st, i, value, -1, SQLITE_STATIC);
}

static int bind_params(sqlite3_stmt *st, const struct spoor_sql_run *run, struct spoor_error *err)
{
    for (int i = 1; i <= sqlite3_bind_parameter_count(st); i++) {
        const char *name = sqlite3_bind_parameter_name(st, i);
        if (!name)
            return spoor_fail(err, SPOOR_EUSAGE, "parameter %d has no name; write :name and give --param name=VALUE",
                              i);
        const char *value = NULL;
        for (size_t k = 0; k < run->nparams && !value; k++)
            if (!strcmp(bare(run->params[k].name), bare(name)))
                value = run->params[k].value;
        if (!value)
            return spoor_fail(err, SPOOR_EUSAGE, "parameter %s has no value; give --param %s=VALUE", name,
                              bare(name));
        bind_value(st, i, value);
    }
    return SPOOR_OK;
}

static bool starts_char(unsigned char c) { return (c & 0xc0) != 0x80; } /* not a UTF-8 continuation */

/* 1-based line and column (in characters) of a byte offset. */
static void position(const char *query, size_t offset, size_t *line, size_t *column)
{
    *line = *column = 1;
    for (size_t i = 0; i < offset; i++) {
        if (query[i] == '\n') {
            ++*line;
            *column = 1;
        } else if (starts_char((unsigned char)query[i])) {
            ++*column;
        }
    }
}

int spoor_sql_exec(struct spoor_sql *s, const char *query, struct spoor_sql_run *run, struct spoor_error *err)
{
    run->error_offset = -1;
    size_t results = 0;
    for (const char *at = query; *at;) {
        sqlite3_stmt *st = NULL;
        const char *tail = NULL;
        if (sqlite3_prepare_v2(s->db, at, -1, &st, &tail) != SQLITE_OK) {
            int offset = sqlite3_error_offset(s->db);
            if (offset < 0)
                return spoor_fail(err, SPOOR_EUSAGE, "%s", sqlite3_errmsg(s->db));
            run->error_offset = (long)(at - query) + offset;
            size_t line, column;
            position(query, (size_t)run->error_offset, &line, &column);
            return spoor_fail(err, SPOOR_EUSAGE, "%s at line %zu, column %zu", sqlite3_errmsg(s->db), line, column);
        }
        const char *text = at;
        at = tail;
        if (!st)
            continue; /* only whitespace or a comment */
        int status = bind_params(st, run, err);
        if (status == SPOOR_OK) {
            const char *why = "--no-native";
            bool native = !run->no_native &&
                          sql_native_exec(s, st, text, (size_t)(tail - text), run, results, &status, &why, err);
            if (!native)
                status = sql_output_write(st, run->format, run->out, results, err);
            if (run->explain)
                run->explain(run->explain_arg, native ? "native" : "sqlite", native ? NULL : why);
            results += sqlite3_column_count(st) > 0;
        }
        sqlite3_finalize(st);
        if (status != SPOOR_OK)
            return status;
    }
    return SPOOR_OK;
}

/* Width of the caret's lead: one column per UTF-8 character, tabs kept so
 * the caret lines up under a tab-indented query. */
void spoor_sql_print_caret(FILE *f, const char *query, long offset)
{
    size_t len = strlen(query);
    if (offset < 0 || (size_t)offset > len)
        return;
    size_t start = (size_t)offset;
    while (start > 0 && query[start - 1] != '\n')
        start--;
    size_t end = strcspn(query + start, "\n");
    fprintf(f, "%.*s\n", (int)end, query + start);
    for (size_t i = start; i < (size_t)offset; i++) {
        if (starts_char((unsigned char)query[i]))
            fputc(query[i] == '\t' ? '\t' : ' ', f);
    }
    fputs("^\n", f);
}
