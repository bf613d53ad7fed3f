/* The checkpoint index of a gzip input, in memory: one entry per checkpoint,
 * in input order, each with a decoder snapshot (zstd-compressed once taken
 * off the scan's critical path) and the line number of the part it starts.
 *
 * Thread safety: the cursor that builds the index adds entries while the
 * loader's reducer notes line numbers (and compresses pending snapshots);
 * every access takes the index's lock. */
#ifndef SPOOR_IO_INDEX_H
#define SPOOR_IO_INDEX_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/error.h"

struct io_ckpt {
    uint64_t out;       /* uncompressed offset of the snapshot */
    uint64_t cut;       /* start of the first line of the part, cut <= out */
    uint64_t comp;      /* compressed offset of the decoder's next input byte */
    uint64_t line;      /* 1-based line number at cut; 0 = not known */
    uint32_t crc;       /* gzip CRC of the member's output up to out */
    uint32_t carry_crc; /* crc32 of the bytes [cut, out), taken from the snapshot */
};

struct io_entry {
    struct io_ckpt ck;
    uint8_t *blob;      /* the snapshot, zstd-compressed or raw */
    uint32_t blob_len;
    uint32_t raw_len;
    bool zstd;          /* blob is compressed */
    bool pending;       /* raw, waiting for compression */
    bool busy;          /* being compressed outside the lock */
};

struct io_index {
    pthread_mutex_t mu;
    struct io_entry *e;
    size_t n, cap;
    size_t npending;        /* entries waiting for compression */
    bool lines_learnt;      /* a line number became known after loading */
    uint64_t total_out;     /* uncompressed size; 0 until known */
    void *add_cctx;         /* compression by the building cursor */
    void *note_cctx;        /* compression by whoever notes lines */
    pthread_mutex_t note_mu;
};

struct io_index *io_index_new(void);
void io_index_free(struct io_index *idx);

size_t io_index_count(struct io_index *idx);
struct io_ckpt io_index_at(struct io_index *idx, size_t i);

/* Appends a checkpoint; takes ownership of raw (malloc'd). */
void io_index_add(struct io_index *idx, const struct io_ckpt *ck, uint8_t *raw, uint32_t raw_len);

/* Appends a checkpoint read from a sidecar (takes ownership of blob). */
void io_index_add_stored(struct io_index *idx, const struct io_ckpt *ck, uint8_t *blob,
                         uint32_t blob_len, uint32_t raw_len, bool zstd);

/* The snapshot of checkpoint i, decompressed into a new buffer. */
int io_index_snapshot(struct io_index *idx, size_t i, uint8_t **raw, size_t *len);

/* The part starting at uncompressed `offset` starts at 1-based `line`. */
void io_index_note_line(struct io_index *idx, uint64_t offset, uint64_t line);

/* The last checkpoint whose known line is <= line, or SIZE_MAX. */
size_t io_index_find_line(struct io_index *idx, uint64_t line);

/* Compresses every pending snapshot (before the index is written). */
void io_index_compress_all(struct io_index *idx);

/* Drops checkpoints at or past the end of the data (their parts would be empty). */
void io_index_trim(struct io_index *idx, uint64_t total_out);

#endif
