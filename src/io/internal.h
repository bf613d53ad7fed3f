/* Shared inside src/io: the input, the cursor base and the limits. */
#ifndef SPOOR_IO_INTERNAL_H
#define SPOOR_IO_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/io.h"

enum { IO_DEFAULT_CHUNK = 4 << 20 };
/* A longer line is an error rather than an unbounded allocation. */
#define IO_MAX_LINE ((size_t)256 << 20)

/* Fingerprints a mapped file (see struct spoor_fingerprint). */
struct stat;
void io_fingerprint(const uint8_t *map, uint64_t size, const struct stat *st, struct spoor_fingerprint *fp);

/* How a gzip input uses its checkpoint index. */
enum io_index_mode {
    IO_INDEX_OFF,       /* not gzip, or opts.no_index */
    IO_INDEX_BUILDING,  /* no usable sidecar: the first full scan builds one */
    IO_INDEX_LOADED,    /* a valid sidecar splits the input into parts */
};

struct io_index;

struct spoor_input {
    char *path;
    enum spoor_input_kind kind;
    const uint8_t *map;         /* whole file, read-only; NULL when empty */
    uint64_t size;
    size_t chunk_size;
    struct spoor_fingerprint fp;

    uint64_t *bounds;           /* plain files: part i is [bounds[i], bounds[i+1]) */
    size_t nparts;

    enum io_index_mode index_mode;
    struct io_index *index;     /* gzip with an index (loaded or being built) */
    bool builder_taken;         /* the one sequential cursor that builds was opened */
    bool scan_complete;         /* that cursor reached a clean end of the input */
    uint64_t scan_total;        /* ... and this many uncompressed bytes */
    bool finish_warned;
    char warning[1200];
};

/* Every cursor starts with this; ops dispatch to plain or stream cursors. */
struct io_cursor_ops {
    int (*next)(struct spoor_cursor *c, struct spoor_chunk *chunk, struct spoor_error *err);
    uint64_t (*progress)(const struct spoor_cursor *c);
    const char *(*warning)(const struct spoor_cursor *c);
    void (*close)(struct spoor_cursor *c);
};

struct spoor_cursor {
    const struct io_cursor_ops *ops;
    struct spoor_input *in;
};

/* Makes sure chunk->buf holds at least n bytes (contents up to `keep` kept). */
void io_chunk_reserve(struct spoor_chunk *chunk, size_t n, size_t keep);

/* Drops the whole pages of the map's bytes [from, to) from this process once
 * they are consumed: they stay in the page cache, and resident memory stays
 * bounded whatever the file size. Reading them again is still correct. */
void io_release(const struct spoor_input *in, uint64_t from, uint64_t to);

/* Splits a plain file into parts at newlines (sets bounds and nparts). */
void io_plain_plan(struct spoor_input *in);
/* A zero-copy cursor over the plain-file bytes [start, end). */
int io_plain_open(struct spoor_input *in, uint64_t start, uint64_t end, struct spoor_cursor **out);

#endif
