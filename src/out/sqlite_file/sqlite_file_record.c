/* Varints and records of the SQLite file format: a record is a header (its
 * own size, then one serial type per value) followed by the values, integers
 * big-endian in the fewest bytes, reals as 8-byte IEEE, text as bytes. */
#include "out/sqlite_file/sqlite_file.h"
#include "spoor/error.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>

void sqlf_buf_grow(struct sqlf_buf *b, size_t n) { spoor_reserve_to((void **)&b->p, &b->cap, b->len + n, 1); }

void sqlf_buf_free(struct sqlf_buf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

/* Big-endian, 7 bits a byte with the high bit meaning "more", except that a
 * ninth byte carries 8 bits. */
size_t sqlf_varint_long(uint8_t *out, uint64_t v)
{
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

void sqlf_record_free(struct sqlf_record *r)
{
    sqlf_buf_free(&r->types);
    sqlf_buf_free(&r->body);
}

void sqlf_record_write(const struct sqlf_record *r, uint8_t *out)
{
    size_t types = r->types_used;
    size_t head = sqlf_record_header_len(types);
    size_t n = sqlf_varint(out, head);
    if (types)              /* an all-NULL record has no types, and maybe no buffers */
        memcpy(out + n, r->types.p, types);
    if (r->body.len)
        memcpy(out + head, r->body.p, r->body.len);
}

void sqlf_record_finish(const struct sqlf_record *r, struct sqlf_buf *out)
{
    out->len = 0;
    sqlf_buf_reserve(out, sqlf_record_len(r));
    sqlf_record_write(r, out->p);
    out->len = sqlf_record_len(r);
}
