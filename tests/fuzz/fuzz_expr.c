/* Fuzzes the --where compiler and evaluator: any text either compiles or
 * fails with a one-line error naming a position; what compiles evaluates over
 * a small table (nulls, strings, numbers, args of every type, resolved file
 * and host) through a fresh context and a rebound one, which must select the
 * same increasing rows. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/events_fixture.h"
#include "spoor/expr.h"

static struct spoor_table *table(void)
{
    struct spoor_table *t = spoor_table_new();
    spoor_table_add_source(t, "/a/trace.pfw");
    for (int i = 0; i < 1100; i++) { /* more than one evaluation block */
        size_t r = fx_row(t, i % 7 ? i * 1000 : FX_NULL, i % 5 ? i : FX_NULL, i % 3 ? "read" : "open",
                          i % 4 ? "POSIX" : NULL, i % 11, INT64_MAX - i, "XBEiCM"[i % 6]);
        if (i % 2)
            fx_int(t, r, "size", i * 3 - 500);
        if (i % 3)
            fx_real(t, r, "ratio", i / 7.0);
        if (i % 4)
            fx_str(t, r, "fhash", i % 8 ? "12" : "340282366920938463463374607431768211455");
        if (i % 9)
            fx_str(t, r, "fname", i % 2 ? "/x/y.h5" : "");
        if (i % 10 == 0)
            fx_str(t, r, "note", "it's \"100%\" \xc3\xa9\xff");
    }
    fx_lookup(t, SPOOR_LOOKUP_FILE, "12", "/data/f.dat");
    fx_lookup(t, SPOOR_LOOKUP_HOST, "12", "node");
    return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct spoor_table *t;
    static struct spoor_resolver *resolver;
    static const struct spoor_resolved *res;
    static uint32_t sel[2][1100];
    if (!t) {
        t = table();
        resolver = spoor_resolver_new();
        res = spoor_resolver_resolve(resolver, t);
    }
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    struct spoor_error err = {0};
    struct spoor_expr *e;
    int st = spoor_expr_compile(text, &e, &err);
    free(text);
    if (st != SPOOR_OK) {
        if (st != SPOOR_EUSAGE || !err.msg[0] || strchr(err.msg, '\n') ||
            (!strstr(err.msg, "position") && strcmp(err.msg, "empty expression")))
            abort();
        return 0;
    }
    size_t n[2];
    for (int k = 0; k < 2; k++) {
        struct spoor_expr_ctx *c = spoor_expr_ctx_new(e);
        if (k) { /* a context bound before, without file and host, must forget it */
            spoor_expr_bind(c, t, NULL);
            spoor_expr_select(c, sel[k]);
        }
        spoor_expr_bind(c, t, res);
        n[k] = spoor_expr_select(c, sel[k]);
        spoor_expr_ctx_free(c);
    }
    if (n[0] != n[1] || n[0] > t->nrows || memcmp(sel[0], sel[1], n[0] * sizeof sel[0][0]))
        abort();
    for (size_t i = 1; i < n[0]; i++)
        if (sel[0][i] <= sel[0][i - 1])
            abort();
    spoor_expr_free(e);
    return 0;
}
