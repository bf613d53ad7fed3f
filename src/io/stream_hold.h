/* The stream cursor (stream.c) and its hold: finished chunks wait until the
 * decoder vouches for their bytes, and the lines of output it reports
 * damaged are dropped, so no line of a damaged gzip member reaches a reader. */
#ifndef SPOOR_IO_STREAM_HOLD_H
#define SPOOR_IO_STREAM_HOLD_H

#include "io/stream.h"

struct stream_cursor {
    struct spoor_cursor base;
    const struct io_decoder_ops *ops;
    void *dec;
    uint8_t *carry;             /* start of the line the next chunk begins with */
    size_t carry_len, carry_cap;
    uint64_t carry_offset;      /* decoded offset of carry[0] */
    uint64_t first_line;
    uint64_t boundary;
    struct io_events_doc doc;   /* SPOOR_RECORDS_JSON_EVENTS: where the cutter is */
    bool eof;                   /* the decoder has no more data */
    bool done;                  /* the part is over: nothing more is produced */

    struct spoor_chunk cur;     /* the chunk being decoded into (len, offset decoded) */
    size_t target;              /* ... its size when full */
    bool filling;               /* ... it was started */
    struct spoor_chunk *held;   /* finished chunks, oldest first */
    size_t nheld, held_cap;
    struct spoor_chunk *spare;  /* buffers to decode into next */
    size_t nspare, spare_cap;
    uint64_t handed_end;        /* decoded offset past the last chunk handed out */
    uint64_t next_offset;       /* offset (bytes delivered) of the next one */
    struct spoor_drop drop;     /* dropped before the next chunk finished */
    bool skip_piece;            /* the next output starts inside a dropped line */

    struct spoor_drop first;    /* the first drop handed out, for the warning */
    size_t ndrops;
    uint64_t dropped_lines;
    char warning[400];
};

/* Queues s->cur as a finished chunk of len bytes at decoded offset `offset`
 * (an empty one only when it carries a drop) and gives cur a fresh buffer. */
void hold_finish(struct stream_cursor *s, size_t len, uint64_t offset);

/* True when the oldest queued chunk may go out: the decoder vouches for it,
 * the part is over, or the member being decoded has passed IO_HOLD bytes. */
bool hold_ready(struct stream_cursor *s);

/* Hands the oldest queued chunk to the caller (buffers swapped); returns 1. */
int hold_hand_out(struct stream_cursor *s, struct spoor_chunk *chunk);

/* The decoder found damage while filling cur: drops every queued or decoded
 * byte of the lines that touch it and records the drop for the next chunk.
 * Returns 1 when the good lines before it were finished as a chunk (the next
 * one starts afresh), 0 when cur goes on empty at the decoder's offset, or a
 * negative status when lines of the damaged member were already handed out. */
int hold_drop(struct stream_cursor *s, const struct io_damage *dmg, struct spoor_error *err);

/* Drops cur's bytes (all decoded since the drop) up to and including the
 * first newline: the rest of a line cut by a drop. */
void hold_skip_piece(struct stream_cursor *s);

/* At the end of the part: composes the warning from the drops handed out and
 * the decoder's own (final by then). */
void hold_end(struct stream_cursor *s);

/* The warning for the cursor: the drops, then the decoder's own; NULL if none. */
const char *hold_warning(const struct stream_cursor *s);

void hold_free(struct stream_cursor *s);

#endif
