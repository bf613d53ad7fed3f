/* Writing a snapshot: each batch becomes a row group the moment it arrives (its
 * string ids re-interned into one pool for the whole input), so memory holds only
 * the pool, the lookups and the directory. The strings, lookups, report and
 * directory follow at commit, then the header; the file is renamed into place. */
#include "spoor/snapshot.h"
#include "table/internal.h"
#include "table/snapshot_format.h"

#include <errno.h>
#include <isa-l/crc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct dir_entry {
    uint32_t kind, crc;
    uint64_t offset, length;
};

struct spoor_snapshot_writer {
    char *path, *tmp;
    FILE *fp;
    int error;                  /* errno of the first failed write, 0 = fine */
    bool in_section;            /* put() checksums into the last section */
    uint64_t pos;
    struct spoor_snapshot_key key;
    struct spoor_strpool *pool;
    struct spoor_lookup lookups[SPOOR_LOOKUP_KINDS];
    struct dir_entry *dir;
    size_t ndir, dir_cap;
    uint32_t *remap;            /* the batch's string id -> pool id, UINT32_MAX = not yet */
    size_t remap_cap;
    uint32_t *ids;              /* scratch: a column of re-interned ids */
    uint64_t *scratch;          /* scratch: a column of numbers */
    size_t scratch_cap;
};

static void put(struct spoor_snapshot_writer *w, const void *p, size_t len)
{
    if (w->error || !len)
        return;
    if (fwrite(p, 1, len, w->fp) != len)
        w->error = errno ? errno : EIO;
    if (w->in_section)
        w->dir[w->ndir - 1].crc = crc32_gzip_refl(w->dir[w->ndir - 1].crc, p, len);
    w->pos += len;
}

static void pad(struct spoor_snapshot_writer *w)
{
    static const uint8_t zeros[SNAP_ALIGN];
    put(w, zeros, snap_align(w->pos) - w->pos);
}

/* Starts a section at the next aligned offset; put() then checksums into it. */
static void begin_section(struct spoor_snapshot_writer *w, enum snap_kind kind)
{
    pad(w);
    w->in_section = true;
    if (w->ndir == w->dir_cap) {
        w->dir_cap = w->dir_cap ? w->dir_cap * 2 : 64;
        w->dir = spoor_xrealloc(w->dir, w->dir_cap * sizeof *w->dir);
    }
    w->dir[w->ndir++] = (struct dir_entry){.kind = kind, .offset = w->pos};
}

static void end_section(struct spoor_snapshot_writer *w)
{
    struct dir_entry *d = &w->dir[w->ndir - 1];
    d->length = w->pos - d->offset;
    w->in_section = false;
}

struct spoor_snapshot_writer *spoor_snapshot_writer_new(const char *path, const struct spoor_snapshot_key *key,
                                                        struct spoor_error *err)
{
    if (spoor_dir_read_only(path)) {
        spoor_fail(err, SPOOR_EIO, "%s: cannot write the snapshot (read-only directory)", path);
        return NULL;
    }
    size_t tmp_len = strlen(path) + 8;
    char *tmp = spoor_xmalloc(tmp_len);
    snprintf(tmp, tmp_len, "%s.XXXXXX", path);
    int fd = mkstemp(tmp);
    FILE *fp = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!fp) {
        spoor_fail(err, SPOOR_EIO, "%s: cannot write the snapshot (%s)", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        free(tmp);
        return NULL;
    }
    struct spoor_snapshot_writer *w = spoor_xcalloc(1, sizeof *w);
    w->path = spoor_xstrdup(path);
    w->tmp = tmp;
    w->fp = fp;
    w->key = *key;
    w->pool = spoor_strpool_new();
    static const uint8_t header[SNAP_HEADER];
    if (fwrite(header, 1, sizeof header, fp) != sizeof header)
        w->error = errno ? errno : EIO;
    w->pos = SNAP_HEADER;
    return w;
}

static void reserve_scratch(struct spoor_snapshot_writer *w, size_t rows)
{
    if (rows <= w->scratch_cap)
        return;
    w->scratch_cap = rows;
    w->ids = spoor_xrealloc(w->ids, rows * sizeof *w->ids);
    w->scratch = spoor_xrealloc(w->scratch, rows * sizeof *w->scratch);
}

/* Re-interns b's string id into the snapshot's pool (once per batch and id). */
static uint32_t global_id(struct spoor_snapshot_writer *w, const struct spoor_table *b, uint32_t id)
{
    if (w->remap[id] == UINT32_MAX) {
        size_t len;
        const char *s = spoor_strpool_get(b->pool, id, &len);
        w->remap[id] = spoor_strpool_intern(w->pool, s, len);
    }
    return w->remap[id];
}

static void reset_remap(struct spoor_snapshot_writer *w, const struct spoor_table *b)
{
    size_t n = spoor_strpool_count(b->pool);
    if (n > w->remap_cap) {
        w->remap_cap = n;
        w->remap = spoor_xrealloc(w->remap, n * sizeof *w->remap);
    }
    memset(w->remap, 0xff, n * sizeof *w->remap);
}

/* A column of string ids, mapped to the snapshot's pool; rows where `valid`
 * (if given) is unset are 0. */
static void put_ids(struct spoor_snapshot_writer *w, const struct spoor_table *b, const uint32_t *ids,
                    const struct spoor_column *valid)
{
    for (size_t r = 0; r < b->nrows; r++)
        w->ids[r] = valid && !spoor_column_valid(valid, r) ? 0 : global_id(w, b, ids[r]);
    put(w, w->ids, b->nrows * sizeof *w->ids);
    pad(w);
}

static void put_numbers(struct spoor_snapshot_writer *w, const void *values, size_t rows)
{
    put(w, values, rows * 8);
    pad(w);
}

/* An args column: values (invalid rows zeroed, so the file is deterministic)
 * and validity. */
static void put_column(struct spoor_snapshot_writer *w, const struct spoor_table *b, const struct spoor_column *c)
{
    if (c->type == SPOOR_STR) {
        put_ids(w, b, c->str, c);
    } else {
        for (size_t r = 0; r < b->nrows; r++)
            w->scratch[r] = spoor_column_valid(c, r) ? (uint64_t)c->i64[r] : 0;
        put_numbers(w, w->scratch, b->nrows);
    }
    size_t nwords = snap_words(b->nrows);
    memcpy(w->scratch, c->valid, nwords * 8);
    if (b->nrows % 64)
        w->scratch[nwords - 1] &= (1ULL << (b->nrows % 64)) - 1;
    put_numbers(w, w->scratch, nwords);
}

void spoor_snapshot_writer_add(struct spoor_snapshot_writer *w, const struct spoor_table *b)
{
    reset_remap(w, b);
    for (int k = 0; k < SPOOR_LOOKUP_KINDS; k++)
        for (size_t i = 0; i < b->lookups[k].n; i++)
            spoor_lookup_put(&w->lookups[k], global_id(w, b, b->lookups[k].keys[i]),
                             global_id(w, b, b->lookups[k].values[i]));
    if (!b->nrows || w->error)
        return;
    reserve_scratch(w, b->nrows > 64 ? b->nrows : 64);
    begin_section(w, SNAP_GROUP);
    uint64_t rows = b->nrows;
    uint32_t head[2] = {(uint32_t)b->ncols, 0};
    put(w, &rows, sizeof rows);
    put(w, head, sizeof head);
    for (size_t i = 0; i < b->ncols; i++) {
        const struct spoor_column *c = &b->cols[i];
        uint32_t entry[2] = {global_id(w, b, c->name), (uint32_t)c->type | (uint32_t)c->typed << 8};
        put(w, entry, sizeof entry);
    }
    pad(w);
    put_numbers(w, b->ts, rows);
    put_numbers(w, b->dur, rows);
    put_numbers(w, b->pid, rows);
    put_numbers(w, b->tid, rows);
    put_numbers(w, b->line, rows);
    put_ids(w, b, b->name, NULL);
    put_ids(w, b, b->cat, NULL);
    put(w, b->ph, rows);
    pad(w);
    for (size_t i = 0; i < b->ncols; i++)
        put_column(w, b, &b->cols[i]);
    end_section(w);
}

static void put_strings(struct spoor_snapshot_writer *w)
{
    size_t n = spoor_strpool_count(w->pool);
    uint32_t *off = spoor_xmalloc((n + 1) * sizeof *off);
    uint32_t *hash = spoor_xmalloc(n * sizeof *hash);
    uint64_t bytes = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const char *s = spoor_strpool_get(w->pool, (uint32_t)i, &len);
        off[i] = (uint32_t)bytes;
        hash[i] = (uint32_t)spoor_hash_bytes(s, len);
        bytes += len + 1;
    }
    off[n] = (uint32_t)bytes;
    if (bytes > UINT32_MAX && !w->error)
        w->error = EFBIG;
    begin_section(w, SNAP_STRINGS);
    uint64_t head[2] = {n, bytes};
    put(w, head, sizeof head);
    put(w, off, (n + 1) * sizeof *off);
    put(w, hash, n * sizeof *hash);
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const char *s = spoor_strpool_get(w->pool, (uint32_t)i, &len);
        put(w, s, len + 1);
    }
    end_section(w);
    free(off);
    free(hash);
}

static void put_lookups(struct spoor_snapshot_writer *w)
{
    begin_section(w, SNAP_LOOKUPS);
    for (int k = 0; k < SPOOR_LOOKUP_KINDS; k++) {
        const struct spoor_lookup *l = &w->lookups[k];
        uint64_t n = l->n;
        put(w, &n, sizeof n);
        put(w, l->keys, l->n * sizeof *l->keys);
        put(w, l->values, l->n * sizeof *l->values);
    }
    end_section(w);
}

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* The directory goes at the end; the header, written last, points to it. */
static void put_directory_and_header(struct spoor_snapshot_writer *w)
{
    pad(w);
    uint64_t dir_offset = w->pos;
    size_t dir_len = w->ndir * SNAP_DIR_ENTRY;
    uint8_t *dir = spoor_xcalloc(1, dir_len ? dir_len : 1);
    for (size_t i = 0; i < w->ndir; i++) {
        uint8_t *e = dir + i * SNAP_DIR_ENTRY;
        put32(e, w->dir[i].kind);
        put32(e + 4, w->dir[i].crc);
        put64(e + 8, w->dir[i].offset);
        put64(e + 16, w->dir[i].length);
    }
    uint8_t h[SNAP_HEADER] = {0};
    memcpy(h, SNAP_MAGIC, 8);
    put32(h + 8, SNAP_VERSION);
    put32(h + 12, SNAP_BYTE_ORDER);
    put64(h + 16, w->key.trace.size);
    put64(h + 24, (uint64_t)w->key.trace.mtime_sec);
    put32(h + 32, w->key.trace.mtime_nsec);
    put32(h + 36, w->key.trace.head_crc);
    put32(h + 40, w->key.trace.tail_crc);
    put32(h + 44, (uint32_t)w->ndir);
    put64(h + 48, w->key.options);
    put64(h + 56, dir_offset);
    put32(h + 64, crc32_gzip_refl(crc32_gzip_refl(0, h, 64), dir, dir_len));
    if (!w->error && (fwrite(dir, 1, dir_len, w->fp) != dir_len || fseek(w->fp, 0, SEEK_SET) != 0 ||
                      fwrite(h, 1, sizeof h, w->fp) != sizeof h))
        w->error = errno ? errno : EIO;
    free(dir);
}

static void writer_free(struct spoor_snapshot_writer *w)
{
    spoor_strpool_free(w->pool);
    for (int k = 0; k < SPOOR_LOOKUP_KINDS; k++)
        spoor_lookup_release(&w->lookups[k]);
    free(w->dir);
    free(w->remap);
    free(w->ids);
    free(w->scratch);
    free(w->path);
    free(w->tmp);
    free(w);
}

int spoor_snapshot_writer_commit(struct spoor_snapshot_writer *w, const void *report, size_t report_len,
                                 struct spoor_error *err)
{
    put_strings(w);
    put_lookups(w);
    begin_section(w, SNAP_REPORT);
    put(w, report, report_len);
    end_section(w);
    put_directory_and_header(w);
    if (fchmod(fileno(w->fp), 0644) != 0 && !w->error)
        w->error = errno;
    if (fclose(w->fp) != 0 && !w->error)
        w->error = errno ? errno : EIO;
    if (!w->error && rename(w->tmp, w->path) != 0)
        w->error = errno;
    int saved = w->error;
    if (saved) {
        unlink(w->tmp);
        spoor_fail(err, SPOOR_EIO, "%s: cannot write the snapshot (%s)", w->path, strerror(saved));
    }
    writer_free(w);
    return saved ? SPOOR_EIO : SPOOR_OK;
}

void spoor_snapshot_writer_abort(struct spoor_snapshot_writer *w)
{
    if (!w)
        return;
    fclose(w->fp);
    unlink(w->tmp);
    writer_free(w);
}
