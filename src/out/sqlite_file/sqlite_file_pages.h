/* Inside the SQLite file writer: the file's page numbers and writes, the
 * sinks that append pages, pages and cells (sqlite_file_io.c,
 * sqlite_file_page.c). Only sqlite_file_*.c include this. */
#ifndef SPOOR_SQLITE_FILE_PAGES_H
#define SPOOR_SQLITE_FILE_PAGES_H

#include "out/sqlite_file/sqlite_file.h"

/* Hands out n consecutive page numbers (thread-safe); returns the first. */
uint32_t sqlf_file_claim(struct sqlf_file *f, size_t n);
/* Writes n pages from page number first on (thread-safe). */
void sqlf_file_write(struct sqlf_file *f, uint32_t first, const uint8_t *pages, size_t n);
/* Writes the freelist's trunk pages (every sink finished); returns the
 * first trunk (0: none) and the number of freelist pages in count. */
uint32_t sqlf_file_freelist(struct sqlf_file *f, uint32_t *count);
/* Writes page 1 and closes. */
int sqlf_file_close(struct sqlf_file *f, const uint8_t *page1, struct spoor_error *err);

/* Appends pages to a file in blocks of numbers of its own, so that several
 * sinks (one thread each) can write one file at once. A page is built in
 * its place in the block (no copy of each 4 KiB into it). */
void sqlf_sink_start(struct sqlf_sink *s, struct sqlf_file *f);
/* Where the next page is built (the same place until it is appended). */
uint8_t *sqlf_sink_page(struct sqlf_sink *s);
/* Appends the page built at sqlf_sink_page's place; returns its number. */
uint32_t sqlf_sink_append(struct sqlf_sink *s);
/* Writes what is buffered; numbers not used go back or to the freelist. */
void sqlf_sink_finish(struct sqlf_sink *s);

void sqlf_page_start(struct sqlf_page *p, uint8_t *data, enum sqlf_kind kind, size_t reserve);
static inline size_t sqlf_page_header_len(enum sqlf_kind kind)
{
    return kind == SQLF_INDEX_INTERIOR || kind == SQLF_TABLE_INTERIOR ? 12 : 8;
}

static inline bool sqlf_page_fits(const struct sqlf_page *p, size_t cell_len)
{
    size_t used = p->pointers + 2 * p->ncells + p->reserve;
    return used + 2 + cell_len <= p->content;
}

/* Room for a cell of cell_len bytes; fill it (sqlf_page_fits was true). */
static inline uint8_t *sqlf_page_add(struct sqlf_page *p, size_t cell_len)
{
    p->content -= cell_len;
    if (cell_len <= 4)      /* maybe padded to SQLite's smallest cell: no stale bytes */
        memset(p->data + p->content, 0, cell_len);
    uint8_t *ptr = p->data + p->pointers + 2 * p->ncells;
    ptr[0] = (uint8_t)(p->content >> 8);
    ptr[1] = (uint8_t)p->content;
    p->ncells++;
    return p->data + p->content;
}
/* Writes the header (right: the right-most child of an interior page). */
void sqlf_page_seal(struct sqlf_page *p, uint32_t right);
/* Moves a sealed page's header and pointers 100 bytes down, for page 1. */
void sqlf_page_to_page1(struct sqlf_page *p);

/* The most payload a leaf cell keeps on its page (the spec's X). */
enum { SQLF_INDEX_MAX_LOCAL = (SQLF_PAGE - 12) * 64 / 255 - 23, SQLF_TABLE_MAX_LOCAL = SQLF_PAGE - 35 };

/* The size of a cell holding a payload of n bytes (plus a 4-byte child for
 * interior index cells, a rowid for table leaves), overflow pointer included. */
size_t sqlf_cell_len_any(enum sqlf_kind kind, size_t n, uint64_t rowid);
/* Fills a cell of that size, writing the payload's overflow pages to f first. */
void sqlf_cell_write_any(struct sqlf_file *f, uint8_t *cell, enum sqlf_kind kind, uint32_t child, uint64_t rowid,
                         const uint8_t *payload, size_t n);

/* Inline, the usual case: a leaf cell whose payload stays on its page. */
static inline bool sqlf_cell_local(enum sqlf_kind kind, size_t n)
{
    return (kind == SQLF_INDEX_LEAF && n <= SQLF_INDEX_MAX_LOCAL) || (kind == SQLF_TABLE_LEAF && n <= SQLF_TABLE_MAX_LOCAL);
}

static inline size_t sqlf_cell_len(enum sqlf_kind kind, size_t n, uint64_t rowid)
{
    if (!sqlf_cell_local(kind, n))
        return sqlf_cell_len_any(kind, n, rowid);
    size_t len = sqlf_varint_len(n) + n + (kind == SQLF_TABLE_LEAF ? sqlf_varint_len(rowid) : 0);
    return len < 4 ? 4 : len;   /* SQLite counts smaller cells as 4 bytes */
}

static inline void sqlf_cell_write(struct sqlf_file *f, uint8_t *cell, enum sqlf_kind kind, uint32_t child,
                                   uint64_t rowid, const uint8_t *payload, size_t n)
{
    if (!sqlf_cell_local(kind, n)) {
        sqlf_cell_write_any(f, cell, kind, child, rowid, payload, n);
        return;
    }
    cell += sqlf_varint(cell, n);
    if (kind == SQLF_TABLE_LEAF)
        cell += sqlf_varint(cell, rowid);
    memcpy(cell, payload, n);
}

#endif
