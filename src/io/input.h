/* What the loader (src/read) and the tests use of inputs beyond the public
 * API in spoor/load.h: record framing, file fingerprints for sidecars, the
 * head for sniffing, cursors over one part, progress, and the index's line
 * bookkeeping. */
#ifndef SPOOR_IO_INPUT_H
#define SPOOR_IO_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/error.h"
#include "spoor/load.h"

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

/* SPOOR_RECORDS_JSON_LINES: whether the line whose last bytes end at
 * line_end (the byte before its '\n') joins the next line, whose bytes are
 * [next, next_end): it ends cut short (not with `}`, `]`, `,`, `[` or `{`)
 * and the next one does not start an object. 1 joins, 0 does not, -1 more
 * bytes of the next line are needed to tell. line_start bounds the look
 * back. */
int spoor_json_line_joins(const char *line_start, const char *line_end, const char *next, const char *next_end);
/* SPOOR_RECORDS_LOG_LINES: whether a line joins the next, whose bytes are
 * [next, next_end): that one does not begin with a stamp (1), does (0), or
 * more of its bytes are needed to tell (-1). */
int spoor_log_line_joins(const char *next, const char *next_end);
/* Whether [p, end) begins with a log record's `YYYY-MM-DD HH:MM:SS` stamp. */
bool spoor_log_record_start(const char *p, const char *end);
/* The join of the input's records kind (0 for plain lines). */
int spoor_record_line_joins(enum spoor_records records, const char *line_start, const char *line_end,
                            const char *next, const char *next_end);

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

/* The first bytes of the decompressed stream (for format sniffing); at most max. */
size_t spoor_input_head(struct spoor_input *in, char *dst, size_t max);

/* A cursor over part `part` of the input (0 .. spoor_input_plan() - 1). */
int spoor_cursor_open(struct spoor_input *in, size_t part, struct spoor_cursor **out,
                      struct spoor_error *err);

/* Compressed bytes consumed so far (for progress bars). */
uint64_t spoor_cursor_progress(const struct spoor_cursor *c);

/* The index learns line numbers from whoever counts lines (the loader, after
 * parsing chunks in order): the chunk at uncompressed `offset` starts at 1-based
 * line `first_line`. */
void spoor_input_note_line(struct spoor_input *in, uint64_t offset, uint64_t first_line);
/* After a complete sequential scan: writes the index sidecar atomically if one
 * was being built (temp file + rename). Warns once (in *warning) and goes on when
 * the directory is read-only. Returns 0 or a negative error. */
int spoor_input_finish(struct spoor_input *in, const char **warning, struct spoor_error *err);

#endif
