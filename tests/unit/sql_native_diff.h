/* Differential checking of spoor sql's native path against SQLite: the same
 * statement run both ways must print the same bytes in every format, with
 * the same status and error. Included by test_sql_native.c and the
 * fuzz_sql_native target, with the hand-made table both use. */
#ifndef SPOOR_TEST_SQL_NATIVE_DIFF_H
#define SPOOR_TEST_SQL_NATIVE_DIFF_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events_fixture.h"
#include "spoor/sql.h"

struct diff_run {
    char *text;             /* output, then the error message */
    int status;
    bool native;            /* the last statement ran natively */
};

static void diff_explain(void *arg, const char *path, const char *why)
{
    (void)why;
    *(bool *)arg = !strcmp(path, "native");
}

static struct diff_run diff_once(struct spoor_sql *s, const char *query, enum spoor_sql_format format, bool no_native)
{
    struct diff_run r = {0};
    size_t len;
    FILE *fp = open_memstream(&r.text, &len);
    struct spoor_sql_run run = {.format = format, .out = fp, .no_native = no_native, .explain = diff_explain,
                                .explain_arg = &r.native};
    struct spoor_error err = {0};
    r.status = spoor_sql_exec(s, query, &run, &err);
    if (r.status != SPOOR_OK)
        fprintf(fp, "\nerror %d: %s", r.status, err.msg);
    fclose(fp);
    return r;
}

/* Runs query natively (when the path takes it) and in SQLite, in every
 * format. Returns NULL when all agree, else a description (caller frees);
 * *native tells whether the native path ran. */
static char *diff_query(struct spoor_sql *s, const char *query, bool *native)
{
    *native = false;
    for (int f = SPOOR_SQL_TABLE; f <= SPOOR_SQL_JSONL; f++) {
        struct diff_run a = diff_once(s, query, (enum spoor_sql_format)f, false);
        struct diff_run b = diff_once(s, query, (enum spoor_sql_format)f, true);
        *native = a.native;
        char *msg = NULL;
        if (a.status != b.status || strcmp(a.text, b.text)) {
            size_t n = strlen(query) + strlen(a.text) + strlen(b.text) + 128;
            msg = malloc(n);
            snprintf(msg, n, "%s\nformat %d, native:\n%s\nsqlite:\n%s", query, f, a.text, b.text);
        }
        free(a.text);
        free(b.text);
        if (msg)
            return msg;
    }
    return NULL;
}

/* Nulls everywhere, args of every type (promoted ones too), keys that meet
 * fixed names, text with bad UTF-8, integers near the int64 edge. */
static struct spoor_table *diff_table(void)
{
    struct spoor_table *t = spoor_table_new();
    spoor_table_add_source(t, "/a/trace.pfw");
    spoor_table_add_source(t, "/b/trace.pfw");
    static const char *const names[] = {"read", "open", "Read", "", "write", "r\xc3\xa9"};
    static const char *const cats[] = {"POSIX", "STDIO", NULL, "posix"};
    for (int i = 0; i < 300; i++) {
        size_t r = fx_row(t, i % 7 ? i * 1000 - 50000 : FX_NULL, i % 5 ? (i * 37) % 1000 : FX_NULL, names[i % 6],
                          cats[i % 4], i % 3, i % 11 ? 100 + i % 4 : FX_NULL, "XBEiCM"[i % 6]);
        t->src[r] = (uint32_t)(i % 2);
        if (i % 2)
            fx_int(t, r, "size", i * 3 - 500);
        if (i % 3)
            fx_real(t, r, "ratio", i % 9 ? i / 7.0 : 0.0);
        if (i % 5 == 1)
            fx_real(t, r, "zero", i % 2 ? 0.0 : -0.0);
        fx_int(t, r, "mixed", i); /* then a real: a promoted column */
        if (i % 4)
            fx_str(t, r, "fhash", i % 8 ? "12" : "99");
        if (i % 10 == 0)
            fx_str(t, r, "note", i % 20 ? "it's \"100%\" \xc3\xa9" : "bad \xff utf8");
        if (i % 6 == 0)
            fx_str(t, r, "name", "arg-name");
        if (i % 13 == 0)
            fx_int(t, r, "Size", -i);
        if (i % 50 == 7)
            fx_int(t, r, "huge", i % 100 == 7 ? INT64_MAX - i : INT64_MIN + i);
        if (i % 17 == 3)
            fx_int(t, r, "wide", (int64_t)1 << 60);
    }
    fx_real(t, 5, "mixed", 5.5);
    fx_lookup(t, SPOOR_LOOKUP_FILE, "12", "/data/f.dat");
    return t;
}

#endif
