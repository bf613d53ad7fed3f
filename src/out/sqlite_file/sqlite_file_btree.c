/* B-trees built bottom-up: pages are filled left to right and written as
 * they fill, then each level above is built from the one below.
 *
 * A table b-tree keeps every row in its leaves; an interior cell is (child,
 * largest rowid in it). An index b-tree holds each key once: when a page is
 * full, the key that did not fit goes up as the separator between it and the
 * next page. Interior levels of both work alike: keys k[0..n) sit between
 * children c[0..n]; a page takes cells (c[i], k[i]), the child after its last
 * cell becomes its right-most pointer and the key after that goes up. No page
 * may be left without a cell, so the last key is never promoted alone. */
#include "out/sqlite_file/sqlite_file_pages.h"
#include "spoor/error.h"

#include <stdlib.h>
#include <string.h>

enum { PAGE1_HEADER = 100 };

/* A level of keys between children (children NULL: index leaves; keys NULL:
 * the keys are 0..n-1, the entries in order). */
struct level {
    uint32_t *children;
    uint64_t *keys;
    size_t n, cap;
};

struct builder {
    struct sqlf_file *f;
    struct sqlf_sink *sink;
    bool on_page1;
    uint8_t *page1;             /* on_page1: where the root page's bytes are left */
    sqlf_entry_fn record;
    void *ctx;
    struct sqlf_buf cur, next;  /* payloads of the key being placed and the one after */
    struct sqlf_page page;
};

static void push(struct level *l, uint32_t child, uint64_t key, bool with_key)
{
    if (l->n + 2 > l->cap) {
        l->cap = l->cap * 2 + 16;
        l->children = spoor_xrealloc(l->children, l->cap * sizeof *l->children);
        l->keys = spoor_xrealloc(l->keys, l->cap * sizeof *l->keys);
    }
    l->children[l->n] = child;
    if (with_key)
        l->keys[l->n++] = key;
}

static void level_free(struct level *l)
{
    free(l->children);
    free(l->keys);
}

/* The cell length of key i of `in` at a page of this kind, its payload in buf. */
static inline __attribute__((always_inline)) size_t item_len(struct builder *b, enum sqlf_kind kind, const struct level *in, size_t i,
                       struct sqlf_buf *buf)
{
    uint64_t key = in->keys ? in->keys[i] : i;
    if (kind == SQLF_TABLE_INTERIOR)
        return sqlf_cell_len(kind, 0, key);
    b->record(b->ctx, (size_t)key, buf);
    return sqlf_cell_len(kind, buf->len, 0);
}

/* Writes the page; the root stays in memory when it belongs on page 1. */
static uint32_t close_page(struct builder *b, uint32_t right, bool root)
{
    sqlf_page_seal(&b->page, right);
    if (root && b->on_page1) {
        sqlf_page_to_page1(&b->page);
        memcpy(b->page1, b->page.data, SQLF_PAGE);
        return 1;
    }
    return sqlf_sink_append(b->sink);
}

/* Packs one level into pages; out receives them and the keys between them. */
static inline __attribute__((always_inline)) void build_level_of(struct builder *b, enum sqlf_kind kind,
                                                                const struct level *in, struct level *out)
{
    size_t reserve = b->on_page1 ? PAGE1_HEADER : 0;
    sqlf_page_start(&b->page, sqlf_sink_page(b->sink), kind, reserve);
    bool have_next = false;
    for (size_t i = 0; i < in->n; i++) {
        uint32_t child = in->children ? in->children[i] : 0;
        size_t len;
        if (have_next) {
            struct sqlf_buf t = b->cur;
            b->cur = b->next;
            b->next = t;
            len = kind == SQLF_TABLE_INTERIOR ? sqlf_cell_len(kind, 0, in->keys[i]) : sqlf_cell_len(kind, b->cur.len, 0);
            have_next = false;
        } else {
            len = item_len(b, kind, in, i, &b->cur);
        }
        bool split = !sqlf_page_fits(&b->page, len);
        if (!split && i + 2 == in->n) {
            /* The last key must not go up alone: it would leave the last page empty. */
            size_t next_len = item_len(b, kind, in, i + 1, &b->next);
            have_next = true;
            split = !sqlf_page_fits(&b->page, len + 2 + next_len);
        }
        uint64_t key = in->keys ? in->keys[i] : i;
        if (split) {
            push(out, close_page(b, child, false), key, true);
            sqlf_page_start(&b->page, sqlf_sink_page(b->sink), kind, reserve);
            continue;
        }
        uint8_t *cell = sqlf_page_add(&b->page, len);
        sqlf_cell_write(b->f, cell, kind, child, key, b->cur.p, b->cur.len);
    }
    uint32_t right = in->children ? in->children[in->n] : 0;
    push(out, close_page(b, right, out->n == 0), 0, false);
}

/* Index leaves (an entry a row) get a copy of their own, the kind a
 * constant: its tests fold away in the loop over every entry. */
static void build_level(struct builder *b, enum sqlf_kind kind, const struct level *in, struct level *out)
{
    if (kind == SQLF_INDEX_LEAF)
        build_level_of(b, SQLF_INDEX_LEAF, in, out);
    else
        build_level_of(b, kind, in, out);
}

/* Builds the levels above `level` (whose pages are written) up to the root. */
static uint32_t build_up(struct builder *b, enum sqlf_kind kind, struct level *level)
{
    for (;;) {
        struct level up = {0};
        build_level(b, kind, level, &up);
        level_free(level);
        *level = up;
        if (up.n == 0)
            break;
        kind = kind == SQLF_INDEX_LEAF ? SQLF_INDEX_INTERIOR : kind;
    }
    uint32_t root = level->children[0];
    level_free(level);
    sqlf_buf_free(&b->cur);
    sqlf_buf_free(&b->next);
    return root;
}

uint32_t sqlf_index_write(struct sqlf_file *f, size_t n, sqlf_entry_fn record, void *ctx)
{
    struct sqlf_sink sink;
    sqlf_sink_start(&sink, f);
    struct builder b = {.f = f, .sink = &sink, .record = record, .ctx = ctx};
    struct level leaves = {.n = n};
    uint32_t root = build_up(&b, SQLF_INDEX_LEAF, &leaves);
    sqlf_sink_finish(&sink);
    return root;
}

void sqlf_table_start(struct sqlf_table *t, struct sqlf_file *f, bool on_page1)
{
    memset(t, 0, sizeof *t);
    t->f = f;
    sqlf_sink_start(&t->sink, f);
    t->on_page1 = on_page1;
    sqlf_page_start(&t->page, sqlf_sink_page(&t->sink), SQLF_TABLE_LEAF, on_page1 ? PAGE1_HEADER : 0);
}

static void flush_leaf(struct sqlf_table *t)
{
    if (t->nleaves == t->cap) {
        t->cap = t->cap * 2 + 64;
        t->leaves = spoor_xrealloc(t->leaves, t->cap * sizeof *t->leaves);
        t->max_rowid = spoor_xrealloc(t->max_rowid, t->cap * sizeof *t->max_rowid);
    }
    sqlf_page_seal(&t->page, 0);
    t->leaves[t->nleaves] = sqlf_sink_append(&t->sink);
    t->max_rowid[t->nleaves++] = t->last_rowid;
    sqlf_page_start(&t->page, sqlf_sink_page(&t->sink), SQLF_TABLE_LEAF, t->page.reserve);
}

/* Room for the cell of a record of n bytes, on a new leaf if need be. */
static uint8_t *add_cell(struct sqlf_table *t, uint64_t rowid, size_t n)
{
    size_t len = sqlf_cell_len(SQLF_TABLE_LEAF, n, rowid);
    if (!sqlf_page_fits(&t->page, len))
        flush_leaf(t);
    t->last_rowid = rowid;
    return sqlf_page_add(&t->page, len);
}

uint8_t *sqlf_table_place(struct sqlf_table *t, uint64_t rowid, size_t n)
{
    if (!sqlf_cell_local(SQLF_TABLE_LEAF, n))
        return NULL;
    uint8_t *cell = add_cell(t, rowid, n);
    cell += sqlf_varint(cell, n);
    return cell + sqlf_varint(cell, rowid);
}

void sqlf_table_add(struct sqlf_table *t, uint64_t rowid, const uint8_t *record, size_t n)
{
    uint8_t *cell = add_cell(t, rowid, n);
    sqlf_cell_write(t->f, cell, SQLF_TABLE_LEAF, 0, rowid, record, n);
}

uint32_t sqlf_table_finish(struct sqlf_table *t, uint8_t *page1)
{
    struct builder b = {.f = t->f, .sink = &t->sink, .on_page1 = t->on_page1, .page1 = page1};
    uint32_t page;
    if (!t->nleaves) {
        memcpy(&b.page, &t->page, sizeof b.page);
        page = close_page(&b, 0, true);
    } else {
        flush_leaf(t);
        struct level level = {.children = t->leaves, .keys = t->max_rowid, .n = t->nleaves - 1};
        t->leaves = NULL;
        t->max_rowid = NULL;
        page = build_up(&b, SQLF_TABLE_INTERIOR, &level);
    }
    sqlf_sink_finish(&t->sink);
    sqlf_table_free(t);
    return page;
}

void sqlf_table_free(struct sqlf_table *t)
{
    free(t->sink.buf);
    t->sink.buf = NULL;
    free(t->leaves);
    free(t->max_rowid);
    t->leaves = NULL;
    t->max_rowid = NULL;
    t->nleaves = t->cap = 0;
}
