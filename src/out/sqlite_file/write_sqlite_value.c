/* Values as SQLite itself would store them through INSERT: text is valid
 * UTF-8, and a column's affinity converts what does not match its declared
 * type (a number in a TEXT column becomes its text, a text that reads as a
 * number in an INTEGER or REAL column becomes that number). */
#include "out/sqlite_file/write_sqlite_internal.h"

#include "util/utf8.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static bool utf8_valid(const char *s, size_t len)
{
    for (size_t i = 0; i < len;) {
        if ((unsigned char)s[i] < 0x80) {
            i++;
            continue;
        }
        unsigned cp;
        size_t n = spoor_utf8_decode(s + i, len - i, &cp);
        if (n == 1)
            return false;
        i += n;
    }
    return true;
}

void sqlw_utf8_repair(struct wbuf *b, const char *s, size_t len)
{
    b->len = 0;
    for (size_t i = 0; i < len;) {
        unsigned cp;
        size_t n = (unsigned char)s[i] < 0x80 ? 1 : spoor_utf8_decode(s + i, len - i, &cp);
        if (n == 1 && (unsigned char)s[i] >= 0x80)
            wbuf_put(b, "\xef\xbf\xbd", 3);
        else
            wbuf_put(b, s + i, n);
        i += n;
    }
}

void sqlw_put_quoted(struct wbuf *b, const char *s, size_t len, char quote)
{
    struct wbuf fixed;
    wbuf_init(&fixed, NULL, len * 3 + 1);
    sqlw_utf8_repair(&fixed, s, len);
    wbuf_byte(b, quote);
    for (size_t i = 0; i < fixed.len; i++) {
        char c = fixed.data[i];
        if (c == '\0')
            wbuf_put(b, "\xef\xbf\xbd", 3);
        else if (c == quote)
            wbuf_put(b, (char[2]){quote, quote}, 2);
        else
            wbuf_byte(b, c);
    }
    wbuf_byte(b, quote);
    wbuf_release(&fixed);
}

/* A real as SQLite spells it ("%!.15g": always a decimal point or exponent). */
static void real_text(struct wbuf *b, double r)
{
    b->len = 0;
    if (isinf(r)) {
        wbuf_put(b, r < 0 ? "-Inf" : "Inf", r < 0 ? 4 : 3);
        return;
    }
    char s[40];
    int n = snprintf(s, sizeof s, "%.15g", r);
    char *e = memchr(s, 'e', (size_t)n);
    if (memchr(s, '.', (size_t)n)) {
        wbuf_put(b, s, (size_t)n);
    } else if (e) {
        wbuf_put(b, s, (size_t)(e - s));
        wbuf_put(b, ".0", 2);
        wbuf_put(b, e, (size_t)(s + n - e));
    } else {
        wbuf_put(b, s, (size_t)n);
        wbuf_put(b, ".0", 2);
    }
}

static bool is_space(char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

static const char *digits(const char *p, const char *end, size_t *n)
{
    const char *start = p;
    while (p < end && *p >= '0' && *p <= '9')
        p++;
    *n = (size_t)(p - start);
    return p;
}

/* Whether text reads as a number, as SQLite's numeric affinity reads it:
 * blanks around, a sign, digits with an optional point and exponent. */
static bool text_number(const char *s, size_t len, struct sqlw_value *out)
{
    const char *p = s, *end = s + len;
    while (p < end && is_space(*p))
        p++;
    while (end > p && is_space(end[-1]))
        end--;
    const char *start = p;
    if (p < end && (*p == '+' || *p == '-'))
        p++;
    size_t whole, frac = 0, exp;
    p = digits(p, end, &whole);
    bool integer = true;
    if (p < end && *p == '.') {
        p = digits(p + 1, end, &frac);
        integer = false;
    }
    if (!whole && !frac)
        return false;
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < end && (*p == '+' || *p == '-'))
            p++;
        p = digits(p, end, &exp);
        if (!exp)
            return false;
        integer = false;
    }
    if (p != end)
        return false;
    char buf[64];
    size_t n = (size_t)(end - start);
    char *copy = n < sizeof buf ? buf : spoor_xmalloc(n + 1);
    memcpy(copy, start, n);
    copy[n] = '\0';
    errno = 0;
    long long i = integer ? strtoll(copy, NULL, 10) : 0;
    if (integer && errno != ERANGE) {
        *out = (struct sqlw_value){.type = SQLW_INT, .i = i};
    } else {
        *out = (struct sqlw_value){.type = SQLW_FLOAT, .r = strtod(copy, NULL)};
    }
    if (copy != buf)
        free(copy);
    return true;
}

/* A real in an INTEGER column: an integer when that loses nothing. */
static void integer_if_exact(struct sqlw_value *out)
{
    double r = out->r;
    if (r >= -9223372036854775808.0 && r < 9223372036854775808.0 && r == (double)(int64_t)r)
        *out = (struct sqlw_value){.type = SQLW_INT, .i = (int64_t)r};
}

static void as_text(struct wbuf *scratch, struct sqlw_value *out)
{
    if (out->type == SQLW_INT) {
        scratch->len = 0;
        wbuf_i64(scratch, out->i);
    } else {
        real_text(scratch, out->r);
    }
    *out = (struct sqlw_value){.type = SQLW_TEXT_VALUE, .s = scratch->data, .len = scratch->len};
}

static void text_value(struct wbuf *scratch, const char *s, size_t len, uint8_t *known, struct sqlw_value *out)
{
    uint8_t state = known ? *known : UTF8_UNKNOWN;
    if (state == UTF8_UNKNOWN) {
        state = utf8_valid(s, len) ? UTF8_VALID : UTF8_INVALID;
        if (known)
            *known = state;
    }
    if (state == UTF8_INVALID) {
        sqlw_utf8_repair(scratch, s, len);
        s = scratch->data;
        len = scratch->len;
    }
    *out = (struct sqlw_value){.type = SQLW_TEXT_VALUE, .s = s, .len = len};
}

void sqlw_convert(struct wbuf *scratch, enum sqlw_affinity aff, const struct spoor_view *v, size_t row,
                  uint8_t *known, struct sqlw_value *out)
{
    if (spoor_view_is_null(v, row)) {
        out->type = SQLW_NULL;
        return;
    }
    switch (v->kind) {
    case SPOOR_VIEW_I64:
        *out = (struct sqlw_value){.type = SQLW_INT, .i = v->i64[row]};
        if (aff == SQLW_INTEGER || aff == SQLW_BLOB)
            return; /* the usual case: nothing to convert */
        break;
    case SPOOR_VIEW_F64:
        if (isnan(v->f64[row])) {       /* SQLite binds NaN as NULL */
            out->type = SQLW_NULL;
            return;
        }
        *out = (struct sqlw_value){.type = SQLW_FLOAT, .r = v->f64[row]};
        break;
    case SPOOR_VIEW_STR: {
        size_t len;
        uint32_t id = v->str[row];
        const char *s = spoor_strpool_get(v->pool, id, &len);
        if (known && known[id] == UTF8_VALID && (aff == SQLW_TEXT || aff == SQLW_BLOB)) {
            *out = (struct sqlw_value){.type = SQLW_TEXT_VALUE, .s = s, .len = len};
            return; /* the usual case: checked before, nothing to convert */
        }
        text_value(scratch, s, len, known ? &known[id] : NULL, out);
        break;
    }
    case SPOOR_VIEW_PH: /* one letter: ASCII is valid UTF-8 as it is */
        if (v->ph[row] < 0x80) {
            scratch->len = 0;
            wbuf_byte(scratch, (char)v->ph[row]);
            *out = (struct sqlw_value){.type = SQLW_TEXT_VALUE, .s = scratch->data, .len = 1};
            break;
        }
        /* fall through */
    default: {
        char ph[2];
        size_t len;
        const char *s = spoor_view_text(v, row, ph, &len);
        text_value(scratch, s, len, NULL, out);
        if (s == ph) {      /* the letter lives on this stack frame */
            scratch->len = 0;
            wbuf_put(scratch, s, len);
            out->s = scratch->data;
        }
        break;
    }
    }
    if (out->type == SQLW_TEXT_VALUE && (aff == SQLW_INTEGER || aff == SQLW_REAL)) {
        struct sqlw_value number;
        if (text_number(out->s, out->len, &number))
            *out = number;
    }
    if (aff == SQLW_INTEGER && out->type == SQLW_FLOAT)
        integer_if_exact(out);
    else if (aff == SQLW_REAL && out->type == SQLW_INT)
        *out = (struct sqlw_value){.type = SQLW_FLOAT, .r = (double)out->i};
    else if (aff == SQLW_REAL && out->type == SQLW_FLOAT && out->r == 0)
        out->r = 0; /* SQLite keeps a whole REAL as an integer in the record: -0.0 reads back as 0.0 */
    else if (aff == SQLW_TEXT && out->type != SQLW_TEXT_VALUE)
        as_text(scratch, out);
}
