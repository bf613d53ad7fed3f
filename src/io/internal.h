/* Shared inside src/io: the input, the cursor base and the limits. */
#ifndef SPOOR_IO_INTERNAL_H
#define SPOOR_IO_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/load.h"
#include "io/input.h"

enum { IO_DEFAULT_CHUNK = 4 << 20 };
/* A longer line is an error rather than an unbounded allocation. */
#define IO_MAX_LINE ((size_t)256 << 20)

/* Fingerprints the open regular file fd (see struct spoor_fingerprint): its
 * stat, and its first and last bytes read with pread. */
struct stat;
int io_fingerprint_fd(int fd, const char *path, const struct stat *st, struct spoor_fingerprint *fp,
                      struct spoor_error *err);

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
    int fd;
    uint64_t size;              /* regular file: bytes at open; stream: bytes read so far */
    size_t chunk_size;
    struct spoor_fingerprint fp;

    /* A stream (standard input, a FIFO) is read once, in order. The bytes
     * read while `recording` (kind sniffing, the format's head) are kept in
     * rec and served again to the one cursor that reads it. */
    atomic_bool shrank;         /* a mapped window met the file's new end (map_guard.c) */
    bool stream;
    bool recording;
    bool stream_opened;         /* its cursor was opened */
    bool stream_eof;
    uint8_t *rec;
    size_t rec_len, rec_cap;

    enum spoor_records records;
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

/* Reads up to len bytes of the input at offset off into dst (read.c). *got is
 * short only at the end of the input: the size a regular file had at open
 * (bytes appended since are not read), or the end of a stream. A regular
 * file that ends sooner shrank while being read: an error saying so. A
 * stream reads on from where it is (or from the recorded bytes); any other
 * offset is an error. */
int io_read(struct spoor_input *in, uint64_t off, void *dst, size_t len, size_t *got, struct spoor_error *err);

/* Whether a regular file is now shorter than at open (by fstat, or a mapped
 * window met its end); a stream never is. */
bool io_input_shrank(struct spoor_input *in);
/* The error for a regular file that shrank: "shrank from N to M bytes". */
int io_shrank(const struct spoor_input *in, struct spoor_error *err);

/* A mapping of file bytes under the SIGBUS guard (map_guard.c). */
struct io_mapping {
    void *map;                  /* NULL: none */
    size_t len;
    int guard;
};
/* Maps the file bytes [off, off + len) into m; returns the address of byte off,
 * NULL when it cannot (no guard free, mmap failed). A fault in it once the
 * file shrank sets in->shrank and reads zeros. */
const void *io_guard_map(struct spoor_input *in, uint64_t off, size_t len, struct io_mapping *m);
void io_guard_unmap(struct io_mapping *m);

/* Maps the plain-file bytes [off, off + len) for chunk (which owns the
 * mapping until io_chunk_unmap) under the SIGBUS guard; NULL when it cannot
 * (then read them with io_read). */
const char *io_map_window(struct spoor_input *in, uint64_t off, size_t len, struct spoor_chunk *chunk);
/* Unmaps the chunk's window, if any. */
void io_chunk_unmap(struct spoor_chunk *chunk);

/* Compressed bytes, in a window of bounded size that moves forward as a
 * decoder consumes them (window.c): mapped from a file, read from a stream.
 * buf[0] is at input offset `base`; buf is read-only. */
struct io_window {
    uint8_t *buf;
    size_t len, cap;
    uint64_t base;
    bool eof;                   /* no bytes past base + len */
    struct io_mapping mapping;  /* a file's window */
    uint8_t *own;               /* a stream's buffer (cap bytes) */
};
/* Makes at least `need` bytes from input offset pos on available (fewer only
 * at the end of the input), keeping the few before pos that a decoder may
 * look back at: returns how many there are from pos, 0 at the end of the
 * input, negative with err set on a read error. */
long io_window_at(struct spoor_input *in, struct io_window *w, uint64_t pos, size_t need,
                  struct spoor_error *err);
void io_window_free(struct io_window *w);

/* Plain files: parts of chunk_size bytes each, every line in the part that
 * holds its first byte (plain.c). */
size_t io_plain_parts(const struct spoor_input *in);
/* A cursor over the lines that start in the plain-file bytes [start, end);
 * over a stream, a cursor over all of it. With `copy`, chunks are read, never
 * mapped: a shrinking file then never shows its caller zeros before the error
 * (for a caller that writes out chunks as they come, like spoor cat). */
int io_plain_open(struct spoor_input *in, uint64_t start, uint64_t end, bool copy, struct spoor_cursor **out);

/* The cutter of a JSON events document (json_events.c): where the events
 * array is, carried from one chunk to the next. */
struct io_events_doc {
    uint8_t phase;              /* before, wrapper, events, after */
    bool in_string, escaped;
    bool key_events;            /* the last wrapper key was "traceEvents" */
    uint32_t depth, events_depth;
    size_t key_start;           /* a wrapper key's first byte, in the chunk */
    size_t scanned;             /* bytes of the chunk scanned (and rewritten) */
};
/* Scans (and rewrites, see spoor_input_set_records) the chunk bytes
 * [d->scanned, len); returns the offset just past the last event that ends
 * in them (0: none), the rest goes on in the next chunk. */
size_t io_events_scan(struct io_events_doc *d, char *buf, size_t len);

/* Where a JSON_LINES or LOG_LINES chunk may end: after the '\n' at nl,
 * unless the line before it joins the next (spoor_record_line_joins). Walks
 * back from nl to the last line end that does not; NULL when none in [buf, nl]. */
const char *io_lines_cut(enum spoor_records records, const char *buf, const char *nl, const char *end, bool at_end);

#endif
