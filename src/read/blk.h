/* Block-layer requests from text traces: what the three block readers
 * (blkparse.c, ftrace_block.c, lttng_block.c) share.
 *
 * A reader turns each line that issues, completes or requeues a request into
 * an *event row* (blk_event.c); the join (blk_join.c) then makes each issue
 * and its completion one row, in input order across batches, through the
 * format's join hook. Every other line of the trace (queueing, merges, plugs,
 * other events) makes no row. The rows the join gives (docs/formats.md,
 * "Block-layer traces"): ts = issue time, dur = completion - issue, pid and
 * tid of the issuer, name = the operation (read, write, discard, flush,
 * none), cat "block", and the columns dev ("major,minor"), sector, bytes,
 * rwbs, comm, error and queue_depth. */
#ifndef SPOOR_READ_BLK_H
#define SPOOR_READ_BLK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "read/field_map.h"
#include "spoor/load.h"

/* The kind of an event row, kept in its ph until the join. */
enum blk_kind { BLK_ISSUE = 'D', BLK_COMPLETE = 'C', BLK_REQUEUE = 'R' };

/* A request without data (a flush) names no sector its completion repeats:
 * such requests are matched on the device alone. */
#define BLK_NO_SECTOR UINT64_MAX

struct blk_event {
    enum blk_kind kind;
    int64_t ts;                 /* ns */
    uint32_t major, minor;
    uint64_t sector;            /* BLK_NO_SECTOR when the request has no data */
    int64_t bytes;              /* as the trace says, or sectors * 512 */
    const char *rwbs;           /* normalized flags, e.g. "WS" (blk_rwbs_*) */
    size_t rwbs_len;
    int64_t pid, tid;           /* SPOOR_NULL when not known */
    const char *comm;           /* NULL when not known */
    size_t comm_len;
    int64_t error;              /* completions; SPOOR_NULL when not known */
};

/* Sets e to an event of that kind of which nothing else is known yet: no
 * bytes, pid, tid, comm or error. Field by field, since an initializer of the
 * struct compiles to a `rep stos`, whose start-up costs as much as a short
 * line's parse. */
static inline void blk_event_init(struct blk_event *e, enum blk_kind kind)
{
    e->kind = kind;
    e->ts = 0;
    e->major = e->minor = 0;
    e->sector = 0;
    e->bytes = -1;
    e->rwbs = NULL;
    e->rwbs_len = 0;
    e->pid = e->tid = SPOOR_NULL;
    e->comm = NULL;
    e->comm_len = 0;
    e->error = SPOOR_NULL;
}

/* One parse call's columns and string memos (columns made on first use). */
struct blk_rows {
    struct spoor_table *t;
    uint32_t src;
    int col[7];
    uint32_t cat;
    uint64_t dev_key;           /* the last device and its id (0: none yet) */
    uint32_t dev_id;
    char rwbs[8];               /* the last rwbs flags (rwbs_len SIZE_MAX: none) and their ids */
    size_t rwbs_len;
    uint32_t rwbs_id, op_id;
    struct spoor_string_memo comm_memo, short_memo;
};

void blk_rows_init(struct blk_rows *r, struct spoor_table *t, uint32_t src);
void blk_rows_add(struct blk_rows *r, uint64_t line, const struct blk_event *e);

/* The column indexes of blk_rows.col, by name. */
enum blk_column { BLK_COL_DEV, BLK_COL_SECTOR, BLK_COL_BYTES, BLK_COL_RWBS, BLK_COL_COMM, BLK_COL_ERROR,
                  BLK_COL_QUEUE_DEPTH, BLK_COLS };
extern const char *const blk_column_names[BLK_COLS];

/* The operation an rwbs string names: "read", "write", "discard", "flush" or
 * "none" (the letter after an optional leading F, the preflush, decides). */
const char *blk_rwbs_op(const char *rwbs, size_t len, size_t *op_len);
/* LTTng's rwbs bit mask as the kernel's text (into buf, at least 8 bytes):
 * F (preflush), W/D/R/F (write, discard, read, flush; N for none), F (FUA),
 * A (read-ahead), S (sync), M (meta). Returns the length. */
size_t blk_rwbs_from_bits(uint64_t bits, char *buf);

/* Scanning helpers of the text forms. */
/* The end of the line at p, before its '\n' (or end) and a '\r' there. */
const char *blk_line_end(const char *p, const char *end);
/* The end of a line without its '\r' before the '\n' (line callbacks get
 * lines with the '\n' cut). */
const char *blk_cut_cr(const char *p, const char *end);
/* "SECONDS[.FRACTION]" (up to 9 decimals, as the traces print them) as ns. */
bool blk_seconds(const char *p, size_t n, int64_t *ns);
/* Skips spaces and tabs. Inline, as blk_uint: every field of a line takes them. */
static inline const char *blk_skip_blanks(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* An unsigned decimal at *p (moved past it); false when there is none or it
 * overflows. */
static inline bool blk_uint(const char **p, const char *end, uint64_t *v)
{
    /* 19 digits cannot overflow; a 20th is checked */
    const char *s = *p, *fast_end = end - s > 19 ? s + 19 : end;
    uint64_t x = 0;
    while (s < fast_end && (unsigned)(*s - '0') <= 9)
        x = x * 10 + (unsigned)(*s++ - '0');
    if (s == *p)
        return false;
    if (s < end && (unsigned)(*s - '0') <= 9) {
        unsigned d = (unsigned)(*s++ - '0');
        if (x > (UINT64_MAX - d) / 10 || (s < end && (unsigned)(*s - '0') <= 9))
            return false;
        x = x * 10 + d;
    }
    *p = s;
    *v = x;
    return true;
}
/* "major,minor" at *p (moved past it). */
bool blk_dev(const char **p, const char *end, uint32_t *major, uint32_t *minor);
/* "SECTOR + COUNT" at *p (moved past it): sets e->sector and, unless the
 * trace gave them, e->bytes; a request without data gets BLK_NO_SECTOR. */
bool blk_sector_count(const char **p, const char *end, struct blk_event *e);
/* Sets e->sector and, unless the trace gave them, e->bytes from a request's
 * first sector and sector count (at most INT64_MAX / 512); a request without
 * data gets BLK_NO_SECTOR. */
void blk_extent(struct blk_event *e, uint64_t sector, uint64_t count);

/* The block formats' join hook and release (the dialect's state is the join). */
int blk_format_join(struct spoor_dialect *d, struct spoor_table *batch, struct spoor_skips *skips, const char *path,
                    bool strict, struct spoor_table **view, struct spoor_error *err);
void blk_format_release(struct spoor_dialect *d);
/* The earliest issue time, from `since` on, of the requests the join holds
 * (issued, not yet completed), or INT64_MAX: a live reader's windows before
 * it are complete. */
int64_t blk_format_oldest_pending(const struct spoor_dialect *d, int64_t since);
/* Sets d up for a block format: its name and an empty join. */
void blk_format_begin(struct spoor_dialect *d, const struct spoor_format *f, const char *assumed);
/* The times are times of day: the join adds a day to every row from where
 * the time goes back by more than 12 hours (the trace passed midnight). */
void blk_format_times_of_day(struct spoor_dialect *d);

#endif
