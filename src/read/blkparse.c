/* The blkparse reader: blkparse's default output, one line per action,
 *
 *       8,0    3        6     0.000012850  4138  D   R 1234 + 8 [dd]
 *       8,0    3        7     0.000225410     0  C   R 1234 + 8 [0]
 *
 * that is the device, the CPU, a sequence number, seconds since the trace
 * began (9 decimals), the pid, the action and the rwbs flags, then what the
 * action tells: for D (issue) "SECTOR + SECTORS [COMM]", for C (complete)
 * and R (requeue) "SECTOR + SECTORS [ERROR]", either with "(ELAPSED)"
 * before the brackets under blkparse -t. Other actions (Q, G, I, M, P, U,
 * ...) make no row; the summary blkparse prints at the end is structural.
 * Passthrough requests (a SCSI command instead of a sector range) are
 * skipped. */
#include "read/blk.h"
#include "read/mapped_reader.h"
#include "read/text_fields.h"
#include "util/digits.h"

#include <string.h>

static const char *token(const char **p, const char *end, size_t *n)
{
    const char *s = blk_skip_blanks(*p, end), *t = s;
    while (t < end && *t != ' ' && *t != '\t')
        t++;
    *n = (size_t)(t - s);
    *p = t;
    return s;
}

/* The fixed head of a line: device, CPU, sequence, time, pid, action. */
struct head {
    uint32_t major, minor;
    const char *ts, *action;
    size_t ts_len, action_len;
    uint64_t pid;
};

static bool split_head(const char **p, const char *end, struct head *h)
{
    const char *s = blk_skip_blanks(*p, end);
    uint64_t cpu, seq;
    if (!blk_dev(&s, end, &h->major, &h->minor))
        return false;
    s = blk_skip_blanks(s, end);
    if (!blk_uint(&s, end, &cpu))
        return false;
    s = blk_skip_blanks(s, end);
    if (!blk_uint(&s, end, &seq))
        return false;
    h->ts = token(&s, end, &h->ts_len);
    s = blk_skip_blanks(s, end);
    if (!blk_uint(&s, end, &h->pid) || h->pid > INT64_MAX)
        return false;
    h->action = token(&s, end, &h->action_len);
    *p = s;
    return h->ts_len > 0 && h->action_len > 0 && h->action_len <= 2;
}

/* Whether field [p, p + n) of a line ending at end is all of an unsigned
 * decimal: one SWAR step (util/digits.h) for the usual fields of at most 8
 * digits with 8 bytes of the line to read, blk_uint for others. */
static inline bool whole_uint(const char *p, size_t n, const char *end, uint64_t *v)
{
    if (n - 1 < 8 && end - p >= 8) {
        uint64_t w = spoor_get64((const uint8_t *)p);
        if (spoor_digits8(w) < (int)n)
            return false;
        *v = spoor_digits8_value(w, (int)n);
        return true;
    }
    const char *s = p;
    return blk_uint(&s, p + n, v) && s == p + n;
}

/* The fields of a line as its mask of blanks gives them (text_fields.h), 64
 * bytes a step rather than a blank at a time: the head, then what D, C and R
 * lines have, then the rest. */
enum { F_DEV, F_CPU, F_SEQ, F_TIME, F_PID, F_ACTION, F_RWBS, F_SECTOR, F_PLUS, F_COUNT, F_REST, F_FIELDS };
struct fields {
    const char *f[F_FIELDS];
    size_t n[F_FIELDS], count;
};

/* split_head on a line whose head is plainly what it should be. False leaves
 * the line to split_head, which reads any other text as it always did; where
 * this one succeeds, that one would give the same head. */
static bool split_head_fast(const char *line, const char *end, struct fields *fl, const char **p, struct head *h)
{
    const char *const *f = fl->f;
    const size_t *n = fl->n;
    uint64_t cpu, seq;
    fl->count = spoor_text_split(line, end, F_FIELDS, true, fl->f, fl->n);
    if (fl->count <= F_ACTION)
        return false;
    const char *dev = f[F_DEV];
    if (!blk_dev(&dev, f[F_DEV] + n[F_DEV], &h->major, &h->minor) || dev != f[F_DEV] + n[F_DEV] ||
        !whole_uint(f[F_CPU], n[F_CPU], end, &cpu) || !whole_uint(f[F_SEQ], n[F_SEQ], end, &seq) ||
        !whole_uint(f[F_PID], n[F_PID], end, &h->pid) || h->pid > INT64_MAX || n[F_ACTION] > 2)
        return false;
    h->ts = f[F_TIME];
    h->ts_len = n[F_TIME];
    h->action = f[F_ACTION];
    h->action_len = n[F_ACTION];
    *p = f[F_ACTION] + n[F_ACTION];
    return true;
}

/* The rwbs flags and "SECTOR + COUNT" after the head, from the fields when
 * they are plainly that (as split_head_fast), else as blk_sector_count
 * reads them; false when there is no sector range. */
static bool rwbs_extent(const struct fields *fl, bool split, const char **p, const char *end, struct blk_event *e)
{
    const char *const *f = fl->f;
    const size_t *n = fl->n;
    uint64_t sector, count;
    if (split && fl->count == F_FIELDS && n[F_PLUS] == 1 && *f[F_PLUS] == '+' &&
        whole_uint(f[F_SECTOR], n[F_SECTOR], end, &sector) && whole_uint(f[F_COUNT], n[F_COUNT], end, &count) &&
        count <= INT64_MAX / 512) {
        e->rwbs = f[F_RWBS];
        e->rwbs_len = n[F_RWBS];
        blk_extent(e, sector, count);
        *p = f[F_COUNT] + n[F_COUNT];
        return true;
    }
    e->rwbs = token(p, end, &e->rwbs_len);
    return blk_sector_count(p, end, e);
}

/* The summary at the end ("CPU0 (8,0):", " Reads Queued: ...", "Total
 * (8,0):", "Throughput (R/W): ...", "Events (8,0): ...", "Skips: ..."):
 * lines that begin with a word and hold a colon. */
static bool structural(const char *p, const char *end)
{
    p = blk_skip_blanks(p, end);
    if (p == end)
        return true;
    bool word = (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z');
    return word && memchr(p, ':', (size_t)(end - p)) != NULL;
}

static const char *blkparse_line(void *ctx, const char *line, const char **line_end, uint64_t line_no)
{
    const char *end = *line_end = blk_cut_cr(line, *line_end);
    const char *p = line;
    struct head h;
    struct fields fl;
    bool split = split_head_fast(line, end, &fl, &p, &h);
    if (!split && !split_head(&p, end, &h))
        return structural(line, end) ? NULL : "not a blkparse event line";
    char action = h.action[0];
    if (h.action_len != 1 || (action != BLK_ISSUE && action != BLK_COMPLETE && action != BLK_REQUEUE))
        return NULL;
    struct blk_event e;
    blk_event_init(&e, (enum blk_kind)action);
    e.major = h.major;
    e.minor = h.minor;
    e.pid = e.tid = (int64_t)h.pid;
    if (!blk_seconds(h.ts, h.ts_len, &e.ts))
        return "bad blkparse time";
    if (!rwbs_extent(&fl, split, &p, end, &e)) {
        /* "BYTES (CDB) [...]": a command for the device, no sector range */
        return memchr(p, '(', (size_t)(end - p)) ? "passthrough request without a sector range"
                                                  : "bad blkparse sector range";
    }
    p = blk_skip_blanks(p, end);
    if (p < end && *p == '(') {     /* blkparse -t: the time since the request's queueing */
        const char *close = memchr(p, ')', (size_t)(end - p));
        if (!close)
            return "bad blkparse sector range";
        p = blk_skip_blanks(close + 1, end);
    }
    const char *close = end;
    while (close > p && close[-1] == ' ')
        close--;
    if (p >= close || *p != '[' || close[-1] != ']')
        return "bad blkparse sector range";
    const char *in = p + 1, *in_end = close - 1;
    if (e.kind == BLK_ISSUE) {
        e.comm = in;
        e.comm_len = (size_t)(in_end - in);
    } else {
        uint64_t error;
        bool negative = in < in_end && *in == '-';
        in += negative;
        if (!blk_uint(&in, in_end, &error) || in != in_end || error > INT64_MAX)
            return "bad blkparse error";
        e.error = negative ? -(int64_t)error : (int64_t)error;
    }
    blk_rows_add(ctx, line_no, &e);
    return NULL;
}

/* Confident when most lines of the head are blkparse actions. */
static int blkparse_sniff(const char *head, size_t len)
{
    const char *p = head, *end = head + len;
    int actions = 0, lines = 0;
    while (p < end && lines < 16) {
        const char *e = blk_line_end(p, end), *q = p;
        struct head h;
        bool action = split_head(&q, e, &h) && blk_seconds(h.ts, h.ts_len, &(int64_t){0});
        if (e > blk_skip_blanks(p, e) && (action || e < end)) {  /* the head may cut its last line */
            lines++;
            actions += action;
        }
        p = e < end && *e == '\r' ? e + 2 : e + 1;
    }
    return actions > 0 && actions * 4 >= lines * 3 ? 80 : 0;
}

static int blkparse_detect(const char *head, size_t len, const struct spoor_read_opts *opts,
                           struct spoor_dialect *d, struct spoor_error *err)
{
    (void)head, (void)len, (void)opts, (void)err;
    blk_format_begin(d, &spoor_format_blkparse,
                     "times are seconds since the trace began; D (issue) joined with C (complete)");
    return SPOOR_OK;
}

static int blkparse_parse(struct spoor_parse_job *job, const char *buf, size_t len, struct spoor_error *err)
{
    struct blk_rows rows;
    blk_rows_init(&rows, job->out, job->src);
    return spoor_mapped_lines(job, buf, len, blkparse_line, &rows, err);
}

const struct spoor_format spoor_format_blkparse = {
    .name = "blkparse",
    .sniff = blkparse_sniff,
    .detect = blkparse_detect,
    .parse = blkparse_parse,
    .release = blk_format_release,
    .in_order = blk_format_join,
};
