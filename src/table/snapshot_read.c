/* Reading a snapshot: map it, check everything once (header, directory, every
 * section's crc32, bounds, string ids), then hand out batches that point into
 * the mapping. Anything off makes the whole file unusable: the caller reparses. */
#include "spoor/snapshot.h"
#include "table/internal.h"
#include "table/snapshot_format.h"

#include <fcntl.h>
#include <isa-l/crc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct group {
    const uint8_t *base;
    uint64_t rows;
    uint32_t ncols;
    const uint8_t *col_entries;
};

struct spoor_snapshot {
    const uint8_t *bytes;
    size_t len;
    bool mapped;
    char *source;
    struct spoor_strpool *pool;
    size_t nstrings;
    struct spoor_lookup lookups[SPOOR_LOOKUP_KINDS];
    struct group *groups;
    size_t ngroups;
    const uint8_t *report;
    size_t report_len;
    uint32_t *zeros;            /* the src column of every batch: all from source 0 */
};

static uint32_t get32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static bool header_matches(const uint8_t *h, const struct spoor_snapshot_key *key)
{
    const struct spoor_fingerprint *fp = &key->trace;
    return memcmp(h, SNAP_MAGIC, 8) == 0 && get32(h + 8) == SNAP_VERSION && get32(h + 12) == SNAP_BYTE_ORDER &&
           get64(h + 16) == fp->size && (int64_t)get64(h + 24) == fp->mtime_sec &&
           get32(h + 32) == fp->mtime_nsec && get32(h + 36) == fp->head_crc && get32(h + 40) == fp->tail_crc &&
           get64(h + 48) == key->options;
}

static bool ids_valid(const uint32_t *ids, uint64_t n, size_t nstrings)
{
    uint32_t bad = 0;
    for (uint64_t i = 0; i < n; i++)
        bad |= ids[i] >= nstrings;
    return !bad;
}

static bool read_strings(struct spoor_snapshot *s, const uint8_t *p, uint64_t len)
{
    if (len < 16)
        return false;
    uint64_t n = get64(p), nbytes = get64(p + 8);
    if (n == 0 || n > len / 8 || nbytes > len || 16 + 8 * n + 4 + nbytes != len)
        return false;
    const uint32_t *off = (const uint32_t *)(p + 16);
    const uint32_t *hash = off + n + 1;
    const char *bytes = (const char *)(hash + n);
    if (off[0] != 0 || off[1] != 1 || off[n] != nbytes)
        return false;
    for (uint64_t i = 0; i < n; i++)
        if (off[i + 1] <= off[i] || off[i + 1] > nbytes || bytes[off[i + 1] - 1] != '\0')
            return false;
    s->pool = spoor_strpool_over(bytes, off, hash, n);
    s->nstrings = n;
    return true;
}

static bool read_lookups(struct spoor_snapshot *s, const uint8_t *p, uint64_t len)
{
    uint64_t at = 0;
    for (int k = 0; k < SPOOR_LOOKUP_KINDS; k++) {
        if (len - at < 8)
            return false;
        uint64_t n = get64(p + at);
        at += 8;
        if (n > (len - at) / 8)
            return false;
        const uint32_t *keys = (const uint32_t *)(p + at), *values = keys + n;
        if (!ids_valid(keys, n, s->nstrings) || !ids_valid(values, n, s->nstrings))
            return false;
        for (uint64_t i = 0; i < n; i++)
            spoor_lookup_put(&s->lookups[k], keys[i], values[i]);
        at += 8 * n;
    }
    return at == len;
}

static bool read_group(struct spoor_snapshot *s, const uint8_t *p, uint64_t len, struct group *g)
{
    if (len < SNAP_GROUP_HEAD)
        return false;
    /* Every row takes at least 49 bytes (5 numbers, 2 ids, a phase). */
    uint64_t rows = get64(p);
    uint32_t ncols = get32(p + 8);
    if (rows > len / 49 || ncols > (len - SNAP_GROUP_HEAD) / SNAP_COL_ENTRY)
        return false;
    struct snap_fixed_layout l = snap_fixed_layout(rows, ncols);
    uint64_t total = l.cols;
    for (uint32_t i = 0; i < ncols; i++) {
        const uint8_t *e = p + SNAP_GROUP_HEAD + (size_t)i * SNAP_COL_ENTRY;
        uint32_t name = get32(e), flags = get32(e + 4);
        uint32_t type = flags & 0xff;
        if (name >= s->nstrings || type > SPOOR_STR || (flags >> 8) > 1)
            return false;
        if (type == SPOOR_STR && total + rows * 4 <= len &&
            !ids_valid((const uint32_t *)(p + total), rows, s->nstrings))
            return false;
        total += snap_col_bytes(rows, (enum spoor_type)type);
        if (total > len)
            return false;
    }
    if (total != len || !ids_valid((const uint32_t *)(p + l.name), rows, s->nstrings) ||
        !ids_valid((const uint32_t *)(p + l.cat), rows, s->nstrings))
        return false;
    *g = (struct group){p, rows, ncols, p + SNAP_GROUP_HEAD};
    return true;
}

/* The directory entry i: kind, checked bounds and checksum. */
static bool read_entry(const uint8_t *bytes, uint64_t dir_offset, size_t i, uint32_t *kind, const uint8_t **p,
                       uint64_t *len)
{
    const uint8_t *e = bytes + dir_offset + i * SNAP_DIR_ENTRY;
    uint64_t offset = get64(e + 8);
    *kind = get32(e);
    *len = get64(e + 16);
    if (offset < SNAP_HEADER || offset % SNAP_ALIGN || offset > dir_offset || *len > dir_offset - offset)
        return false;
    *p = bytes + offset;
    return crc32_gzip_refl(0, *p, *len) == get32(e + 4);
}

static bool read_sections(struct spoor_snapshot *s, uint64_t dir_offset, size_t n)
{
    /* Strings first: everything else is checked against their count. */
    const uint8_t *p[SNAP_REPORT + 1] = {0};
    uint64_t len[SNAP_REPORT + 1] = {0};
    s->groups = spoor_xmalloc((n ? n : 1) * sizeof *s->groups);
    for (size_t i = 0; i < n; i++) {
        uint32_t kind;
        const uint8_t *sp;
        uint64_t slen;
        if (!read_entry(s->bytes, dir_offset, i, &kind, &sp, &slen) || kind < SNAP_GROUP || kind > SNAP_REPORT)
            return false;
        if (kind == SNAP_GROUP) {
            s->groups[s->ngroups++] = (struct group){.base = sp, .rows = slen}; /* parsed below */
        } else if (p[kind]) {
            return false;
        } else {
            p[kind] = sp;
            len[kind] = slen;
        }
    }
    if (!p[SNAP_STRINGS] || !p[SNAP_LOOKUPS] || !p[SNAP_REPORT] || !read_strings(s, p[SNAP_STRINGS], len[SNAP_STRINGS]) ||
        !read_lookups(s, p[SNAP_LOOKUPS], len[SNAP_LOOKUPS]))
        return false;
    uint64_t max_rows = 1;
    for (size_t i = 0; i < s->ngroups; i++) {
        struct group *g = &s->groups[i];
        if (!read_group(s, g->base, g->rows, g))
            return false;
        if (g->rows > max_rows)
            max_rows = g->rows;
    }
    s->report = p[SNAP_REPORT];
    s->report_len = len[SNAP_REPORT];
    s->zeros = spoor_xcalloc(max_rows, sizeof *s->zeros);
    return true;
}

struct spoor_snapshot *spoor_snapshot_parse(const uint8_t *bytes, size_t len, const char *source,
                                            const struct spoor_snapshot_key *key)
{
    if (len < SNAP_HEADER || (uintptr_t)bytes % 8 || !header_matches(bytes, key))
        return NULL;
    uint64_t n = get32(bytes + 44), dir_offset = get64(bytes + 56);
    if (dir_offset < SNAP_HEADER || dir_offset > len || n > (len - dir_offset) / SNAP_DIR_ENTRY ||
        dir_offset + n * SNAP_DIR_ENTRY != len)
        return NULL;
    if (crc32_gzip_refl(crc32_gzip_refl(0, bytes, 64), bytes + dir_offset, n * SNAP_DIR_ENTRY) != get32(bytes + 64))
        return NULL;
    struct spoor_snapshot *s = spoor_xcalloc(1, sizeof *s);
    s->bytes = bytes;
    s->len = len;
    s->source = spoor_xstrdup(source);
    if (!read_sections(s, dir_offset, (size_t)n)) {
        spoor_snapshot_close(s);
        return NULL;
    }
    return s;
}

struct spoor_snapshot *spoor_snapshot_open(const char *path, const char *source,
                                           const struct spoor_snapshot_key *key)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    void *map = MAP_FAILED;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= SNAP_HEADER)
        map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return NULL;
    struct spoor_snapshot *s = spoor_snapshot_parse(map, (size_t)st.st_size, source, key);
    if (!s) {
        munmap(map, (size_t)st.st_size);
        return NULL;
    }
    s->mapped = true;
    return s;
}

void spoor_snapshot_close(struct spoor_snapshot *s)
{
    if (!s)
        return;
    if (s->mapped)
        munmap((void *)s->bytes, s->len);
    spoor_strpool_free(s->pool);
    for (int k = 0; k < SPOOR_LOOKUP_KINDS; k++)
        spoor_lookup_release(&s->lookups[k]);
    free(s->groups);
    free(s->zeros);
    free(s->source);
    free(s);
}

size_t spoor_snapshot_nbatches(const struct spoor_snapshot *s) { return s->ngroups; }
const struct spoor_strpool *spoor_snapshot_pool(const struct spoor_snapshot *s) { return s->pool; }

const uint8_t *spoor_snapshot_report(const struct spoor_snapshot *s, size_t *len)
{
    *len = s->report_len;
    return s->report;
}

static bool wanted(const struct spoor_snapshot_cols *cols, uint32_t name)
{
    if (!cols || cols->all)
        return true;
    for (size_t i = 0; i < cols->n; i++)
        if (cols->names[i] == name)
            return true;
    return false;
}

/* The args columns of g that cols asks for, pointing into the mapping. */
static void view_columns(struct spoor_table *t, const struct group *g, const struct snap_fixed_layout *l,
                         const struct spoor_snapshot_cols *cols)
{
    t->cols = spoor_xmalloc((g->ncols ? g->ncols : 1) * sizeof *t->cols);
    uint64_t at = l->cols;
    uint32_t max_name = 0;
    for (uint32_t i = 0; i < g->ncols; i++) {
        uint32_t name = get32(g->col_entries + (size_t)i * SNAP_COL_ENTRY);
        uint32_t flags = get32(g->col_entries + (size_t)i * SNAP_COL_ENTRY + 4);
        enum spoor_type type = (enum spoor_type)(flags & 0xff);
        if (wanted(cols, name)) {
            t->cols[t->ncols++] = (struct spoor_column){
                .name = name,
                .type = type,
                .typed = flags >> 8,
                .data = (void *)(g->base + at),
                .valid = (uint64_t *)(g->base + at + snap_align(g->rows * snap_type_size(type))),
            };
            if (name > max_name)
                max_name = name;
        }
        at += snap_col_bytes(g->rows, type);
    }
    t->cols_cap = t->ncols;
    t->col_by_name_cap = (size_t)max_name + 1;
    t->col_by_name = spoor_xcalloc(t->col_by_name_cap, sizeof *t->col_by_name);
    for (size_t i = 0; i < t->ncols; i++)
        t->col_by_name[t->cols[i].name] = (uint32_t)i + 1;
}

struct spoor_table *spoor_snapshot_batch(const struct spoor_snapshot *s, size_t i,
                                         const struct spoor_snapshot_cols *cols)
{
    const struct group *g = &s->groups[i];
    struct snap_fixed_layout l = snap_fixed_layout(g->rows, g->ncols);
    struct spoor_table *t = spoor_xcalloc(1, sizeof *t);
    t->borrowed = true;
    t->nrows = t->cap = g->rows;
    t->ts = (int64_t *)(g->base + l.ts);
    t->dur = (int64_t *)(g->base + l.dur);
    t->pid = (int64_t *)(g->base + l.pid);
    t->tid = (int64_t *)(g->base + l.tid);
    t->line = (uint64_t *)(g->base + l.line);
    t->name = (uint32_t *)(g->base + l.name);
    t->cat = (uint32_t *)(g->base + l.cat);
    t->ph = (uint8_t *)(g->base + l.ph);
    t->src = s->zeros;
    t->sources = (char **)&s->source;
    t->nsources = 1;
    t->pool = s->pool;
    if (i == 0) /* the input's lookups, as if its first batch had defined them all */
        memcpy(t->lookups, s->lookups, sizeof t->lookups);
    view_columns(t, g, &l, cols);
    return t;
}
