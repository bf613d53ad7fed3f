/* The LTTng reader: a kernel trace as babeltrace2 prints it (its `text`
 * output, the default of `babeltrace2 TRACE`), of which it keeps the block
 * requests:
 *
 *     [12:34:56.123456789] (+0.000001000) host block_rq_issue: { cpu_id = 1 }, { dev = 8388608,
 *         sector = 1234, nr_sector = 8, bytes = 4096, tid = 42, rwbs = 2, comm = "fio" }
 *
 * (one line). The time in brackets is the time of day (the default), a date
 * and time (--clock-date) or seconds (--clock-seconds); the delta in
 * parentheses and the host name are optional (--no-delta, --names). The
 * fields are `name = value` in brace groups (the stream's context, the
 * event's context from --add-context, the payload), read wherever they are:
 * dev is the kernel's dev_t (major << 20 | minor), rwbs LTTng's bit mask, as a
 * number or an enumeration `( "RWBS_FLAG_READ" : container = 4 )`, turned into
 * the kernel's letters; tid is the issuing thread; errors (older modules) or
 * error the completion's status. Other events make no row. */
#include "read/blk.h"
#include "read/mapped_reader.h"
#include "read/time_text.h"

#include <stdlib.h>
#include <string.h>

/* The line's time, event name and where its fields begin. */
struct bt_line {
    const char *ts, *name, *fields;
    size_t ts_len, name_len;
};

static bool split_line(const char *p, const char *end, struct bt_line *b)
{
    if (p >= end || *p != '[')
        return false;
    const char *close = memchr(p, ']', (size_t)(end - p));
    if (!close)
        return false;
    b->ts = p + 1;
    b->ts_len = (size_t)(close - b->ts);
    /* the name is the word before the first ": {" */
    for (const char *s = close + 1; (s = memchr(s, ':', (size_t)(end - s))) != NULL && s + 2 < end; s++)
        if (s[1] == ' ' && s[2] == '{') {
            const char *n = s;
            while (n > close + 1 && n[-1] != ' ')
                n--;
            b->name = n;
            b->name_len = (size_t)(s - n);
            b->fields = s + 2;
            return b->name_len > 0;
        }
    return false;
}

/* "HH:MM:SS.fraction" as ns since midnight. */
static bool time_of_day(const char *p, size_t n, int64_t *ns)
{
    const char *end = p + n;
    uint64_t h, m;
    if (!blk_uint(&p, end, &h) || p >= end || *p++ != ':' || !blk_uint(&p, end, &m) || p >= end || *p++ != ':')
        return false;
    int64_t s;
    if (h > 23 || m > 59 || !blk_seconds(p, (size_t)(end - p), &s) || s < 0 ||
        s >= 61 * 1000000000LL)
        return false;
    *ns = (int64_t)(h * 3600 + m * 60) * 1000000000 + s;
    return true;
}

static bool bt_time(const char *p, size_t n, int64_t *ns)
{
    if (n >= 10 && p[4] == '-')
        return spoor_time_parse_iso(p, n, ns);
    if (memchr(p, ':', n))
        return time_of_day(p, n, ns);
    return blk_seconds(p, n, ns);
}

/* The bytes the scan of a value acts on; it passes all others at one test a byte. */
static const bool value_syntax[256] = {
    ['"'] = true, ['\\'] = true, ['('] = true, ['['] = true, ['{'] = true,
    [')'] = true, [']'] = true, ['}'] = true, [','] = true,
};

/* The next `name = value` of the fields, at any depth of brace groups; a
 * value that is itself a group, an array or an enumeration is one value. */
static bool next_field(const char **p, const char *end, const char **k, size_t *kn, const char **v, size_t *vn)
{
    const char *s = *p;
    while (s < end && (*s == ' ' || *s == ',' || *s == '{' || *s == '}'))
        s++;
    if (s >= end)
        return false;
    *k = s;
    while (s < end && *s != ' ' && *s != '=')
        s++;
    *kn = (size_t)(s - *k);
    s = blk_skip_blanks(s, end);
    if (s >= end || *s != '=')
        return false;
    s = blk_skip_blanks(s + 1, end);
    *v = s;
    int depth = 0;
    bool quoted = false;
    for (; s < end; s++) {
        if (!value_syntax[(unsigned char)*s])
            continue;
        if (quoted) {
            if (*s == '\\' && s + 1 < end)
                s++;
            else if (*s == '"')
                quoted = false;
        } else if (*s == '"') {
            quoted = true;
        } else if (*s == '(' || *s == '[' || *s == '{') {
            depth++;
        } else if (*s == ')' || *s == ']' || *s == '}') {
            if (depth == 0)
                break;
            depth--;
        } else if (*s == ',' && depth == 0) {
            break;
        }
    }
    if (quoted || depth)
        return false;
    const char *ve = s;
    while (ve > *v && ve[-1] == ' ')
        ve--;
    *vn = (size_t)(ve - *v);
    *p = s;
    return true;
}

#define is_key(k, kn, name) ((kn) == sizeof name - 1 && memcmp(k, name, kn) == 0)

/* An integer value, or an enumeration's container value; an unsigned value
 * past INT64_MAX (a sector of all ones) keeps its bits. */
static bool number(const char *v, size_t vn, int64_t *out)
{
    const char *end = v + vn;
    if (vn && *v == '(') {
        /* the first "container" with a byte after it (memmem costs more on
         * values this short) */
        const char *c = v;
        while ((c = memchr(c, 'c', (size_t)(end - c))) != NULL && c + 9 < end && memcmp(c, "container", 9) != 0)
            c++;
        if (!c || c + 9 >= end)
            return false;
        const char *close = end;
        v = c + 9;
        while (v < close && (*v == ' ' || *v == '='))
            v++;
        end = v;
        while (end < close && *end >= '0' && *end <= '9')
            end++;
    }
    bool negative = v < end && *v == '-';
    v += negative;
    uint64_t x;
    if (!blk_uint(&v, end, &x) || v != end || (negative && x > INT64_MAX))
        return false;
    *out = negative ? -(int64_t)x : (int64_t)x;
    return true;
}

/* The fields a block event may have; `seen` has bit 1 << field of each found. */
enum field { F_DEV, F_SECTOR, F_NR_SECTOR, F_BYTES, F_TID, F_PID, F_RWBS, F_ERROR, F_NUMBERS };
/* Their keys: X(key, field) for each. */
#define FIELD_KEYS(X)                                                                                                 \
    X("dev", F_DEV) X("sector", F_SECTOR) X("nr_sector", F_NR_SECTOR) X("bytes", F_BYTES) X("tid", F_TID)             \
        X("pid", F_PID) X("vpid", F_PID) X("rwbs", F_RWBS) X("error", F_ERROR) X("errors", F_ERROR)

struct fields {
    int64_t v[F_NUMBERS];
    unsigned seen;
    const char *comm;
    size_t comm_len;
};

static int numeric_field(const char *k, size_t kn)
{
    /* most keys of a line are one of these, and most are looked up: first by
     * length, then a compare of a known size, which the compiler inlines */
#define KEY(name, f)                                                                                                  \
    if (kn == sizeof name - 1 && memcmp(k, name, sizeof name - 1) == 0)                                              \
        return f;
    FIELD_KEYS(KEY)
#undef KEY
    return -1;
}

static const char *read_fields(const char *p, const char *end, struct fields *f)
{
    const char *k, *v;
    size_t kn, vn;
    while (next_field(&p, end, &k, &kn, &v, &vn)) {
        int n = numeric_field(k, kn);
        if (n >= 0) {
            if (!number(v, vn, &f->v[n]))
                return "bad LTTng field value";
            f->seen |= 1u << n;
        } else if ((is_key(k, kn, "comm") || (is_key(k, kn, "procname") && !f->comm)) && vn >= 2 && *v == '"') {
            f->comm = v + 1;
            f->comm_len = vn - 2;
        }
    }
    /* what is left must close the groups: a line cut short does not */
    p = blk_skip_blanks(p, end);
    return p < end && *p == '}' ? NULL : "bad LTTng fields";
}

static const char *lttng_line(void *ctx, const char *line, const char **line_end, uint64_t line_no)
{
    const char *end = *line_end = blk_cut_cr(line, *line_end);
    struct bt_line b;
    if (!split_line(line, end, &b))
        return blk_skip_blanks(line, end) == end ? NULL : "not a babeltrace2 event line";
    enum blk_kind kind;
    if (is_key(b.name, b.name_len, "block_rq_issue"))
        kind = BLK_ISSUE;
    else if (is_key(b.name, b.name_len, "block_rq_complete"))
        kind = BLK_COMPLETE;
    else if (is_key(b.name, b.name_len, "block_rq_requeue"))
        kind = BLK_REQUEUE;
    else
        return NULL;
    struct blk_event e;
    blk_event_init(&e, kind);
    if (!bt_time(b.ts, b.ts_len, &e.ts))
        return "bad babeltrace2 time";
    struct fields f;    /* v[i] is read only once seen has bit i (an initializer would clear it all) */
    f.seen = 0;
    f.comm = NULL;
    f.comm_len = 0;
    const char *reason = read_fields(b.fields, end, &f);
    if (reason)
        return reason;
    unsigned needed = 1u << F_DEV | 1u << F_SECTOR | 1u << F_NR_SECTOR;
    if ((f.seen & needed) != needed || f.v[F_DEV] < 0 || f.v[F_NR_SECTOR] < 0 || f.v[F_NR_SECTOR] > INT64_MAX / 512)
        return "block request without dev, sector or nr_sector";
    e.major = (uint32_t)(f.v[F_DEV] >> 20);
    e.minor = (uint32_t)(f.v[F_DEV] & 0xFFFFF);
    e.sector = f.v[F_NR_SECTOR] == 0 ? BLK_NO_SECTOR : (uint64_t)f.v[F_SECTOR];
    e.bytes = f.seen & 1u << F_BYTES ? f.v[F_BYTES] : f.v[F_NR_SECTOR] * 512;
    char rwbs[16];
    e.rwbs_len = blk_rwbs_from_bits(f.seen & 1u << F_RWBS ? (uint64_t)f.v[F_RWBS] : 0, rwbs);
    e.rwbs = rwbs;
    e.tid = f.seen & 1u << F_TID ? f.v[F_TID] : SPOOR_NULL;
    e.pid = f.seen & 1u << F_PID ? f.v[F_PID] : e.tid;
    e.comm = f.comm;
    e.comm_len = f.comm_len;
    e.error = e.kind != BLK_ISSUE && f.seen & 1u << F_ERROR ? f.v[F_ERROR] : SPOOR_NULL;
    blk_rows_add(ctx, line_no, &e);
    return NULL;
}

/* Confident when the head has block request events in babeltrace2's text. */
static int lttng_sniff(const char *head, size_t len)
{
    const char *p = head, *end = head + len;
    int events = 0, block = 0, other = 0;
    while (p < end) {
        const char *e = blk_line_end(p, end);
        struct bt_line b;
        if (split_line(p, e, &b) && bt_time(b.ts, b.ts_len, &(int64_t){0})) {
            events++;
            block += b.name_len > 6 && memcmp(b.name, "block_", 6) == 0;
        } else if (blk_skip_blanks(p, e) < e && e < end) {  /* the head may cut its last line */
            other++;
        }
        p = e < end && *e == '\r' ? e + 2 : e + 1;
    }
    return block > 0 && events > 2 * other ? 80 : 0;
}

static int lttng_detect(const char *head, size_t len, const struct spoor_read_opts *opts, struct spoor_dialect *d,
                        struct spoor_error *err)
{
    (void)opts, (void)err;
    /* babeltrace2 prints every time alike: the first event's tells */
    const char *p = head, *end = head + len;
    struct bt_line b = {0};
    while (p < end && !split_line(p, blk_line_end(p, end), &b))
        p = blk_line_end(p, end) + 1;
    bool of_day = p < end && memchr(b.ts, ':', b.ts_len) && !(b.ts_len >= 10 && b.ts[4] == '-');
    blk_format_begin(d, &spoor_format_lttng,
                     of_day ? "times are times of day as babeltrace2 printed them, ns from the first midnight "
                              "(a day added at each midnight passed); block_rq_issue joined with block_rq_complete"
                            : "times as babeltrace2 printed them; block_rq_issue joined with block_rq_complete");
    if (of_day)
        blk_format_times_of_day(d);
    return SPOOR_OK;
}

static int lttng_parse(struct spoor_parse_job *job, const char *buf, size_t len, struct spoor_error *err)
{
    struct blk_rows rows;
    blk_rows_init(&rows, job->out, job->src);
    return spoor_mapped_lines(job, buf, len, lttng_line, &rows, err);
}

const struct spoor_format spoor_format_lttng = {
    .name = "lttng",
    .sniff = lttng_sniff,
    .detect = lttng_detect,
    .parse = lttng_parse,
    .release = blk_format_release,
    .in_order = blk_format_join,
};
