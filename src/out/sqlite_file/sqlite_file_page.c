/* B-tree pages being filled, and cells with the part of their payload that
 * spills to overflow pages. */
#include "out/sqlite_file/sqlite_file_pages.h"

#include "spoor/error.h"

#include <stdlib.h>
#include <string.h>

enum {
    USABLE = SQLF_PAGE,                             /* no reserved bytes per page */
    INDEX_MAX_LOCAL = SQLF_INDEX_MAX_LOCAL,
    TABLE_MAX_LOCAL = SQLF_TABLE_MAX_LOCAL,
    MIN_LOCAL = (USABLE - 12) * 32 / 255 - 23,
    OVERFLOW_DATA = USABLE - 4,                     /* after the next-page pointer */
    MIN_CELL = 4,                                   /* SQLite counts smaller cells as 4 bytes */
};

static void put_u16(uint8_t *p, size_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (24 - 8 * i));
}

static bool interior(enum sqlf_kind kind)
{
    return kind == SQLF_INDEX_INTERIOR || kind == SQLF_TABLE_INTERIOR;
}

/* The page's bytes are not cleared here (4 KiB a page): the cells cover
 * theirs, sqlf_page_add clears a short cell's padding and sqlf_page_seal
 * the header and the free space between pointers and cells. */
void sqlf_page_start(struct sqlf_page *p, uint8_t *data, enum sqlf_kind kind, size_t reserve)
{
    p->data = data;
    p->kind = kind;
    p->header = 0;
    p->pointers = sqlf_page_header_len(kind);
    p->reserve = reserve;
    p->ncells = 0;
    p->content = SQLF_PAGE;
}

void sqlf_page_seal(struct sqlf_page *p, uint32_t right)
{
    uint8_t *h = p->data + p->header;
    size_t free_from = p->pointers + 2 * p->ncells;
    memset(h, 0, sqlf_page_header_len(p->kind));
    memset(p->data + free_from, 0, p->content - free_from);
    h[0] = (uint8_t)p->kind;
    put_u16(h + 3, p->ncells);
    put_u16(h + 5, p->content);
    if (interior(p->kind))
        put_u32(h + 8, right);
}

void sqlf_page_to_page1(struct sqlf_page *p)
{
    size_t n = sqlf_page_header_len(p->kind) + 2 * p->ncells;
    memmove(p->data + 100, p->data, n);
    memset(p->data, 0, 100);
    p->header = 100;
    p->pointers = 100 + sqlf_page_header_len(p->kind);
}

/* How much of an n-byte payload stays in the cell (the spec's X, M, K). */
static size_t local_len(enum sqlf_kind kind, size_t n)
{
    size_t max = kind == SQLF_TABLE_LEAF ? TABLE_MAX_LOCAL : INDEX_MAX_LOCAL;
    if (n <= max)
        return n;
    size_t k = MIN_LOCAL + (n - MIN_LOCAL) % OVERFLOW_DATA;
    return k <= max ? k : MIN_LOCAL;
}

size_t sqlf_cell_len_any(enum sqlf_kind kind, size_t n, uint64_t rowid)
{
    if (kind == SQLF_TABLE_INTERIOR)
        return 4 + sqlf_varint_len(rowid);
    size_t local = local_len(kind, n);
    size_t len = sqlf_varint_len(n) + local + (local < n ? 4 : 0);
    if (kind == SQLF_TABLE_LEAF)
        len += sqlf_varint_len(rowid);
    if (kind == SQLF_INDEX_INTERIOR)
        len += 4;
    return len < MIN_CELL ? MIN_CELL : len;
}

/* Writes the overflow chain of what follows the local part, on consecutive
 * pages; returns its first page. */
static uint32_t write_overflow(struct sqlf_file *f, const uint8_t *rest, size_t n)
{
    size_t count = (n + OVERFLOW_DATA - 1) / OVERFLOW_DATA;
    uint8_t *pages = spoor_xcalloc(count, SQLF_PAGE);
    uint32_t first = sqlf_file_claim(f, count);
    for (size_t i = 0; i < count; i++) {
        size_t take = n < OVERFLOW_DATA ? n : OVERFLOW_DATA;
        put_u32(pages + i * SQLF_PAGE, i + 1 < count ? first + (uint32_t)i + 1 : 0);
        memcpy(pages + i * SQLF_PAGE + 4, rest, take);
        rest += take;
        n -= take;
    }
    sqlf_file_write(f, first, pages, count);
    free(pages);
    return first;
}

void sqlf_cell_write_any(struct sqlf_file *f, uint8_t *cell, enum sqlf_kind kind, uint32_t child, uint64_t rowid,
                         const uint8_t *payload, size_t n)
{
    if (interior(kind)) {
        put_u32(cell, child);
        cell += 4;
        if (kind == SQLF_TABLE_INTERIOR) {
            sqlf_varint(cell, rowid);
            return;
        }
    }
    cell += sqlf_varint(cell, n);
    if (kind == SQLF_TABLE_LEAF)
        cell += sqlf_varint(cell, rowid);
    size_t local = local_len(kind, n);
    memcpy(cell, payload, local);
    if (local < n)
        put_u32(cell + local, write_overflow(f, payload + local, n - local));
}
