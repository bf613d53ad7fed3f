/* The index sidecar format, little-endian throughout:
 *
 *   header (96 bytes)
 *     0  "SPOORIDX"         magic
 *     8  u32 version        FORMAT_VERSION (2: ctime and inode added)
 *    12  u32 layout         io_snapshot_layout(): ISA-L version + state layout
 *    16  u64 trace size     \
 *    24  i64 mtime seconds   |  fingerprint of the trace the index belongs to
 *    32  u32 mtime nanosec   |
 *    36  u32 head crc32      |  (first 4 KiB)
 *    40  u32 tail crc32      |  (last 4 KiB)
 *    44  u32 checkpoints    n|
 *    48  u64 uncompressed size of the trace
 *    56  i64 ctime seconds   |
 *    64  u32 ctime nanosec   |
 *    68  u32 reserved (zero) |
 *    72  u64 inode          /
 *    80  16 bytes reserved (zero)
 *   n records (56 bytes each), in input order
 *     0  u64 out            uncompressed offset of the snapshot
 *     8  u64 cut            first line start of the part, out - 32 KiB <= cut <= out
 *    16  u64 comp           compressed offset where decoding resumes
 *    24  u64 line           1-based line number at cut, 0 = not known
 *    32  u32 crc            gzip CRC of the member's output up to out
 *    36  u32 raw length     of the snapshot
 *    40  u32 blob length    bytes stored
 *    44  u32 codec          0 = raw, 1 = zstd
 *    48  u32 carry crc32    of the bytes [cut, out) the snapshot supplies
 *    52  4 bytes reserved (zero)
 *   the n snapshot blobs, back to back
 *   u32 crc32 of everything above
 *
 * Loading checks the checksum, the layout and the fingerprint, then every
 * record for order and bounds; anything off and the sidecar is ignored
 * (the next full scan rebuilds it). */
#include "io/index_file.h"
#include "spoor/write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "io/gzip_snapshot.h"
#include "io/input.h"

enum { HEADER = 96, RECORD = 56, TRAILER = 4, FORMAT_VERSION = 2 };
enum { CODEC_RAW = 0, CODEC_ZSTD = 1 };
static const char MAGIC[8] = {'S', 'P', 'O', 'O', 'R', 'I', 'D', 'X'};
#define MAX_SIDECAR ((size_t)1 << 32)
#define WINDOW 32768u

/* Where the sidecar of a trace lives: beside it. */
void spoor_index_path(const char *trace, char *out, size_t cap)
{
    snprintf(out, cap, "%s.spoor-idx", trace);
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v |= (uint32_t)p[i] << (8 * i);
    return v;
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static void put_identity(uint8_t *h, const struct spoor_fingerprint *fp)
{
    put32(h + 12, io_snapshot_layout());
    put64(h + 16, fp->size);
    put64(h + 24, (uint64_t)fp->mtime_sec);
    put32(h + 32, fp->mtime_nsec);
    put32(h + 36, fp->head_crc);
    put32(h + 40, fp->tail_crc);
    put64(h + 56, (uint64_t)fp->ctime_sec);
    put32(h + 64, fp->ctime_nsec);
    put64(h + 72, fp->inode);
}

static bool same_identity(const uint8_t *h, const struct spoor_fingerprint *fp)
{
    return get32(h + 12) == io_snapshot_layout() && get64(h + 16) == fp->size &&
           (int64_t)get64(h + 24) == fp->mtime_sec && get32(h + 32) == fp->mtime_nsec &&
           get32(h + 36) == fp->head_crc && get32(h + 40) == fp->tail_crc &&
           (int64_t)get64(h + 56) == fp->ctime_sec && get32(h + 64) == fp->ctime_nsec && get64(h + 72) == fp->inode;
}

uint8_t *io_index_serialize(struct io_index *idx, const struct spoor_fingerprint *fp, size_t *len)
{
    io_index_compress_all(idx);
    pthread_mutex_lock(&idx->mu);
    size_t total = HEADER + idx->n * RECORD + TRAILER;
    for (size_t i = 0; i < idx->n; i++)
        total += idx->e[i].blob_len;
    uint8_t *buf = spoor_xcalloc(1, total);
    memcpy(buf, MAGIC, sizeof MAGIC);
    put32(buf + 8, FORMAT_VERSION);
    put_identity(buf, fp);
    put32(buf + 44, (uint32_t)idx->n);
    put64(buf + 48, idx->total_out);
    uint8_t *rec = buf + HEADER;
    uint8_t *blob = rec + idx->n * RECORD;
    for (size_t i = 0; i < idx->n; i++, rec += RECORD) {
        const struct io_entry *e = &idx->e[i];
        put64(rec, e->ck.out);
        put64(rec + 8, e->ck.cut);
        put64(rec + 16, e->ck.comp);
        put64(rec + 24, e->ck.line);
        put32(rec + 32, e->ck.crc);
        put32(rec + 36, e->raw_len);
        put32(rec + 40, e->blob_len);
        put32(rec + 44, e->zstd ? CODEC_ZSTD : CODEC_RAW);
        put32(rec + 48, e->ck.carry_crc);
        memcpy(blob, e->blob, e->blob_len);
        blob += e->blob_len;
    }
    pthread_mutex_unlock(&idx->mu);
    put32(buf + total - TRAILER, (uint32_t)crc32_z(0, buf, total - TRAILER));
    *len = total;
    return buf;
}

/* One record against the one before it and the file's bounds. */
static bool record_valid(const struct io_ckpt *ck, const struct io_ckpt *prev, uint64_t last_line,
                         uint32_t raw_len, uint32_t blob_len, uint32_t codec,
                         const struct spoor_fingerprint *fp, uint64_t total_out)
{
    if (ck->cut > ck->out || ck->out - ck->cut > WINDOW || ck->cut >= total_out ||
        ck->out > total_out || ck->comp > fp->size)
        return false;
    if (prev && (ck->out <= prev->out || ck->cut <= prev->cut || ck->comp < prev->comp))
        return false;
    if (ck->line != 0 && ck->line <= last_line)
        return false;
    if (raw_len < io_snapshot_min_size() || raw_len > io_snapshot_max_size() || blob_len == 0)
        return false;
    if (codec == CODEC_RAW)
        return blob_len == raw_len;
    return codec == CODEC_ZSTD && blob_len <= ZSTD_compressBound(raw_len);
}

struct io_index *io_index_parse(const uint8_t *bytes, size_t len, const struct spoor_fingerprint *fp)
{
    if (len < HEADER + TRAILER || memcmp(bytes, MAGIC, sizeof MAGIC) != 0 ||
        get32(bytes + 8) != FORMAT_VERSION || !same_identity(bytes, fp))
        return NULL;
    if (get32(bytes + len - TRAILER) != (uint32_t)crc32_z(0, bytes, len - TRAILER))
        return NULL;
    uint64_t n = get32(bytes + 44);
    uint64_t total_out = get64(bytes + 48);
    if (n > (len - HEADER - TRAILER) / RECORD)
        return NULL;
    const uint8_t *rec = bytes + HEADER;
    const uint8_t *blob = rec + n * RECORD;
    const uint8_t *end = bytes + len - TRAILER;
    struct io_index *idx = io_index_new();
    idx->total_out = total_out;
    struct io_ckpt prev = {0};
    uint64_t last_line = 0;
    for (uint64_t i = 0; i < n; i++, rec += RECORD) {
        struct io_ckpt ck = {
            .out = get64(rec),
            .cut = get64(rec + 8),
            .comp = get64(rec + 16),
            .line = get64(rec + 24),
            .crc = get32(rec + 32),
            .carry_crc = get32(rec + 48),
        };
        uint32_t raw_len = get32(rec + 36), blob_len = get32(rec + 40), codec = get32(rec + 44);
        if (!record_valid(&ck, i ? &prev : NULL, last_line, raw_len, blob_len, codec, fp, total_out) ||
            blob_len > (size_t)(end - blob)) {
            io_index_free(idx);
            return NULL;
        }
        uint8_t *copy = spoor_xmalloc(blob_len);
        memcpy(copy, blob, blob_len);
        io_index_add_stored(idx, &ck, copy, blob_len, raw_len, codec == CODEC_ZSTD);
        blob += blob_len;
        prev = ck;
        if (ck.line)
            last_line = ck.line;
    }
    if (blob != end) {
        io_index_free(idx);
        return NULL;
    }
    return idx;
}

struct io_index *io_index_load(const char *path, const struct spoor_fingerprint *fp)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    struct io_index *idx = NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size >= HEADER + TRAILER &&
        (uint64_t)st.st_size < MAX_SIDECAR) {
        size_t len = (size_t)st.st_size;
        uint8_t *bytes = spoor_xmalloc(len);
        size_t got = 0;
        while (got < len) {
            ssize_t r = read(fd, bytes + got, len - got);
            if (r <= 0)
                break;
            got += (size_t)r;
        }
        if (got == len)
            idx = io_index_parse(bytes, len, fp);
        free(bytes);
    }
    close(fd);
    return idx;
}

int io_index_save(struct io_index *idx, const char *path, const struct spoor_fingerprint *fp,
                  struct spoor_error *err)
{
    if (spoor_dir_read_only(path)) {
        spoor_fail(err, SPOOR_EIO, "%s: cannot write the checkpoint index (read-only directory)", path);
        return EACCES;
    }
    size_t len;
    uint8_t *bytes = io_index_serialize(idx, fp, &len);
    struct spoor_atomic_file f;
    int st = spoor_atomic_file_open(&f, path, err);
    if (st == SPOOR_OK) {
        if (fwrite(bytes, 1, len, f.fp) == len) {
            st = spoor_atomic_file_commit(&f, err);
        } else {
            spoor_atomic_file_abort(&f);
            st = spoor_fail(err, SPOOR_EIO, "%s: cannot write the checkpoint index (%s)", path, strerror(EIO));
        }
    }
    free(bytes);
    return st == SPOOR_OK ? 0 : EIO;
}

void io_index_stamp(uint8_t *bytes, size_t len, const struct spoor_fingerprint *fp)
{
    if (len < HEADER + TRAILER)
        return;
    put_identity(bytes, fp);
    put32(bytes + len - TRAILER, (uint32_t)crc32_z(0, bytes, len - TRAILER));
}
