/* Fuzzes the tolerant JSON scanner: walks the members of the input as one
 * line, decodes every string, converts every value, and checks that tokens
 * stay inside the input and decoding never grows a string. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "read/json_scan.h"

static void check_span(const char *p, size_t n, const char *begin, const char *end)
{
    if (p < begin || p + n > end)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *begin = (const char *)data, *end = begin + size;
    struct spoor_table *t = spoor_table_new();
    char *buf = malloc(size + 1);
    struct spoor_json_iter it;
    struct spoor_json_tok k, v;
    spoor_json_iter_init(&it, begin, end);
    int r;
    while ((r = spoor_json_next(&it, &k, &v)) == 1) {
        check_span(k.p, k.n, begin, end);
        check_span(v.p, v.n, begin, end);
        if (k.kind != SPOOR_JSON_STRING || spoor_json_unescape(k.p, k.n, buf) > k.n)
            abort();
        if (v.kind == SPOOR_JSON_STRING && spoor_json_unescape(v.p, v.n, buf) > v.n)
            abort();
        int64_t i;
        double d;
        spoor_json_int64(v.p, v.n, &i);
        spoor_json_double(v.p, v.n, &d);
        struct spoor_value val;
        spoor_json_to_value(t, &v, true, NULL, &val);
        spoor_json_to_value(t, &v, false, NULL, &val);
        if (!val.is_null && val.type == SPOOR_STR && val.str >= spoor_strpool_count(t->pool))
            abort();
        /* nested objects are walked the same way */
        if (v.kind == SPOOR_JSON_OBJECT) {
            struct spoor_json_iter in;
            struct spoor_json_tok k2, v2;
            spoor_json_iter_init(&in, v.p, v.p + v.n);
            while (spoor_json_next(&in, &k2, &v2) == 1)
                check_span(v2.p, v2.n, v.p, v.p + v.n);
        }
    }
    if (r == 0 && (it.p < begin || it.p > end))
        abort();
    free(buf);
    spoor_table_free(t);
    return 0;
}
