/* Writing a snapshot: one input's whole table, column by column, each array its
 * own checksummed section, then the strings, lookups, report and directory; the
 * header goes last. The file is written to a temporary beside the target and
 * renamed into place, so readers never see half a snapshot. */
#include "spoor/write.h"
#include "spoor/load.h"
#include "table/internal.h"
#include "table/snapshot_format.h"
#include "util/bytes.h"
#include "table/snapshot.h"
#include "io/input.h"
#include "util/grow.h"

#include <errno.h>
#include <isa-l/crc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dir_entry {
    uint32_t kind, crc;
    uint64_t offset, length;
};

struct writer {
    FILE *fp;
    int error;                  /* errno of the first failed write, 0 = fine */
    bool in_section;            /* put() checksums into the last section */
    uint64_t pos;
    struct dir_entry *dir;
    size_t ndir, dir_cap;
};

static void put(struct writer *w, const void *p, size_t len)
{
    if (w->error || !len)
        return;
    if (fwrite(p, 1, len, w->fp) != len)
        w->error = errno ? errno : EIO;
    if (w->in_section)
        w->dir[w->ndir - 1].crc = crc32_gzip_refl(w->dir[w->ndir - 1].crc, p, len);
    w->pos += len;
}

static void pad(struct writer *w)
{
    static const uint8_t zeros[SNAP_ALIGN];
    put(w, zeros, snap_align(w->pos) - w->pos);
}

/* Starts a section at the next aligned offset; put() then checksums into it. */
static void begin_section(struct writer *w, enum snap_kind kind)
{
    pad(w);
    w->in_section = true;
    spoor_reserve((void **)&w->dir, &w->dir_cap, w->ndir + 1, sizeof *w->dir);
    w->dir[w->ndir++] = (struct dir_entry){.kind = kind, .offset = w->pos};
}

static void end_section(struct writer *w)
{
    struct dir_entry *d = &w->dir[w->ndir - 1];
    d->length = w->pos - d->offset;
    w->in_section = false;
}

static void put_section(struct writer *w, enum snap_kind kind, const void *p, size_t len)
{
    begin_section(w, kind);
    put(w, p, len);
    end_section(w);
}

static void put_shape(struct writer *w, const struct spoor_table *t)
{
    begin_section(w, SNAP_SHAPE);
    uint64_t rows = t->nrows;
    uint32_t head[2] = {(uint32_t)t->ncols, 0};
    put(w, &rows, sizeof rows);
    put(w, head, sizeof head);
    for (size_t i = 0; i < t->ncols; i++) {
        const struct spoor_column *c = &t->cols[i];
        uint32_t entry[2] = {c->name, (uint32_t)c->type | (uint32_t)c->typed << 8};
        put(w, entry, sizeof entry);
    }
    end_section(w);
}

/* An args column: values with invalid rows zeroed (string ids stay below the
 * pool's count, the file is deterministic), then validity without stray bits. */
static void put_column(struct writer *w, const struct spoor_table *t, const struct spoor_column *c, void *scratch)
{
    size_t width = snap_type_size(c->type), rows = t->nrows;
    memcpy(scratch, c->data, rows * width);
    for (size_t r = 0; r < rows; r++)
        if (!spoor_column_valid(c, r))
            memset((uint8_t *)scratch + r * width, 0, width);
    put_section(w, SNAP_ARRAY, scratch, rows * width);
    size_t nwords = snap_words(rows);
    uint64_t *valid = scratch;
    memcpy(valid, c->valid, nwords * 8);
    if (rows % 64)
        valid[nwords - 1] &= (1ULL << (rows % 64)) - 1;
    put_section(w, SNAP_ARRAY, valid, nwords * 8);
}

static void put_arrays(struct writer *w, const struct spoor_table *t)
{
    const void *fixed[SNAP_FIXED_ARRAYS] = {t->ts, t->dur, t->pid, t->tid, t->line, t->name, t->cat, t->ph};
    for (size_t i = 0; i < SNAP_FIXED_ARRAYS; i++)
        put_section(w, SNAP_ARRAY, fixed[i], t->nrows * snap_fixed_width(i));
    void *scratch = spoor_xmalloc((t->nrows > 64 ? t->nrows : 64) * 8);
    for (size_t i = 0; i < t->ncols; i++)
        put_column(w, t, &t->cols[i], scratch);
    free(scratch);
}

static void put_strings(struct writer *w, const struct spoor_strpool *pool)
{
    size_t n = spoor_strpool_count(pool);
    uint32_t *off = spoor_xmalloc((n + 1) * sizeof *off);
    uint32_t *hash = spoor_xmalloc(n * sizeof *hash);
    uint64_t bytes = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const char *s = spoor_strpool_get(pool, (uint32_t)i, &len);
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
        const char *s = spoor_strpool_get(pool, (uint32_t)i, &len);
        put(w, s, len + 1);
    }
    end_section(w);
    free(off);
    free(hash);
}

static void put_lookups(struct writer *w, const struct spoor_table *t)
{
    begin_section(w, SNAP_LOOKUPS);
    for (int k = 0; k < SPOOR_LOOKUP_KINDS; k++) {
        const struct spoor_lookup *l = &t->lookups[k];
        uint64_t n = l->n;
        put(w, &n, sizeof n);
        put(w, l->keys, l->n * sizeof *l->keys);
        put(w, l->values, l->n * sizeof *l->values);
        put(w, l->lines, l->n * sizeof *l->lines);
    }
    end_section(w);
}


/* The directory goes at the end; the header, written last, points to it. */
static void put_directory_and_header(struct writer *w, const struct spoor_snapshot_key *key)
{
    pad(w);
    uint64_t dir_offset = w->pos;
    size_t dir_len = w->ndir * SNAP_DIR_ENTRY;
    uint8_t *dir = spoor_xcalloc(1, dir_len ? dir_len : 1);
    for (size_t i = 0; i < w->ndir; i++) {
        uint8_t *e = dir + i * SNAP_DIR_ENTRY;
        spoor_put32(e, w->dir[i].kind);
        spoor_put32(e + 4, w->dir[i].crc);
        spoor_put64(e + 8, w->dir[i].offset);
        spoor_put64(e + 16, w->dir[i].length);
    }
    uint8_t h[SNAP_HEADER] = {0};
    memcpy(h, SNAP_MAGIC, 8);
    spoor_put32(h + 8, SNAP_VERSION);
    spoor_put32(h + 12, SNAP_BYTE_ORDER);
    spoor_put64(h + 16, key->trace.size);
    spoor_put64(h + 24, (uint64_t)key->trace.mtime_sec);
    spoor_put32(h + 32, key->trace.mtime_nsec);
    spoor_put32(h + 36, key->trace.head_crc);
    spoor_put32(h + 40, key->trace.tail_crc);
    spoor_put32(h + 44, (uint32_t)w->ndir);
    spoor_put64(h + 48, key->options);
    spoor_put64(h + 56, dir_offset);
    spoor_put64(h + 72, (uint64_t)key->trace.ctime_sec);
    spoor_put32(h + 80, key->trace.ctime_nsec);
    spoor_put64(h + 88, key->trace.inode);
    spoor_put32(h + 64, crc32_gzip_refl(crc32_gzip_refl(0, h, 64), dir, dir_len));
    put(w, dir, dir_len);
    if (!w->error && (fseek(w->fp, 0, SEEK_SET) != 0 || fwrite(h, 1, sizeof h, w->fp) != sizeof h))
        w->error = errno ? errno : EIO;
    free(dir);
}

static void put_table(struct writer *w, const struct spoor_snapshot_key *key, const struct spoor_table *t,
                      const void *report, size_t report_len)
{
    static const uint8_t header[SNAP_HEADER];
    put(w, header, sizeof header);
    put_shape(w, t);
    put_arrays(w, t);
    put_strings(w, t->pool);
    put_lookups(w, t);
    put_section(w, SNAP_REPORT, report, report_len);
    put_directory_and_header(w, key);
}

int spoor_snapshot_write(const char *path, const struct spoor_snapshot_key *key, const struct spoor_table *t,
                         const void *report, size_t report_len, struct spoor_error *err)
{
    if (spoor_dir_read_only(path))
        return spoor_fail(err, SPOOR_EIO, "%s: cannot write the snapshot (read-only directory)", path);
    struct spoor_atomic_file f;
    int st = spoor_atomic_file_open(&f, path, err);
    if (st != SPOOR_OK)
        return st;
    struct writer w = {.fp = f.fp};
    put_table(&w, key, t, report, report_len);
    free(w.dir);
    if (w.error) {
        spoor_atomic_file_abort(&f);
        return spoor_fail(err, SPOOR_EIO, "%s: cannot write the snapshot (%s)", path, strerror(w.error));
    }
    return spoor_atomic_file_commit(&f, err);
}
