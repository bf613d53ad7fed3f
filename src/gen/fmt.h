/* Hand-rolled decimal formatting for the generator's hot loop: printf would
 * cost more than everything else together. Each function writes the digits at
 * dst (no NUL) and returns how many it wrote. */
#ifndef SPOOR_GEN_FMT_H
#define SPOOR_GEN_FMT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum { GEN_FMT_U128_MAX = 39 };

size_t gen_fmt_u64(char *dst, uint64_t v);
size_t gen_fmt_i64(char *dst, int64_t v);
/* The 128-bit unsigned integer hi * 2^64 + lo. */
size_t gen_fmt_u128(char *dst, uint64_t hi, uint64_t lo);

/* An output buffer filled line by line; the caller reserves room for a whole
 * line (GEN_LINE_MAX) before appending, so appenders never check. */
enum { GEN_LINE_MAX = 1024 };

struct gen_buf {
    char *data;
    size_t len, cap;
};

static inline void gen_buf_put(struct gen_buf *b, const char *s, size_t n)
{
    memcpy(b->data + b->len, s, n);
    b->len += n;
}

/* Appends a string literal without measuring it at run time. */
#define GEN_BUF_LIT(b, lit) gen_buf_put((b), (lit), sizeof(lit) - 1)

static inline void gen_buf_u64(struct gen_buf *b, uint64_t v) { b->len += gen_fmt_u64(b->data + b->len, v); }
static inline void gen_buf_i64(struct gen_buf *b, int64_t v) { b->len += gen_fmt_i64(b->data + b->len, v); }

#endif
