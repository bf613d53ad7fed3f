/* Varints and records of the SQLite file format: a record is a header (its
 * own size, then one serial type per value) followed by the values, integers
 * big-endian in the fewest bytes, reals as 8-byte IEEE, text as bytes. */
#include "out/sqlite_file.h"
#include "spoor/error.h"

#include <stdlib.h>
#include <string.h>

void sqlf_buf_reserve(struct sqlf_buf *b, size_t n)
{
    if (b->len + n <= b->cap)
        return;
    b->cap = (b->len + n) * 2 + 64;
    b->p = spoor_xrealloc(b->p, b->cap);
}

void sqlf_buf_free(struct sqlf_buf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

/* Big-endian, 7 bits a byte with the high bit meaning "more", except that a
 * ninth byte carries 8 bits. */
size_t sqlf_varint(uint8_t *out, uint64_t v)
{
    if (v < 0x80) { /* most serial types and lengths */
        out[0] = (uint8_t)v;
        return 1;
    }
    if (v >> 56) {
        out[8] = (uint8_t)v;
        v >>= 8;
        for (int i = 7; i >= 0; i--, v >>= 7)
            out[i] = (uint8_t)((v & 0x7f) | 0x80);
        return 9;
    }
    uint8_t tmp[9];
    size_t n = 0;
    do {
        tmp[n++] = (uint8_t)((v & 0x7f) | 0x80);
        v >>= 7;
    } while (v);
    tmp[0] &= 0x7f;
    for (size_t i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    return n;
}

size_t sqlf_varint_len(uint64_t v)
{
    if (v < 0x80)
        return 1;
    size_t n = 1;
    while (n < 9 && v >> (7 * n))
        n++;
    return v >> 56 ? 9 : n;
}

void sqlf_record_clear(struct sqlf_record *r)
{
    r->types.len = r->body.len = r->types_used = 0;
}

void sqlf_record_free(struct sqlf_record *r)
{
    sqlf_buf_free(&r->types);
    sqlf_buf_free(&r->body);
}

static void put_type(struct sqlf_record *r, uint64_t type)
{
    if (r->types.len + 9 > r->types.cap)
        sqlf_buf_reserve(&r->types, 9);
    r->types.len += sqlf_varint(r->types.p + r->types.len, type);
    if (type)
        r->types_used = r->types.len;
}

/* The n low bytes of v, big-endian: one 8-byte store, then the length moves
 * by n (the buffer keeps 8 bytes of room). */
static void put_be(struct sqlf_record *r, uint64_t v, size_t n)
{
    if (r->body.len + 8 > r->body.cap)
        sqlf_buf_reserve(&r->body, 8);
    uint64_t be = __builtin_bswap64(v << (8 * (8 - n)));
    memcpy(r->body.p + r->body.len, &be, 8);
    r->body.len += n;
}

void sqlf_record_null(struct sqlf_record *r)
{
    put_type(r, 0);
}

void sqlf_record_int(struct sqlf_record *r, int64_t v)
{
    if (v == 0 || v == 1) {     /* serial types 8 and 9: no body (schema format 4) */
        put_type(r, (uint64_t)(8 + v));
        return;
    }
    /* Serial types 1-6 hold 1, 2, 3, 4, 6 and 8 bytes; the magnitude (as
     * v ^ v >> 63, so -128 fits a byte like 127) picks the smallest. */
    static const uint8_t type_of_bytes[9] = {1, 1, 2, 3, 4, 5, 5, 6, 6};
    static const uint8_t width[7] = {0, 1, 2, 3, 4, 6, 8};
    uint64_t m = (uint64_t)(v ^ (v >> 63));
    int bytes = m ? (64 - __builtin_clzll(m) + 1 + 7) / 8 : 1;  /* with the sign bit */
    uint8_t t = type_of_bytes[bytes];
    put_type(r, t);
    put_be(r, (uint64_t)v, width[t]);
}

void sqlf_record_real(struct sqlf_record *r, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, 8);
    put_type(r, 7);
    put_be(r, bits, 8);
}

void sqlf_record_text(struct sqlf_record *r, const char *s, size_t len)
{
    put_type(r, 13 + 2 * (uint64_t)len);
    if (!len)
        return;
    sqlf_buf_reserve(&r->body, len);
    memcpy(r->body.p + r->body.len, s, len);
    r->body.len += len;
}

size_t sqlf_record_header_len(size_t types)
{
    size_t head = types + 1;    /* the header's size counts its own varint */
    while (sqlf_varint_len(head) + types != head)
        head = types + sqlf_varint_len(head);
    return head;
}

void sqlf_record_finish(const struct sqlf_record *r, struct sqlf_buf *out)
{
    size_t types = r->types_used;
    size_t head = sqlf_record_header_len(types);
    out->len = 0;
    sqlf_buf_reserve(out, head + r->body.len);
    size_t n = sqlf_varint(out->p, head);
    if (types)              /* an all-NULL record has no types, and maybe no buffers */
        memcpy(out->p + n, r->types.p, types);
    if (r->body.len)
        memcpy(out->p + head, r->body.p, r->body.len);
    out->len = head + r->body.len;
}
