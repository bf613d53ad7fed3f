/* Reading a snapshot: map it, check the header, directory, bounds and layout
 * sizes and the small sections (shape, strings, lookups, report) at once, and
 * each column array's crc32 and string ids when a reader asks for it
 * (spoor_snapshot_verify); hand out views of the table that point into the
 * mapping. Anything off makes the file unusable: the caller reparses. */
#include "spoor/load.h"
#include "table/internal.h"
#include "table/snapshot_check.h"
#include "table/snapshot_format.h"
#include "util/bytes.h"
#include "table/snapshot.h"
#include "io/input.h"

#include <fcntl.h>
#include <isa-l/crc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum { SNAP_RESIDENT_MAX = 64 << 20 };

struct spoor_snapshot {
    const uint8_t *bytes;
    size_t len;
    bool mapped;
    char *source;
    struct spoor_strpool *pool;
    size_t nstrings;
    struct spoor_lookup lookups[SPOOR_LOOKUP_KINDS];
    uint64_t rows;
    uint32_t ncols;
    const uint8_t *col_entries;
    const uint8_t **arrays;     /* SNAP_ARRAYS(ncols) column arrays, in file order */
    struct snap_check *array_checks;    /* per array: where, its crc, whether ids */
    enum { UNCHECKED, GOOD, BAD } *array_state;
    const uint8_t *report;
    size_t report_len;
    uint32_t *zeros;            /* the src column: every row from source 0 */
};

static bool header_matches(const uint8_t *h, const struct spoor_snapshot_key *key)
{
    const struct spoor_fingerprint *fp = &key->trace;
    return memcmp(h, SNAP_MAGIC, 8) == 0 && spoor_get32(h + 8) == SNAP_VERSION && spoor_get32(h + 12) == SNAP_BYTE_ORDER &&
           spoor_get64(h + 16) == fp->size && (int64_t)spoor_get64(h + 24) == fp->mtime_sec &&
           spoor_get32(h + 32) == fp->mtime_nsec && spoor_get32(h + 36) == fp->head_crc && spoor_get32(h + 40) == fp->tail_crc &&
           spoor_get64(h + 48) == key->options && (int64_t)spoor_get64(h + 72) == fp->ctime_sec &&
           spoor_get32(h + 80) == fp->ctime_nsec && spoor_get64(h + 88) == fp->inode;
}

static enum spoor_type col_type(const struct spoor_snapshot *s, uint32_t i)
{
    return (enum spoor_type)(spoor_get32(s->col_entries + (size_t)i * SNAP_COL_ENTRY + 4) & 0xff);
}

static uint32_t col_name(const struct spoor_snapshot *s, uint32_t i)
{
    return spoor_get32(s->col_entries + (size_t)i * SNAP_COL_ENTRY);
}

/* The shape: row count and column entries (types checked; names once the
 * strings are known). */
static bool read_shape(struct spoor_snapshot *s, const uint8_t *p, uint64_t len)
{
    if (len < SNAP_SHAPE_HEAD)
        return false;
    s->rows = spoor_get64(p);
    s->ncols = spoor_get32(p + 8);
    /* Every row takes at least 49 bytes (5 numbers, 2 ids, a phase). */
    if (s->rows > s->len / 49 || s->ncols > (len - SNAP_SHAPE_HEAD) / SNAP_COL_ENTRY ||
        len != SNAP_SHAPE_HEAD + (uint64_t)s->ncols * SNAP_COL_ENTRY)
        return false;
    s->col_entries = p + SNAP_SHAPE_HEAD;
    for (uint32_t i = 0; i < s->ncols; i++) {
        uint32_t flags = spoor_get32(s->col_entries + (size_t)i * SNAP_COL_ENTRY + 4);
        if ((flags & 0xff) > SPOOR_STR || (flags >> 8) > 1)
            return false;
    }
    return true;
}

/* The length array i must have, and whether it holds string ids. */
static uint64_t array_len(const struct spoor_snapshot *s, uint64_t i, bool *ids)
{
    if (i < SNAP_FIXED_ARRAYS) {
        *ids = i == 5 || i == 6;
        return s->rows * snap_fixed_width(i);
    }
    enum spoor_type t = col_type(s, (uint32_t)((i - SNAP_FIXED_ARRAYS) / 2));
    bool values = (i - SNAP_FIXED_ARRAYS) % 2 == 0;
    *ids = values && t == SPOOR_STR;
    return values ? s->rows * snap_type_size(t) : snap_words(s->rows) * 8;
}

static bool read_strings(struct spoor_snapshot *s, const uint8_t *p, uint64_t len)
{
    if (len < 16)
        return false;
    uint64_t n = spoor_get64(p), nbytes = spoor_get64(p + 8);
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
        uint64_t n = spoor_get64(p + at);
        at += 8;
        if (n > (len - at) / 16)
            return false;
        const uint32_t *keys = (const uint32_t *)(p + at), *values = keys + n;
        const uint8_t *lines = p + at + 8 * n;
        if (n && snap_max_id(keys, 2 * n) >= s->nstrings)
            return false;
        for (uint64_t i = 0; i < n; i++) /* a snapshot holds one input: src 0 */
            spoor_lookup_put(&s->lookups[k], 0, keys[i], values[i], spoor_get64(lines + 8 * i));
        at += 16 * n;
    }
    return at == len;
}

/* Directory entry i: its section, in bounds, of the kind its position needs. */
static bool locate(const struct spoor_snapshot *s, uint64_t dir_offset, uint64_t i, enum snap_kind kind,
                   struct snap_check *c)
{
    const uint8_t *e = s->bytes + dir_offset + i * SNAP_DIR_ENTRY;
    uint64_t offset = spoor_get64(e + 8), len = spoor_get64(e + 16);
    if (spoor_get32(e) != kind || offset < SNAP_HEADER || offset % SNAP_ALIGN || offset > dir_offset ||
        len > dir_offset - offset)
        return false;
    *c = (struct snap_check){.p = s->bytes + offset, .len = len, .crc = spoor_get32(e + 4)};
    return true;
}

/* Locates every section and checks the small ones; the column arrays wait
 * for spoor_snapshot_verify. */
static bool read_sections(struct spoor_snapshot *s, uint64_t dir_offset, uint64_t n)
{
    struct snap_check small[4]; /* shape, strings, lookups, report */
    if (n < 1 || !locate(s, dir_offset, 0, SNAP_SHAPE, &small[0]) || !read_shape(s, small[0].p, small[0].len))
        return false;
    uint64_t narrays = snap_arrays(s->ncols);
    if (n != narrays + 4)
        return false;
    s->arrays = spoor_xmalloc(narrays * sizeof *s->arrays);
    s->array_checks = spoor_xmalloc(narrays * sizeof *s->array_checks);
    s->array_state = spoor_xcalloc(narrays, sizeof *s->array_state);
    for (uint64_t i = 0; i < narrays; i++) {
        struct snap_check *c = &s->array_checks[i];
        bool ids;
        uint64_t want = array_len(s, i, &ids);
        if (!locate(s, dir_offset, i + 1, SNAP_ARRAY, c) || c->len != want)
            return false;
        c->ids = ids;
        s->arrays[i] = c->p;
    }
    static const enum snap_kind tail[3] = {SNAP_STRINGS, SNAP_LOOKUPS, SNAP_REPORT};
    for (int k = 0; k < 3; k++)
        if (!locate(s, dir_offset, narrays + 1 + k, tail[k], &small[1 + k]))
            return false;
    if (!snap_check_sections(small, 4) || !read_strings(s, small[1].p, small[1].len) ||
        !read_lookups(s, small[2].p, small[2].len))
        return false;
    for (uint32_t i = 0; i < s->ncols; i++)
        if (col_name(s, i) >= s->nstrings)
            return false;
    s->report = small[3].p;
    s->report_len = small[3].len;
    s->zeros = spoor_xcalloc(s->rows ? s->rows : 1, sizeof *s->zeros);
    return true;
}

/* Whether need (NULL: everything) asks for array i. */
static bool needed(const struct spoor_snapshot *s, const struct spoor_snapshot_need *need, uint64_t i)
{
    if (!need)
        return true;
    if (i < SNAP_FIXED_ARRAYS)
        return need->fixed >> i & 1;
    if (need->all_args)
        return true;
    uint32_t name = col_name(s, (uint32_t)((i - SNAP_FIXED_ARRAYS) / 2));
    for (size_t k = 0; k < need->nargs; k++)
        if (need->args[k] == name)
            return true;
    return false;
}

/* Whether the pages of s leave the process as soon as they are read: for a
 * large mapped snapshot, so that memory stays bounded whatever its size. A
 * small one stays resident: touching its pages again after the check would
 * cost more than they take (a 668 MB snapshot served to stats: 656 MB peak RSS
 * and 0.10 s kept, 33 MB and 0.15 s released). */
static bool releases(const struct spoor_snapshot *s)
{
    return s->mapped && s->len > SNAP_RESIDENT_MAX;
}

bool spoor_snapshot_verify(struct spoor_snapshot *s, const struct spoor_snapshot_need *need)
{
    uint64_t narrays = snap_arrays(s->ncols);
    struct snap_check *c = spoor_xmalloc((narrays ? narrays : 1) * sizeof *c);
    uint64_t *which = spoor_xmalloc((narrays ? narrays : 1) * sizeof *which);
    size_t n = 0;
    bool ok = true;
    for (uint64_t i = 0; i < narrays; i++) {
        if (!needed(s, need, i))
            continue;
        ok &= s->array_state[i] != BAD;
        if (s->array_state[i] == UNCHECKED) {
            which[n] = i;
            c[n] = s->array_checks[i];
            c[n++].release = releases(s);
        }
    }
    if (ok && n)
        snap_check_sections(c, n);
    for (size_t k = 0; ok && k < n; k++) {
        bool good = c[k].ok && (!c[k].ids || c[k].max_id < s->nstrings);
        s->array_state[which[k]] = good ? GOOD : BAD;
        ok = good;
    }
    free(which);
    free(c);
    return ok;
}

struct spoor_snapshot *spoor_snapshot_parse(const uint8_t *bytes, size_t len, const char *source,
                                            const struct spoor_snapshot_key *key)
{
    if (len < SNAP_HEADER || (uintptr_t)bytes % 8 || !header_matches(bytes, key))
        return NULL;
    uint64_t n = spoor_get32(bytes + 44), dir_offset = spoor_get64(bytes + 56);
    if (dir_offset < SNAP_HEADER || dir_offset > len || n > (len - dir_offset) / SNAP_DIR_ENTRY ||
        dir_offset + n * SNAP_DIR_ENTRY != len)
        return NULL;
    if (crc32_gzip_refl(crc32_gzip_refl(0, bytes, 64), bytes + dir_offset, n * SNAP_DIR_ENTRY) != spoor_get32(bytes + 64))
        return NULL;
    struct spoor_snapshot *s = spoor_xcalloc(1, sizeof *s);
    s->bytes = bytes;
    s->len = len;
    s->source = spoor_xstrdup(source);
    if (!read_sections(s, dir_offset, n)) {
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
        map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
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
    free(s->arrays);
    free(s->array_checks);
    free(s->array_state);
    free(s->zeros);
    free(s->source);
    free(s);
}

size_t spoor_snapshot_rows(const struct spoor_snapshot *s) { return s->rows; }
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

/* The args columns cols asks for, from row `first` on, pointing into the mapping. */
static void view_columns(struct spoor_table *t, const struct spoor_snapshot *s, size_t first,
                         const struct spoor_snapshot_cols *cols)
{
    t->cols = spoor_xmalloc((s->ncols ? s->ncols : 1) * sizeof *t->cols);
    uint32_t max_name = 0;
    for (uint32_t i = 0; i < s->ncols; i++) {
        uint32_t name = col_name(s, i);
        if (!wanted(cols, name))
            continue;
        enum spoor_type type = col_type(s, i);
        const uint8_t *const *a = s->arrays + SNAP_FIXED_ARRAYS + 2 * i;
        t->cols[t->ncols++] = (struct spoor_column){
            .name = name,
            .type = type,
            .typed = spoor_get32(s->col_entries + (size_t)i * SNAP_COL_ENTRY + 4) >> 8,
            .data = (void *)(a[0] + first * snap_type_size(type)),
            .valid = (uint64_t *)a[1] + first / 64,
        };
        if (name > max_name)
            max_name = name;
    }
    t->cols_cap = t->ncols;
    t->col_by_name_cap = (size_t)max_name + 1;
    t->col_by_name = spoor_xcalloc(t->col_by_name_cap, sizeof *t->col_by_name);
    for (size_t i = 0; i < t->ncols; i++)
        t->col_by_name[t->cols[i].name] = (uint32_t)i + 1;
}

struct spoor_table *spoor_snapshot_view(const struct spoor_snapshot *s, size_t first, size_t n,
                                        const struct spoor_snapshot_cols *cols)
{
    first = first < s->rows ? first : s->rows;
    n = n < s->rows - first ? n : s->rows - first;
    struct spoor_table *t = spoor_xcalloc(1, sizeof *t);
    t->borrowed = true;
    t->nrows = t->cap = n;
    int64_t **i64[4] = {&t->ts, &t->dur, &t->pid, &t->tid};
    for (int i = 0; i < 4; i++)
        *i64[i] = (int64_t *)s->arrays[i] + first;
    t->line = (uint64_t *)s->arrays[4] + first;
    t->name = (uint32_t *)s->arrays[5] + first;
    t->cat = (uint32_t *)s->arrays[6] + first;
    t->ph = (uint8_t *)s->arrays[7] + first;
    t->src = s->zeros + first;
    t->sources = (char **)&s->source;
    t->nsources = 1;
    t->pool = s->pool;
    if (first == 0) /* the input's lookups, as if its first rows had defined them all */
        memcpy(t->lookups, s->lookups, sizeof t->lookups);
    view_columns(t, s, first, cols);
    return t;
}

void spoor_snapshot_release(const struct spoor_snapshot *s, size_t first, size_t n)
{
    if (!releases(s) || first >= s->rows)
        return;
    n = n < s->rows - first ? n : s->rows - first;
    for (size_t i = 0; i < SNAP_FIXED_ARRAYS; i++)
        snap_release_pages(s->arrays[i] + first * snap_fixed_width(i), n * snap_fixed_width(i));
    for (uint32_t i = 0; i < s->ncols; i++) {
        size_t size = snap_type_size(col_type(s, i));
        snap_release_pages(s->arrays[SNAP_FIXED_ARRAYS + 2 * i] + first * size, n * size);
    }
}

struct spoor_table *spoor_snapshot_table(struct spoor_snapshot *s, const struct spoor_snapshot_cols *cols)
{
    struct spoor_table *t = spoor_snapshot_view(s, 0, s->rows, cols);
    t->snapshot = s;
    return t;
}
