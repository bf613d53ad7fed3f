/* The writers' output buffer: large writes, no stdio per value, integers
 * formatted by hand. */
#include "out/write_internal.h"
#include "spoor/error.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

void wbuf_init(struct wbuf *b, FILE *fp, size_t cap)
{
    b->data = spoor_xmalloc(cap);
    b->len = 0;
    b->cap = cap;
    b->fp = fp;
    b->error = 0;
    b->name = NULL;
}

void wbuf_release(struct wbuf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

/* n bytes to the stream, the first failure kept. */
static void write_out(struct wbuf *b, const char *s, size_t n)
{
    if (!b->error && fwrite(s, 1, n, b->fp) != n)
        b->error = errno ? errno : EIO;
}

void wbuf_flush(struct wbuf *b)
{
    if (!b->fp || !b->len)
        return;
    write_out(b, b->data, b->len);
    b->len = 0;
}

void wbuf_write(struct wbuf *b, const char *s, size_t n)
{
    if (!b->fp || n < b->cap / 2) {
        wbuf_put(b, s, n);
        return;
    }
    wbuf_flush(b);
    write_out(b, s, n);
}

void wbuf_reserve(struct wbuf *b, size_t n)
{
    if (b->len + n <= b->cap)
        return;
    wbuf_flush(b);
    if (b->len + n > b->cap) {
        size_t cap = b->cap * 2;
        while (cap < b->len + n)
            cap *= 2;
        b->data = spoor_xrealloc(b->data, cap);
        b->cap = cap;
    }
}

static const char digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* Two digits per division: timestamps have 16 to 19 of them. */
void wbuf_i64(struct wbuf *b, int64_t v)
{
    char tmp[24];
    char *p = tmp + sizeof tmp;
    uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    while (m >= 100) {
        p -= 2;
        memcpy(p, digit_pairs + (m % 100) * 2, 2);
        m /= 100;
    }
    if (m >= 10) {
        p -= 2;
        memcpy(p, digit_pairs + m * 2, 2);
    } else {
        *--p = (char)('0' + m);
    }
    if (v < 0)
        *--p = '-';
    wbuf_put(b, p, (size_t)(tmp + sizeof tmp - p));
}

bool wbuf_f64(struct wbuf *b, double v)
{
    if (!isfinite(v))
        return false;
    if (fabs(v) < 1e15 && v == (double)(int64_t)v) {
        wbuf_i64(b, (int64_t)v);
        return true;
    }
    char tmp[40];
    int n = 0;
    for (int prec = 15; prec <= 17; prec++) {
        n = snprintf(tmp, sizeof tmp, "%.*g", prec, v);
        if (strtod(tmp, NULL) == v)
            break;
    }
    wbuf_put(b, tmp, (size_t)n);
    return true;
}

uint8_t *plain_flags(uint8_t *flags, size_t *cap, size_t keep, size_t n)
{
    if (n > *cap) {
        flags = spoor_xrealloc(flags, n);
        *cap = n;
    }
    if (n > keep)
        memset(flags + keep, 0, n - keep);
    return flags;
}

int wbuf_status(const struct wbuf *b, struct spoor_error *err)
{
    if (!b->error)
        return SPOOR_OK;
    return spoor_fail(err, SPOOR_EIO, "cannot write %s: %s", b->name ? b->name : "stdout", strerror(b->error));
}

int wbuf_finish(struct wbuf *b, struct spoor_error *err)
{
    wbuf_flush(b);
    if (!b->error && b->fp && fflush(b->fp) != 0)
        b->error = errno ? errno : EIO;
    return wbuf_status(b, err);
}

/* ns as µs: the integer part, then up to three decimals without trailing zeros. */
void wbuf_us(struct wbuf *b, int64_t ns)
{
    uint64_t m = ns < 0 ? 0 - (uint64_t)ns : (uint64_t)ns;
    if (ns < 0)
        wbuf_byte(b, '-');
    wbuf_i64(b, (int64_t)(m / 1000));
    unsigned frac = (unsigned)(m % 1000);
    if (!frac)
        return;
    char d[4] = {'.', (char)('0' + frac / 100), (char)('0' + frac / 10 % 10), (char)('0' + frac % 10)};
    size_t n = 4;
    while (d[n - 1] == '0')
        n--;
    wbuf_put(b, d, n);
}

