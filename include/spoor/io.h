/* Bytes from disk: plain files, gzip (ISA-L; single- and multi-member), zstd;
 * from a regular file (read with pread into bounded buffers), or from standard
 * input ("-") or a FIFO, read once in order. An input is read as one or more
 * independent *parts*; each part is read by a *cursor* as a sequence of
 * line-aligned chunks of about 4 MiB.
 *
 * Gzip inputs keep a checkpoint index sidecar (TRACE.spoor-idx) built during the
 * first full sequential scan at no extra pass; with it, later scans split the
 * file into parts that threads inflate independently. Plain files split at
 * newline boundaries. */
#ifndef SPOOR_IO_H
#define SPOOR_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/error.h"

enum spoor_input_kind { SPOOR_INPUT_PLAIN, SPOOR_INPUT_GZIP, SPOOR_INPUT_ZSTD };

/* How an input's bytes divide into records (docs/perf-notes.md, "Records"). */
enum spoor_records {
    SPOOR_RECORDS_LINES,        /* one record per line (the default) */
    /* JSON lines whose strings may hold a raw newline: a line cut short
     * inside a string goes on in the next line (spoor_json_line_joins) */
    SPOOR_RECORDS_JSON_LINES,
    /* one JSON document whose array of events (a whole-file `[...]`, or the
     * `"traceEvents"` member of an object) may be one line of any length:
     * read in order, each chunk cut after an event, and rewritten so that
     * every event is one line (see spoor_chunk) */
    SPOOR_RECORDS_JSON_EVENTS,
};

struct spoor_input_opts {
    bool no_index;      /* neither read nor write the checkpoint index */
    size_t chunk_size;  /* target chunk size in bytes; 0 = 4 MiB */
};

struct spoor_input;
struct spoor_cursor;

/* Identity of a trace file as its sidecars (checkpoint index, snapshot) record
 * it: a sidecar whose fingerprint differs belongs to another file or to an
 * older version of this one. */
struct spoor_fingerprint {
    uint64_t size;
    int64_t mtime_sec;
    uint32_t mtime_nsec;
    uint32_t ctime_nsec;
    int64_t ctime_sec;      /* inode change time: any rewrite sets it, no tool sets it back */
    uint64_t inode;
    uint32_t head_crc;      /* crc32 of the first SPOOR_FINGERPRINT_BYTES */
    uint32_t tail_crc;      /* crc32 of the last SPOOR_FINGERPRINT_BYTES */
};
enum { SPOOR_FINGERPRINT_BYTES = 4096 };

/* Fingerprints the regular file at path; errors name the file. */
int spoor_fingerprint_file(const char *path, struct spoor_fingerprint *fp, struct spoor_error *err);
/* True when the directory holding path has no write bit: read-only by its mode,
 * even for root, who could write there but should not. */
bool spoor_dir_read_only(const char *path);

/* A damaged stretch of a compressed input whose lines were dropped: a gzip
 * member that failed its CRC or length check, or whose deflate data is
 * corrupt, up to the next member that decodes. `lines` counts the lines
 * decoded from it (and the line pieces either side that it cut). */
struct spoor_drop {
    uint64_t lines;         /* 0: nothing was dropped */
    uint64_t from, to;      /* its bytes on disk, [from, to) */
    const char *why;        /* "checksum mismatch", ... (static) */
};

/* A run of whole lines. `data` points into `buf` (owned by the chunk, reused,
 * grown by the cursor as needed, e.g. for a line longer than chunk_size) or,
 * for a plain file, into `map`, a window of the file mapped for this chunk
 * alone. It stays valid until the chunk is passed to spoor_cursor_next()
 * again. The last line of a chunk ends with '\n' unless it is the last line
 * of the input. Offsets count the bytes delivered: a dropped stretch (see
 * `dropped`) takes no room. */
struct spoor_chunk {
    const char *data;
    size_t len;
    uint64_t offset;        /* uncompressed byte offset of data[0] in the input */
    uint64_t first_line;    /* 1-based line number of data[0]; 0 when not known here */
    struct spoor_drop dropped; /* lines dropped just before data[0] (chunk may be empty) */
    char *buf;              /* owned storage; free with spoor_chunk_release */
    size_t cap;
    void *map;              /* owned mapping, or NULL */
    size_t map_len;
    int map_guard;
};

void spoor_chunk_release(struct spoor_chunk *chunk);

/* SPOOR_RECORDS_JSON_LINES: whether the line whose last bytes end at
 * line_end (the byte before its '\n') joins the next line, whose bytes are
 * [next, next_end): it ends cut short (not with `}`, `]`, `,`, `[` or `{`)
 * and the next one does not start an object. 1 joins, 0 does not, -1 more
 * bytes of the next line are needed to tell. line_start bounds the look
 * back. */
int spoor_json_line_joins(const char *line_start, const char *line_end, const char *next, const char *next_end);

/* How the input's bytes divide into records, set once after its format is
 * detected and before any cursor is opened. SPOOR_RECORDS_JSON_EVENTS reads
 * the input as one sequential part, never mapped: each chunk holds whole
 * events, one per line. Outside the events array, the document's own '{'
 * becomes ',' and its closing ']' a newline, so the members around the
 * array are lines that start with ',' (or are the lone closing '}'); the
 * array's '[' and every top-level ',' between events become newlines, and
 * newlines outside strings blanks. Bytes are replaced one for one, so
 * offsets still count the file's bytes. */
void spoor_input_set_records(struct spoor_input *in, enum spoor_records records);

/* Opens a file, or standard input for "-", and detects the kind from magic
 * bytes. Errors name the file: missing, a directory or device, unreadable, a
 * FIFO with no writer, standard input a second time. An empty file is a valid
 * input with no lines. A regular file is read up to the size it had here:
 * bytes appended later are not read, and a file that shrinks is an error
 * ("shrank from N to M bytes while being read") from the cursor reading it.
 * A stream (standard input, a FIFO) has one part, no index, and one cursor. */
int spoor_input_open(const char *path, const struct spoor_input_opts *opts,
                     struct spoor_input **out, struct spoor_error *err);
void spoor_input_close(struct spoor_input *in);
/* True when path names a stream: "-", or a FIFO (checked without opening it). */
bool spoor_input_is_stream(const char *path);

const char *spoor_input_path(const struct spoor_input *in);
enum spoor_input_kind spoor_input_kind(const struct spoor_input *in);
/* Bytes on disk; for a stream, the bytes read from it so far. */
uint64_t spoor_input_size(const struct spoor_input *in);
/* The first bytes of the decompressed stream (for format sniffing); at most max. */
size_t spoor_input_head(struct spoor_input *in, char *dst, size_t max);

/* Splits the input into parts for up to nthreads readers; returns the count.
 * One part means the input must be read sequentially. */
size_t spoor_input_plan(struct spoor_input *in, int nthreads);

int spoor_cursor_open(struct spoor_input *in, size_t part, struct spoor_cursor **out,
                      struct spoor_error *err);
/* Fills chunk with the next lines of the part. Returns 1 when a chunk was
 * filled, 0 at the end of the part, negative with err set on a hard error. */
int spoor_cursor_next(struct spoor_cursor *c, struct spoor_chunk *chunk, struct spoor_error *err);
/* Compressed bytes consumed so far (for progress bars). */
uint64_t spoor_cursor_progress(const struct spoor_cursor *c);
/* After the end: a one-line report of a damaged input (truncated or corrupt
 * gzip: "truncated at byte N"), or NULL when the input ended cleanly.
 *
 * A gzip member's lines are delivered only once its CRC and length check out
 * (up to its first 4 MiB of output; see docs/perf-notes.md, "Reading"): those of
 * a member that fails are dropped and reported in the next chunk's `dropped`,
 * and reading goes on at the next member. Damage found in a larger member
 * after some of its lines went out is a hard error. */
const char *spoor_cursor_warning(const struct spoor_cursor *c);
void spoor_cursor_close(struct spoor_cursor *c);

/* Positions a cursor at or before 1-based line `line` (for `spoor cat`): the
 * returned cursor's first chunk starts at line *first_line <= line. */
int spoor_cursor_open_at_line(struct spoor_input *in, uint64_t line, struct spoor_cursor **out,
                              uint64_t *first_line, struct spoor_error *err);

/* The index learns line numbers from whoever counts lines (the loader, after
 * parsing chunks in order): the chunk at uncompressed `offset` starts at 1-based
 * line `first_line`. */
void spoor_input_note_line(struct spoor_input *in, uint64_t offset, uint64_t first_line);
/* After a complete sequential scan: writes the index sidecar atomically if one
 * was being built (temp file + rename). Warns once (in *warning) and goes on when
 * the directory is read-only. Returns 0 or a negative error. */
int spoor_input_finish(struct spoor_input *in, const char **warning, struct spoor_error *err);

/* Builds (or rebuilds) the index explicitly: `spoor index`. */
int spoor_input_build_index(struct spoor_input *in, struct spoor_error *err);
/* The sidecar path for a trace. */
void spoor_index_path(const char *trace, char *out, size_t cap);

#endif
