/* The in-memory checkpoint index. Snapshots arrive raw from the scanning
 * cursor (a memcpy, cheap) and are compressed by the thread that notes line
 * numbers, which in a pipelined load is a parser with time to spare, so the
 * inflating thread keeps ISA-L's pace. A cap on raw snapshots bounds memory
 * when nobody notes lines. */
#include "io/index.h"

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

enum {
    MAX_RAW = 16,               /* raw snapshots kept before the scanner compresses */
    SNAPSHOT_LEVEL = 1,         /* fast; windows of trace text compress ~4:1 anyway */
};

struct io_index *io_index_new(void)
{
    struct io_index *idx = spoor_xcalloc(1, sizeof *idx);
    pthread_mutex_init(&idx->mu, NULL);
    pthread_mutex_init(&idx->note_mu, NULL);
    return idx;
}

void io_index_free(struct io_index *idx)
{
    if (!idx)
        return;
    for (size_t i = 0; i < idx->n; i++)
        free(idx->e[i].blob);
    free(idx->e);
    ZSTD_freeCCtx(idx->add_cctx);
    ZSTD_freeCCtx(idx->note_cctx);
    pthread_mutex_destroy(&idx->mu);
    pthread_mutex_destroy(&idx->note_mu);
    free(idx);
}

size_t io_index_count(struct io_index *idx)
{
    pthread_mutex_lock(&idx->mu);
    size_t n = idx->n;
    pthread_mutex_unlock(&idx->mu);
    return n;
}

struct io_ckpt io_index_at(struct io_index *idx, size_t i)
{
    pthread_mutex_lock(&idx->mu);
    struct io_ckpt ck = idx->e[i].ck;
    pthread_mutex_unlock(&idx->mu);
    return ck;
}

static struct io_entry *append(struct io_index *idx)
{
    if (idx->n == idx->cap) {
        idx->cap = idx->cap ? 2 * idx->cap : 64;
        idx->e = spoor_xrealloc(idx->e, idx->cap * sizeof *idx->e);
    }
    struct io_entry *e = &idx->e[idx->n++];
    memset(e, 0, sizeof *e);
    return e;
}

/* Compresses the oldest pending snapshot with cctx; false when none is left.
 * The work happens outside the lock so the scanner is never held up. */
static bool compress_one(struct io_index *idx, void **cctx)
{
    pthread_mutex_lock(&idx->mu);
    size_t i = 0;
    while (i < idx->n && (!idx->e[i].pending || idx->e[i].busy))
        i++;
    if (i == idx->n) {
        pthread_mutex_unlock(&idx->mu);
        return false;
    }
    idx->e[i].busy = true;
    const uint8_t *raw = idx->e[i].blob;
    size_t raw_len = idx->e[i].raw_len;
    pthread_mutex_unlock(&idx->mu);

    if (!*cctx)
        *cctx = ZSTD_createCCtx();
    size_t cap = ZSTD_compressBound(raw_len);
    uint8_t *blob = spoor_xmalloc(cap);
    size_t len = ZSTD_compressCCtx(*cctx, blob, cap, raw, raw_len, SNAPSHOT_LEVEL);
    bool smaller = !ZSTD_isError(len) && len < raw_len;

    pthread_mutex_lock(&idx->mu);
    struct io_entry *e = &idx->e[i];
    if (smaller) {
        free(e->blob);
        e->blob = blob;
        e->blob_len = (uint32_t)len;
        e->zstd = true;
    } else {
        free(blob);     /* kept raw: still correct, only larger */
    }
    e->busy = false;
    e->pending = false;
    idx->npending--;
    pthread_mutex_unlock(&idx->mu);
    return true;
}

void io_index_add(struct io_index *idx, const struct io_ckpt *ck, uint8_t *raw, uint32_t raw_len)
{
    pthread_mutex_lock(&idx->mu);
    struct io_entry *e = append(idx);
    e->ck = *ck;
    e->blob = raw;
    e->blob_len = raw_len;
    e->raw_len = raw_len;
    e->pending = true;
    size_t pending = ++idx->npending;
    pthread_mutex_unlock(&idx->mu);
    if (pending > MAX_RAW)
        compress_one(idx, &idx->add_cctx);
}

void io_index_add_stored(struct io_index *idx, const struct io_ckpt *ck, uint8_t *blob,
                         uint32_t blob_len, uint32_t raw_len, bool zstd)
{
    pthread_mutex_lock(&idx->mu);
    struct io_entry *e = append(idx);
    e->ck = *ck;
    e->blob = blob;
    e->blob_len = blob_len;
    e->raw_len = raw_len;
    e->zstd = zstd;
    pthread_mutex_unlock(&idx->mu);
}

int io_index_snapshot(struct io_index *idx, size_t i, uint8_t **raw, size_t *len)
{
    pthread_mutex_lock(&idx->mu);
    const struct io_entry *e = &idx->e[i];
    uint8_t *out = spoor_xmalloc(e->raw_len);
    size_t got = e->raw_len;
    if (!e->zstd)
        memcpy(out, e->blob, e->raw_len);
    else
        got = ZSTD_decompress(out, e->raw_len, e->blob, e->blob_len);
    bool ok = !ZSTD_isError(got) && got == e->raw_len;
    pthread_mutex_unlock(&idx->mu);
    if (!ok) {
        free(out);
        return SPOOR_EFORMAT;
    }
    *raw = out;
    *len = got;
    return SPOOR_OK;
}

void io_index_note_line(struct io_index *idx, uint64_t offset, uint64_t line)
{
    pthread_mutex_lock(&idx->mu);
    size_t lo = 0, hi = idx->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (idx->e[mid].ck.cut < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < idx->n && idx->e[lo].ck.cut == offset && idx->e[lo].ck.line == 0) {
        idx->e[lo].ck.line = line;
        idx->lines_learnt = true;
    }
    bool pending = idx->npending > 0;
    pthread_mutex_unlock(&idx->mu);
    if (pending) {
        pthread_mutex_lock(&idx->note_mu);
        while (compress_one(idx, &idx->note_cctx))
            ;
        pthread_mutex_unlock(&idx->note_mu);
    }
}

size_t io_index_find_line(struct io_index *idx, uint64_t line)
{
    pthread_mutex_lock(&idx->mu);
    size_t found = SIZE_MAX;
    for (size_t i = idx->n; i-- > 0;)
        if (idx->e[i].ck.line != 0 && idx->e[i].ck.line <= line) {
            found = i;
            break;
        }
    pthread_mutex_unlock(&idx->mu);
    return found;
}

void io_index_compress_all(struct io_index *idx)
{
    pthread_mutex_lock(&idx->note_mu);
    while (compress_one(idx, &idx->note_cctx))
        ;
    pthread_mutex_unlock(&idx->note_mu);
}

void io_index_trim(struct io_index *idx, uint64_t total_out)
{
    pthread_mutex_lock(&idx->mu);
    while (idx->n > 0 && idx->e[idx->n - 1].ck.cut >= total_out) {
        struct io_entry *e = &idx->e[--idx->n];
        if (e->pending)
            idx->npending--;
        free(e->blob);
    }
    idx->total_out = total_out;
    pthread_mutex_unlock(&idx->mu);
}
