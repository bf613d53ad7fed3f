/* A cursor over a decompressor (gzip, zstd): turns the decompressed byte
 * stream into line-aligned chunks. The decoder behind it only fills buffers;
 * this layer carries partial lines between chunks, grows a chunk for a long
 * line and stops exactly at boundaries the decoder asks for (checkpoints). */
#ifndef SPOOR_IO_STREAM_H
#define SPOOR_IO_STREAM_H

#include "io/internal.h"

enum { IO_END = 0, IO_MORE = 1 };

/* Output is held back until the decoder vouches for it (a gzip member's
 * trailer checked out), until the member has decoded this many bytes; then
 * it goes out ahead of the check, and damage found later is a hard error.
 * One default chunk: the first parse waits for no more than it did. */
#define IO_HOLD ((size_t)4 << 20)

/* Output the decoder found damaged: decoded offsets [out_start, out_end)
 * (out_start is where the damaged member began) from the compressed bytes
 * [comp_start, comp_end); decoding goes on at out_end. Bytes decoded before
 * an error but never output count too (so the count does not depend on how
 * output was sliced): their newlines, and their last byte (-1: none). Whole:
 * the member's output ran to its trailer and the next member follows it, so
 * where its output ends says whether it ended a line. */
struct io_damage {
    uint64_t out_start, out_end;
    uint64_t comp_start, comp_end;
    const char *why;
    uint64_t unsent_newlines;
    int unsent_last;
    bool whole;
};

struct io_decoder_ops {
    /* Decompresses up to `want` bytes to dst and sets *got. Returns IO_MORE
     * (call again; *got may be short at a member or frame boundary), IO_END
     * (no more data: clean end, or damaged input with warning() set), or
     * -status with err set. */
    int (*fill)(void *dec, uint8_t *dst, size_t want, size_t *got, struct spoor_error *err);
    /* Optional. A chunk was cut: output so far ends at uncompressed offset
     * `end`, and the next chunk starts at `cut`; tail holds the bytes [cut, end). */
    void (*cut)(void *dec, uint64_t end, uint64_t cut, const uint8_t *tail);
    /* Optional. Output reached the boundary the decoder set; the `avail`
     * bytes before `before` are the end of that output. Returns 0 to go on
     * (with *next the next boundary, UINT64_MAX for none), 1 to end the part
     * with its last line ending at *stop_cut, or -status with err set. */
    int (*boundary)(void *dec, const uint8_t *before, size_t avail, uint64_t *next,
                    uint64_t *stop_cut, struct spoor_error *err);
    /* Optional (NULL: all output is good as it comes). The decoded offset up
     * to which output is vouched for; UINT64_MAX when it need not be held. */
    uint64_t (*verified)(const void *dec);
    /* Optional. After fill(): takes the record of damage found in it (fill
     * stops there), false when there is none. */
    bool (*damage)(void *dec, struct io_damage *out);
    uint64_t (*progress)(const void *dec);     /* compressed bytes consumed */
    const char *(*warning)(const void *dec);   /* damaged input, or NULL */
    void (*close)(void *dec);
};

/* Where the stream starts: the decoder's next output byte is at uncompressed
 * offset `offset + carry_len`; the carry bytes (the start of a line) come first. */
struct io_stream_start {
    uint64_t offset;
    const uint8_t *carry;
    size_t carry_len;
    uint64_t first_line;        /* of the first chunk; 0 when not known */
    uint64_t boundary;          /* first boundary; UINT64_MAX for none */
};

/* Takes ownership of dec (closed with ops->close, also on failure). */
int io_stream_open(struct spoor_input *in, const struct io_decoder_ops *ops, void *dec,
                   const struct io_stream_start *start, struct spoor_cursor **out);

#endif
