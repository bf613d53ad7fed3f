#include "spoor/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int spoor_fail(struct spoor_error *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        err->code = code;
    }
    return code;
}

void spoor_error_clear(struct spoor_error *err)
{
    err->code = SPOOR_OK;
    err->msg[0] = '\0';
}

static void *check(void *p, size_t n)
{
    if (!p && n) {
        fprintf(stderr, "spoor: out of memory allocating %zu bytes\n", n);
        abort();
    }
    return p;
}

void *spoor_xmalloc(size_t n) { return check(malloc(n ? n : 1), n); }
void *spoor_xcalloc(size_t n, size_t size) { return check(calloc(n ? n : 1, size ? size : 1), n * size); }
void *spoor_xrealloc(void *p, size_t n) { return check(realloc(p, n ? n : 1), n); }
char *spoor_xstrdup(const char *s) { return check(strdup(s), strlen(s) + 1); }
char *spoor_xstrndup(const char *s, size_t len)
{
    char *c = spoor_xmalloc(len + 1);
    memcpy(c, s, len);
    c[len] = '\0';
    return c;
}
