/* Writing an SQLite 3 database file directly, bottom-up, in one pass over
 * sorted data (the format: https://www.sqlite.org/fileformat2.html). Pages
 * are appended in page-number order; page 1 (the header and sqlite_schema)
 * is written last, in place. SQLite's own insert path costs ~1.4 µs a row
 * and its index build as much again; packing pages ourselves costs a few
 * percent of that.
 *
 * This is the folder's one header for its users (the exporter,
 * write_sqlite*.c): records, the events table, indexes, the schema and the
 * sorts. Pages, cells and the sinks that write them are internal
 * (sqlite_file_pages.h). Every database it writes is checked against one
 * written through SQLite's own API (spoor export --via-sqlite,
 * tests/cli/export_sqlite_via.sh). */
#ifndef SPOOR_SQLITE_FILE_H
#define SPOOR_SQLITE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <string.h>

#include "spoor/error.h"

enum { SQLF_PAGE = 4096 };

/* A growable byte buffer. */
struct sqlf_buf {
    uint8_t *p;
    size_t len, cap;
};

void sqlf_buf_grow(struct sqlf_buf *b, size_t n);
void sqlf_buf_free(struct sqlf_buf *b);

/* Room for n more bytes (inline: checked for nearly every value written). */
static inline void sqlf_buf_reserve(struct sqlf_buf *b, size_t n)
{
    if (b->len + n > b->cap)
        sqlf_buf_grow(b, n);
}

/* sqlite_file_record.c: varints and records. */
size_t sqlf_varint_long(uint8_t *out, uint64_t v);

/* Inline: most varints (serial types, lengths, rowids of a leaf's cells)
 * are one to three bytes. */
static inline size_t sqlf_varint(uint8_t *out, uint64_t v)
{
    if (v < 0x80) {
        out[0] = (uint8_t)v;
        return 1;
    }
    if (v < 0x4000) {
        out[0] = (uint8_t)(0x80 | v >> 7);
        out[1] = (uint8_t)(v & 0x7f);
        return 2;
    }
    if (v < 0x200000) {
        out[0] = (uint8_t)(0x80 | v >> 14);
        out[1] = (uint8_t)(0x80 | (v >> 7 & 0x7f));
        out[2] = (uint8_t)(v & 0x7f);
        return 3;
    }
    return sqlf_varint_long(out, v);
}

static inline size_t sqlf_varint_len(uint64_t v)
{
    if (v < 0x80)
        return 1;
    return v >> 56 ? 9 : (size_t)(64 - __builtin_clzll(v) + 6) / 7;
}

/* A record (a row's values) being built: serial types and body apart;
 * trailing NULLs are dropped (a short record reads as NULLs, as after
 * ALTER TABLE ADD COLUMN). */
struct sqlf_record {
    struct sqlf_buf types, body;
    size_t types_used;          /* serial types up to the last non-NULL value */
};

static inline void sqlf_record_clear(struct sqlf_record *r)
{
    r->types.len = r->body.len = r->types_used = 0;
}
void sqlf_record_free(struct sqlf_record *r);

/* Values appended (inline: a few per column of every row). */
static inline void sqlf_put_type(struct sqlf_record *r, uint64_t type)
{
    sqlf_buf_reserve(&r->types, 9);
    if (type < 0x80)
        r->types.p[r->types.len++] = (uint8_t)type;
    else
        r->types.len += sqlf_varint(r->types.p + r->types.len, type);
    if (type)
        r->types_used = r->types.len;
}

/* The n low bytes of v, big-endian: one 8-byte store, then the length moves
 * by n (the buffer keeps 8 bytes of room). */
static inline void sqlf_put_be(struct sqlf_record *r, uint64_t v, size_t n)
{
    sqlf_buf_reserve(&r->body, 8);
    uint64_t be = __builtin_bswap64(v << (8 * (8 - n)));
    memcpy(r->body.p + r->body.len, &be, 8);
    r->body.len += n;
}

static inline void sqlf_record_null(struct sqlf_record *r)
{
    sqlf_put_type(r, 0);
}

/* Bytes of the body of serial types 0-9. */
static const uint8_t sqlf_type_width[10] = {0, 1, 2, 3, 4, 6, 8, 8, 0, 0};

/* An integer's serial type: 8 and 9 for 0 and 1 (no body, schema format 4),
 * else 1-6 holding 1, 2, 3, 4, 6 or 8 bytes; the magnitude (as v ^ v >> 63,
 * so -128 fits a byte like 127) picks the smallest. */
static inline uint8_t sqlf_int_type(int64_t v)
{
    static const uint8_t type_of_bytes[9] = {1, 1, 2, 3, 4, 5, 5, 6, 6};
    if (v == 0 || v == 1)
        return (uint8_t)(8 + v);
    uint64_t m = (uint64_t)(v ^ (v >> 63));
    return type_of_bytes[m ? (64 - __builtin_clzll(m) + 1 + 7) / 8 : 1];   /* with the sign bit */
}

static inline void sqlf_record_int(struct sqlf_record *r, int64_t v)
{
    uint8_t t = sqlf_int_type(v);
    sqlf_put_type(r, t);
    if (t < 8)
        sqlf_put_be(r, (uint64_t)v, sqlf_type_width[t]);
}

static inline void sqlf_record_real(struct sqlf_record *r, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, 8);
    sqlf_put_type(r, 7);
    sqlf_put_be(r, bits, 8);
}

static inline void sqlf_record_text(struct sqlf_record *r, const char *s, size_t len)
{
    sqlf_put_type(r, 13 + 2 * (uint64_t)len);
    if (!len)
        return;
    sqlf_buf_reserve(&r->body, len);
    memcpy(r->body.p + r->body.len, s, len);
    r->body.len += len;
}

/* The size of a record header holding `types` bytes of serial types (it
 * counts its own varint). */
static inline size_t sqlf_record_header_len(size_t types)
{
    size_t head = types + 1;
    while (sqlf_varint_len(head) + types != head)
        head = types + sqlf_varint_len(head);
    return head;
}
/* The serial type of an integer that may be NULL (SPOOR_NULL's value). */
static inline uint8_t sqlf_int_or_null_type(int64_t v, int64_t null)
{
    return v == null ? 0 : sqlf_int_type(v);
}

/* The body of an integer of serial type t at out (its width, big-endian),
 * with one 8-byte store (out has 8 bytes of room); returns the width. */
static inline size_t sqlf_put_int_body(uint8_t *out, int64_t v, uint8_t t)
{
    size_t w = sqlf_type_width[t];
    uint64_t be = __builtin_bswap64(w ? (uint64_t)v << (8 * (8 - w)) : 0);
    memcpy(out, &be, 8);
    return w;
}
/* The size of the record's bytes (header then body). */
static inline size_t sqlf_record_len(const struct sqlf_record *r)
{
    return sqlf_record_header_len(r->types_used) + r->body.len;
}
/* Writes the record's bytes at out (sqlf_record_len of them). */
void sqlf_record_write(const struct sqlf_record *r, uint8_t *out);
/* The record's bytes into out (cleared first). */
void sqlf_record_finish(const struct sqlf_record *r, struct sqlf_buf *out);

/* sqlite_file_io.c: the file and the sinks that write its pages. */
struct sqlf_file {
    int fd;
    bool opened;
    const char *name;           /* for messages */
    pthread_mutex_t mu;         /* guards what follows */
    uint32_t npages;            /* numbers handed out, page 1 included */
    uint32_t *spare;            /* handed out but unused: the freelist */
    size_t nspare;
    int error;                  /* errno of the first failed write */
};

/* Creates path (errors name it name); page 1 is reserved. */
int sqlf_file_open(struct sqlf_file *f, const char *path, const char *name, struct spoor_error *err);
/* Closes without finishing (the caller removes the file). */
void sqlf_file_abort(struct sqlf_file *f);

/* Appends pages to a file (sqlite_file_pages.h); held by value in a table. */
struct sqlf_sink {
    struct sqlf_file *f;
    uint8_t *buf;               /* the block being filled */
    uint32_t first;             /* its first page number (claimed with its first page) */
    size_t used, size;
};

/* B-tree page kinds (the page's first byte). */
enum sqlf_kind {
    SQLF_INDEX_INTERIOR = 2,
    SQLF_TABLE_INTERIOR = 5,
    SQLF_INDEX_LEAF = 10,
    SQLF_TABLE_LEAF = 13,
};

/* A page being filled: cell pointers grow from the header, cells from the end. */
struct sqlf_page {
    uint8_t *data;              /* SQLF_PAGE bytes, in a sink's block */
    enum sqlf_kind kind;
    size_t header;              /* where the b-tree header starts: 0, or 100 on page 1 */
    size_t pointers;            /* where the cell pointers start, after that header */
    size_t reserve;             /* bytes kept free (the root of sqlite_schema moves to page 1) */
    size_t ncells, content;
    size_t last_cell_len;
};

/* sqlite_file_btree.c: b-trees built bottom-up. */

/* A table b-tree fed with rows in rowid order. */
struct sqlf_table {
    struct sqlf_file *f;
    struct sqlf_sink sink;
    struct sqlf_page page;
    bool on_page1;              /* the root goes to page 1 (sqlite_schema) */
    uint32_t *leaves;           /* pages written so far */
    uint64_t *max_rowid;        /* of each leaf */
    size_t nleaves, cap;
    uint64_t last_rowid;
};

void sqlf_table_start(struct sqlf_table *t, struct sqlf_file *f, bool on_page1);
void sqlf_table_add(struct sqlf_table *t, uint64_t rowid, const uint8_t *record, size_t n);
/* Where a record of n bytes with this rowid goes on the current leaf, for
 * the caller to write it there (no copy through a buffer); NULL when it
 * spills to overflow pages: then sqlf_table_add. */
uint8_t *sqlf_table_place(struct sqlf_table *t, uint64_t rowid, size_t n);
/* Writes the rest; returns the root page (1 when on_page1: the page's
 * bytes are then in page1, for the caller to write with the database
 * header). */
uint32_t sqlf_table_finish(struct sqlf_table *t, uint8_t *page1);
/* Frees what an unfinished table holds. */
void sqlf_table_free(struct sqlf_table *t);

/* An index b-tree over n entries given in key order: record(ctx, i, out)
 * writes the record of the i-th. Returns the root page. Several may be
 * written at once, on threads of their own. */
typedef void (*sqlf_entry_fn)(void *ctx, size_t i, struct sqlf_buf *out);
uint32_t sqlf_index_write(struct sqlf_file *f, size_t n, sqlf_entry_fn record, void *ctx);

/* sqlite_file_schema.c: page 1. */
struct sqlf_object {
    const char *type;           /* "table" or "index" */
    const char *name, *table, *sql;
    uint32_t root;
};

/* Writes sqlite_schema (page 1 and any pages it needs) with the header
 * and closes the file. */
int sqlf_finish(struct sqlf_file *f, const struct sqlf_object *objects, size_t n, struct spoor_error *err);

#endif
