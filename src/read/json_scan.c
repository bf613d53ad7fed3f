/* The tolerant trace-line scanner: walks the members of one JSON object per
 * line and hands out spans, building nothing.
 *
 * Strict JSON is read exactly as a strict parser would. Beyond it, two
 * writers' habits are tolerated:
 *  - unescaped quotes inside strings (DataCrumbs' C++ writer): a quote closes
 *    a string only when what follows could follow a string there (':' after a
 *    key; ',', '}', ']' or the line end after a value), otherwise it is text;
 *  - a raw backslash at the end of a string ("C:\dir\"): a \" that is
 *    followed by the next member or the end of the object, which strict JSON
 *    could never have, closes the string and keeps the backslash as text.
 * Trailing commas, NaN/Infinity (Python's json.dumps) and integers of any
 * width are accepted; objects that end before their '}' are malformed, so a
 * truncated last line is never read as a shorter event. */
#include "read/json_scan.h"
#include "read/field_map.h"
#include "read/wall_clock.h"
#include "util/digits.h"
#include "spoor/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

enum { MAX_DEPTH = 512 };

static inline bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

static inline const char *skip_ws(const char *p, const char *end)
{
    while (p < end && is_ws(*p))
        p++;
    return p;
}

/* First '"' or '\\' at or after p, or end. */
static inline const char *find_quote_or_backslash(const char *p, const char *end)
{
#ifdef __SSE2__
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    while (end - p >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)p);
        int m = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
        if (m)
            return p + __builtin_ctz((unsigned)m);
        p += 16;
    }
#endif
    while (p < end && *p != '"' && *p != '\\')
        p++;
    return p;
}

/* Where a string closes: a key's string is followed by ':', a value's by ','
 * '}' ']' or the line end. NESTED strings inside skipped containers may be
 * either. */
enum str_role { ROLE_KEY, ROLE_VALUE, ROLE_NESTED };

static bool can_start_value_or_close(char c)
{
    return c == '"' || c == '{' || c == '[' || c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' ||
           c == 'n' || c == 'N' || c == 'I' || c == '}' || c == ']';
}

static bool closes_string(const char *after, const char *end, enum str_role role)
{
    const char *r = skip_ws(after, end);
    if (r == end)
        return role != ROLE_KEY;
    char c = *r;
    if (c == ':')
        return role != ROLE_VALUE;
    if (role == ROLE_KEY)
        return false;
    if (c == '}' || c == ']')
        return true;
    if (c != ',')
        return false;
    r = skip_ws(r + 1, end);
    return r == end || can_start_value_or_close(*r);
}

/* The \" at q-1..q was written for a literal backslash closing the string if
 * what follows is the next member ("key":) or only closing brackets: both
 * impossible after an escaped quote in strict JSON. */
static bool backslash_closes_string(const char *after, const char *end)
{
    const char *r = skip_ws(after, end);
    if (r < end && *r == ',') {
        r = skip_ws(r + 1, end);
        if (r == end || *r != '"')
            return false;
        r++;
        while (r < end && *r != '"' && *r != '\\')
            r++;
        if (r == end || *r != '"')
            return false;
        r = skip_ws(r + 1, end);
        return r < end && *r == ':';
    }
    if (r == end || (*r != '}' && *r != ']'))
        return false;
    while (r < end && (*r == '}' || *r == ']' || *r == ',' || is_ws(*r)))
        r++;
    return r == end;
}

/* p is just past the opening quote; returns the position just past the closing
 * quote, or NULL when the line ends first. */
static const char *scan_string(const char *p, const char *end, enum str_role role, struct spoor_json_tok *tok)
{
    const char *start = p;
    bool escape = false;
    for (;;) {
        const char *q = find_quote_or_backslash(p, end);
        if (q == end)
            return NULL;
        if (*q == '\\') {
            escape = true;
            if (q + 1 == end)
                return NULL;
            if (q[1] == '"' && role == ROLE_VALUE && backslash_closes_string(q + 2, end)) {
                q++;
            } else {
                p = q + 2;
                continue;
            }
        }
        if (closes_string(q + 1, end, role)) {
            if (tok) {
                tok->kind = SPOOR_JSON_STRING;
                tok->p = start;
                tok->n = (size_t)(q - start);
                tok->has_escape = escape;
            }
            return q + 1;
        }
        p = q + 1;
    }
}

static inline bool is_number_char(char c)
{
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

static bool literal_at(const char *p, const char *end, const char *word, size_t n)
{
    return (size_t)(end - p) >= n && memcmp(p, word, n) == 0;
}

/* First of '"' '\\' '{' '}' '[' ']' at or after p, or end. */
static const char *find_structural(const char *p, const char *end)
{
#ifdef __SSE2__
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    /* '[' ']' are '{' '}' less 0x20: with that bit set, one compare finds both openers and one both closers. */
    const __m128i bit = _mm_set1_epi8(0x20), open = _mm_set1_epi8('{'), close = _mm_set1_epi8('}');
    while (end - p >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)p);
        __m128i folded = _mm_or_si128(v, bit);
        __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                                   _mm_or_si128(_mm_cmpeq_epi8(folded, open), _mm_cmpeq_epi8(folded, close)));
        int m = _mm_movemask_epi8(hit);
        if (m)
            return p + __builtin_ctz((unsigned)m);
        p += 16;
    }
#endif
    while (p < end && *p != '"' && *p != '\\' && *p != '{' && *p != '}' && *p != '[' && *p != ']')
        p++;
    return p;
}

/* p is at '{' or '['; returns just past the matching bracket, or NULL. Strings
 * inside are scanned with the same quote rules; brackets must match. */
static const char *skip_container(const char *p, const char *end)
{
    uint64_t is_object[MAX_DEPTH / 64];
    int depth = 0;
    for (;;) {
        p = find_structural(p, end);
        if (p == end)
            return NULL;
        char c = *p;
        if (c == '"') {
            p = scan_string(p + 1, end, ROLE_NESTED, NULL);
            if (!p)
                return NULL;
            continue;
        }
        if (c == '\\')
            return NULL;
        if (c == '{' || c == '[') {
            if (depth == MAX_DEPTH)
                return NULL;
            uint64_t bit = 1ULL << (depth % 64);
            if (c == '{')
                is_object[depth / 64] |= bit;
            else
                is_object[depth / 64] &= ~bit;
            depth++;
            p++;
            continue;
        }
        /* a closing bracket */
        if (depth == 0)
            return NULL;
        depth--;
        bool object = (is_object[depth / 64] >> (depth % 64)) & 1;
        if (object != (c == '}'))
            return NULL;
        p++;
        if (depth == 0)
            return p;
    }
}

/* Scans one value at p into tok; returns just past it, or NULL. */
static const char *scan_value(const char *p, const char *end, struct spoor_json_tok *tok)
{
    if (p == end)
        return NULL;
    const char *start = p;
    tok->has_escape = false;
    switch (*p) {
    case '"':
        return scan_string(p + 1, end, ROLE_VALUE, tok);
    case '{':
    case '[':
        tok->kind = *p == '{' ? SPOOR_JSON_OBJECT : SPOOR_JSON_ARRAY;
        p = skip_container(p, end);
        break;
    case 't':
        tok->kind = SPOOR_JSON_TRUE;
        p = literal_at(p, end, "true", 4) ? p + 4 : NULL;
        break;
    case 'f':
        tok->kind = SPOOR_JSON_FALSE;
        p = literal_at(p, end, "false", 5) ? p + 5 : NULL;
        break;
    case 'n':
        tok->kind = SPOOR_JSON_NULL;
        p = literal_at(p, end, "null", 4) ? p + 4 : NULL;
        break;
    case 'N':
        tok->kind = SPOOR_JSON_NUMBER;
        p = literal_at(p, end, "NaN", 3) ? p + 3 : NULL;
        break;
    case 'I':
        tok->kind = SPOOR_JSON_NUMBER;
        p = literal_at(p, end, "Infinity", 8) ? p + 8 : NULL;
        break;
    default:
        if (*p != '-' && (*p < '0' || *p > '9'))
            return NULL;
        tok->kind = SPOOR_JSON_NUMBER;
        if (*p == '-' && literal_at(p + 1, end, "Infinity", 8)) {
            p += 9;
            break;
        }
        p++;
        while (p < end && (unsigned)(*p - '0') < 10) /* the digits first: one compare each */
            p++;
        while (p < end && is_number_char(*p))
            p++;
        break;
    }
    if (p) {
        tok->p = start;
        tok->n = (size_t)(p - start);
    }
    return p;
}

/* The common case of a string at p (just past its quote), found without the
 * look-ahead of scan_string: no backslash before the first quote, and right
 * after it the key's ':' (then == ':'), or a value's '}' or `, "` (then ==
 * ','), after which scan_string closes the string at that quote too. Returns
 * just past that quote (the token set), or NULL: scan_string decides. */
static inline const char *plain_string(const char *p, const char *end, char then, struct spoor_json_tok *tok)
{
    const char *q = find_quote_or_backslash(p, end);
    if (end - q < 2 || *q != '"')
        return NULL;
    bool closes = then == ':' ? q[1] == ':'
                              : q[1] == '}' || (q[1] == ',' && end - q >= 4 && q[2] == ' ' && q[3] == '"');
    if (!closes)
        return NULL;
    tok->kind = SPOOR_JSON_STRING;
    tok->p = p;
    tok->n = (size_t)(q - p);
    tok->has_escape = false;
    return q + 1;
}

void spoor_json_iter_init(struct spoor_json_iter *it, const char *obj, const char *end)
{
    const char *p = skip_ws(obj, end);
    it->end = end;
    it->failed = p == end || *p != '{';
    it->p = it->failed ? p : p + 1;
}

static int fail(struct spoor_json_iter *it)
{
    it->failed = true;
    return -1;
}

int spoor_json_next(struct spoor_json_iter *it, struct spoor_json_tok *key, struct spoor_json_tok *val)
{
    if (it->failed)
        return -1;
    const char *end = it->end;
    const char *p = skip_ws(it->p, end);
    if (p == end)
        return fail(it);
    if (*p == '}') {
        it->p = p + 1;
        it->failed = false;
        return 0;
    }
    if (*p != '"')
        return fail(it);
    const char *k = plain_string(p + 1, end, ':', key);
    if (!k) {
        k = scan_string(p + 1, end, ROLE_KEY, key);
        if (!k)
            return fail(it);
        k = skip_ws(k, end);
        if (k == end || *k != ':')
            return fail(it);
    }
    p = skip_ws(k + 1, end);
    const char *v = p < end && *p == '"' ? plain_string(p + 1, end, ',', val) : NULL;
    p = v ? v : scan_value(p, end, val);
    if (!p)
        return fail(it);
    p = skip_ws(p, end);
    if (p < end && *p == ',')
        p++;
    else if (p == end || *p != '}')
        return fail(it);
    it->p = p;
    return 1;
}

/* ---- decoding ---- */

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c |= 0x20;
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static long hex4(const char *p, const char *end)
{
    if (end - p < 4)
        return -1;
    long v = 0;
    for (int i = 0; i < 4; i++) {
        int d = hex_digit(p[i]);
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

static size_t put_utf8(char *out, unsigned long cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

enum { REPLACEMENT = 0xFFFD };

/* Output never outgrows input: \uXXXX (6 bytes) gives at most 3, a surrogate
 * pair (12) gives 4, a lone surrogate (6) gives U+FFFD (3). */
size_t spoor_json_unescape(const char *p, size_t n, char *out)
{
    const char *end = p + n;
    size_t o = 0;
    while (p < end) {
        const char *bs = memchr(p, '\\', (size_t)(end - p));
        size_t plain = (size_t)((bs ? bs : end) - p);
        memmove(out + o, p, plain);
        o += plain;
        p += plain;
        if (!bs)
            break;
        if (p + 1 == end) {
            out[o++] = '\\';
            break;
        }
        char c = p[1];
        char simple = c == '"' ? '"' : c == '\\' ? '\\' : c == '/' ? '/' : c == 'b' ? '\b' : c == 'f' ? '\f'
                    : c == 'n' ? '\n' : c == 'r' ? '\r' : c == 't' ? '\t' : 0;
        if (simple) {
            out[o++] = simple;
            p += 2;
            continue;
        }
        long cp = c == 'u' ? hex4(p + 2, end) : -1;
        if (cp < 0) {
            /* not an escape: keep both bytes as they were written */
            out[o++] = '\\';
            out[o++] = c;
            p += 2;
            continue;
        }
        p += 6;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            long lo = end - p >= 6 && p[0] == '\\' && p[1] == 'u' ? hex4(p + 2, end) : -1;
            if (lo >= 0xDC00 && lo <= 0xDFFF) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                p += 6;
            } else {
                cp = REPLACEMENT;
            }
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            cp = REPLACEMENT;
        }
        o += put_utf8(out + o, (unsigned long)cp);
    }
    return o;
}

/* Length of the valid UTF-8 sequence at p, or 0 when it is invalid
 * (overlong forms, surrogates and code points past U+10FFFF included). */
static size_t utf8_seq_len(const unsigned char *p, const unsigned char *end)
{
    unsigned char c = p[0];
    size_t need;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        need = 1;
    else if (c >= 0xE0 && c <= 0xEF) {
        need = 2;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        need = 3;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else {
        return 0;
    }
    if ((size_t)(end - p) <= need || p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i <= need; i++)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    return need + 1;
}

static bool is_ascii(const char *p, size_t n)
{
    uint64_t acc = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        acc |= w;
    }
    for (; i < n; i++)
        acc |= (unsigned char)p[i];
    return (acc & 0x8080808080808080ULL) == 0;
}

static bool utf8_valid(const char *p, size_t n)
{
    if (is_ascii(p, n))
        return true;
    const unsigned char *u = (const unsigned char *)p, *end = u + n;
    while (u < end) {
        size_t k = utf8_seq_len(u, end);
        if (!k)
            return false;
        u += k;
    }
    return true;
}

/* Copies p..n to out replacing each invalid byte by U+FFFD (out holds 3n). */
static size_t utf8_repair(const char *p, size_t n, char *out)
{
    const unsigned char *u = (const unsigned char *)p, *end = u + n;
    size_t o = 0;
    while (u < end) {
        size_t k = utf8_seq_len(u, end);
        if (k) {
            memcpy(out + o, u, k);
            o += k;
            u += k;
        } else {
            o += put_utf8(out + o, REPLACEMENT);
            u++;
        }
    }
    return o;
}

/* Interns a string token's text: escapes decoded, invalid UTF-8 replaced. */
static uint32_t intern_string(struct spoor_table *t, const char *p, size_t n, bool has_escape,
                              struct spoor_string_memo *memo)
{
    if (!has_escape && is_ascii(p, n))
        return memo ? spoor_memo_intern(memo, t, p, n) : spoor_table_intern(t, p, n);
    char stack[2048];
    size_t need = 4 * n;
    char *buf = need <= sizeof stack ? stack : spoor_xmalloc(need);
    const char *s = p;
    size_t m = n;
    if (has_escape) {
        m = spoor_json_unescape(p, n, buf);
        s = buf;
    }
    if (!utf8_valid(s, m)) {
        m = utf8_repair(s, m, buf + n);
        s = buf + n;
    }
    uint32_t id = spoor_table_intern(t, s, m);
    if (buf != stack)
        free(buf);
    return id;
}

/* ---- numbers ---- */

bool spoor_json_int64(const char *p, size_t n, int64_t *out)
{
    const char *end = p + n;
    bool neg = p < end && *p == '-';
    if (neg)
        p++;
    if (p == end)
        return false;
    while (end - p > 1 && *p == '0')
        p++;
    if (end - p > 19)
        return false;
    uint64_t v = 0;
    for (uint64_t w; end - p >= 8 && (w = spoor_get64((const uint8_t *)p), spoor_digits8(w) == 8); p += 8)
        v = v * 100000000 + spoor_digits8_value(w, 8); /* at most 19 digits: no overflow */
    for (; p < end; p++) {
        unsigned d = (unsigned)(*p - '0');
        if (d > 9)
            return false;
        v = v * 10 + d;
    }
    if (v > (uint64_t)INT64_MAX + neg)
        return false;
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return true;
}

bool spoor_json_double(const char *p, size_t n, double *out)
{
    char buf[128];
    if (n == 0 || n >= sizeof buf)
        return false;
    if (n == 3 && memcmp(p, "NaN", 3) == 0) {
        *out = NAN;
        return true;
    }
    bool neg = *p == '-';
    if (n == 8u + neg && memcmp(p + neg, "Infinity", 8) == 0) {
        *out = neg ? -INFINITY : INFINITY;
        return true;
    }
    /* Most numbers have at most 15 digits and no exponent: one exact
     * division gives strtod's correctly rounded value (wall_clock.c). */
    if (spoor_plain_decimal(p, n, out))
        return true;
    /* Only JSON number spellings: strtod alone would also take "0x1p3", "inf". */
    for (size_t i = 0; i < n; i++)
        if (!is_number_char(p[i]))
            return false;
    memcpy(buf, p, n);
    buf[n] = '\0';
    char *e;
    double d = strtod(buf, &e);
    if (e != buf + n)
        return false;
    *out = d;
    return true;
}

/* A number spelled like one: digits with at most a sign, point and exponent. */
static bool looks_numeric(const char *p, size_t n)
{
    if (n == 0)
        return false;
    size_t i = *p == '-' ? 1 : 0;
    if (i == n || p[i] < '0' || p[i] > '9')
        return false;
    for (; i < n; i++)
        if (!is_number_char(p[i]))
            return false;
    return true;
}

/* Sets v from numeric text; false when it is not a number we can hold. */
static bool number_value(const char *p, size_t n, struct spoor_value *v)
{
    if (spoor_json_int64(p, n, &v->i64)) {
        v->type = SPOOR_I64;
        return true;
    }
    /* An integer too wide for int64 is a hash or an id: text, never rounded. */
    size_t digits = *p == '-' ? 1 : 0;
    while (digits < n && p[digits] >= '0' && p[digits] <= '9')
        digits++;
    if (digits == n)
        return false;
    if (spoor_json_double(p, n, &v->f64)) {
        v->type = SPOOR_F64;
        return true;
    }
    return false;
}

void spoor_json_to_value(struct spoor_table *t, const struct spoor_json_tok *tok, bool quoted_numbers,
                         struct spoor_string_memo *memo, struct spoor_value *v)
{
    v->is_null = false;
    v->text = tok->p;
    v->text_len = tok->n;
    switch (tok->kind) {
    case SPOOR_JSON_STRING:
        if (quoted_numbers && !tok->has_escape && looks_numeric(tok->p, tok->n) &&
            number_value(tok->p, tok->n, v))
            return;
        v->type = SPOOR_STR;
        v->str = intern_string(t, tok->p, tok->n, tok->has_escape, memo);
        return;
    case SPOOR_JSON_NUMBER:
        if (number_value(tok->p, tok->n, v))
            return;
        break;
    case SPOOR_JSON_TRUE:
    case SPOOR_JSON_FALSE:
        v->type = SPOOR_I64;
        v->i64 = tok->kind == SPOOR_JSON_TRUE;
        return;
    case SPOOR_JSON_NULL:
        v->type = SPOOR_I64;
        v->is_null = true;
        return;
    case SPOOR_JSON_OBJECT:
    case SPOOR_JSON_ARRAY:
        break;
    }
    v->type = SPOOR_STR;
    v->str = intern_string(t, tok->p, tok->n, false, NULL);
}
