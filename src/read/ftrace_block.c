/* The ftrace reader: the kernel's trace text (tracefs `trace`, `trace_pipe`)
 * or `trace-cmd report`, of which it keeps the block requests:
 *
 *     dd-1309    [001] ..... 23398.758381: block_rq_issue: 254,0 RS 131072 () 378814464 + 256 be,0,4 [dd]
 *     cc1-1307   [001] ..s1. 23398.761102: block_rq_complete: 254,0 RS () 378814464 + 256 be,0,4 [0]
 *
 * The prefix is TASK-PID, the CPU in brackets, optional flags and the time
 * in seconds (6 or 9 decimals); a TASK may hold blanks and dashes, so the
 * PID is after its last dash. block_rq_issue gives the bytes, the command
 * in parentheses, the sector range, the I/O priority (kernels since 6.x)
 * and the issuer's comm; block_rq_complete and block_rq_requeue the same
 * but no bytes and the error. Other events (block_bio_queue, merges, other
 * subsystems) make no row; header lines are structural. */
#include "read/blk.h"
#include "read/mapped_reader.h"

#include <string.h>

/* The parts of an event line: the task's pid, the time and the event's name
 * and payload. False when the line is no event line. */
struct ftrace_line {
    int64_t pid;
    const char *ts, *name, *payload;
    size_t ts_len, name_len;
};

static bool split_line(const char *line, const char *end, struct ftrace_line *f)
{
    const char *cpu = NULL;
    for (const char *p = line; (p = memchr(p, '[', (size_t)(end - p))) != NULL; p++)
        if (p > line && p[-1] == ' ') {
            cpu = p - 1;
            break;
        }
    if (!cpu)
        return false;
    const char *task_end = cpu;
    while (task_end > line && task_end[-1] == ' ')
        task_end--;
    if (task_end > line && task_end[-1] == ')') {   /* "(TGID)" of the record-tgid option */
        while (task_end > line && task_end[-1] != '(')
            task_end--;
        while (task_end > line && (task_end[-1] == '(' || task_end[-1] == ' '))
            task_end--;
    }
    const char *dash = task_end;
    while (dash > line && dash[-1] != '-')
        dash--;
    uint64_t pid;
    const char *digits = dash;
    if (dash == line || !blk_uint(&digits, task_end, &pid) || digits != task_end || pid > INT64_MAX)
        return false;
    f->pid = (int64_t)pid;
    /* "TIME: NAME: PAYLOAD": the first ": " after the CPU ends the time */
    const char *colon = cpu;
    while ((colon = memchr(colon, ':', (size_t)(end - colon))) != NULL && colon + 1 < end && colon[1] != ' ')
        colon++;
    if (!colon || colon + 1 >= end)
        return false;
    const char *ts = colon;
    while (ts > cpu && ts[-1] != ' ')
        ts--;
    f->ts = ts;
    f->ts_len = (size_t)(colon - ts);
    f->name = colon + 2;
    const char *name_end = f->name;
    while (name_end < end && *name_end != ':' && *name_end != ' ')
        name_end++;
    if (name_end >= end || *name_end != ':')
        return false;
    f->name_len = (size_t)(name_end - f->name);
    f->payload = name_end + 1;
    return true;
}

static bool named(const struct ftrace_line *f, const char *name)
{
    return f->name_len == strlen(name) && memcmp(f->name, name, f->name_len) == 0;
}

/* "(CMD)" at *p, moved past it (a command may hold blanks and parentheses). */
static bool command(const char **p, const char *end)
{
    const char *s = blk_skip_blanks(*p, end);
    if (s >= end || *s != '(')
        return false;
    int depth = 0;
    for (; s < end; s++) {
        depth += *s == '(' ? 1 : *s == ')' ? -1 : 0;
        if (depth == 0) {
            *p = s + 1;
            return true;
        }
    }
    return false;
}

/* The last "[...]" of the payload: the comm (issue) or the error. */
static bool last_brackets(const char *p, const char *end, const char **s, size_t *n)
{
    while (end > p && end[-1] == ' ')
        end--;
    if (end == p || end[-1] != ']')
        return false;
    const char *open = end - 1;
    while (open > p && open[-1] != '[')
        open--;
    if (open == p)
        return false;
    *s = open;
    *n = (size_t)(end - 1 - open);
    return true;
}

static const char *payload(const char *p, const char *end, struct blk_event *e)
{
    const char *bad = e->kind == BLK_ISSUE      ? "bad block_rq_issue payload"
                      : e->kind == BLK_COMPLETE ? "bad block_rq_complete payload"
                                                : "bad block_rq_requeue payload";
    p = blk_skip_blanks(p, end);
    if (!blk_dev(&p, end, &e->major, &e->minor))
        return bad;
    p = blk_skip_blanks(p, end);
    e->rwbs = p;
    while (p < end && *p != ' ')
        p++;
    e->rwbs_len = (size_t)(p - e->rwbs);
    uint64_t bytes;
    if (e->kind == BLK_ISSUE) {
        p = blk_skip_blanks(p, end);
        if (!blk_uint(&p, end, &bytes) || bytes > INT64_MAX)
            return bad;
        e->bytes = (int64_t)bytes;
    }
    if (!command(&p, end) || !blk_sector_count(&p, end, e))
        return bad;
    const char *last;
    size_t last_len;
    if (!last_brackets(p, end, &last, &last_len))
        return bad;
    if (e->kind == BLK_ISSUE) {
        e->comm = last;
        e->comm_len = last_len;
    } else {
        const char *q = last, *q_end = last + last_len;
        bool negative = q < q_end && *q == '-';
        uint64_t error;
        q += negative;
        if (!blk_uint(&q, q_end, &error) || q != q_end || error > INT64_MAX)
            return bad;
        e->error = negative ? -(int64_t)error : (int64_t)error;
    }
    return NULL;
}

/* Lines that are no event but belong to the text: comments and
 * trace-cmd's header ("cpus=2", "version = 6", "CPU 0 is empty"). */
static bool structural(const char *p, const char *end)
{
    p = blk_skip_blanks(p, end);
    size_t n = (size_t)(end - p);
    return n == 0 || *p == '#' || (n >= 5 && memcmp(p, "cpus=", 5) == 0) ||
           (n >= 9 && memcmp(p, "version =", 9) == 0) || (n >= 4 && memcmp(p, "CPU ", 4) == 0);
}

static const char *ftrace_line(void *ctx, const char *line, const char **line_end, uint64_t line_no)
{
    const char *end = *line_end = blk_cut_cr(line, *line_end);
    struct ftrace_line f;
    if (!split_line(line, end, &f))
        return structural(line, end) ? NULL : "not an ftrace event line";
    enum blk_kind kind;
    if (named(&f, "block_rq_issue"))
        kind = BLK_ISSUE;
    else if (named(&f, "block_rq_complete"))
        kind = BLK_COMPLETE;
    else if (named(&f, "block_rq_requeue"))
        kind = BLK_REQUEUE;
    else
        return NULL;
    struct blk_event e;
    blk_event_init(&e, kind);
    e.pid = e.tid = f.pid;
    if (!blk_seconds(f.ts, f.ts_len, &e.ts))
        return "bad ftrace timestamp";
    const char *reason = payload(f.payload, end, &e);
    if (!reason)
        blk_rows_add(ctx, line_no, &e);
    return reason;
}

/* Confident when the head has block request events in ftrace's layout. */
static int ftrace_sniff(const char *head, size_t len)
{
    const char *p = head, *end = head + len;
    int events = 0, block = 0, other = 0;
    while (p < end) {
        const char *e = blk_line_end(p, end);
        struct ftrace_line f;
        if (split_line(p, e, &f) && blk_seconds(f.ts, f.ts_len, &(int64_t){0})) {
            events++;
            block += f.name_len > 6 && memcmp(f.name, "block_", 6) == 0;
        } else if (!structural(p, e) && e < end) {  /* the head may cut its last line */
            other++;
        }
        p = e < end && *e == '\r' ? e + 2 : e + 1;
    }
    return block > 0 && events > 2 * other ? 80 : 0;
}

static int ftrace_detect(const char *head, size_t len, const struct spoor_read_opts *opts, struct spoor_dialect *d,
                         struct spoor_error *err)
{
    (void)head, (void)len, (void)opts, (void)err;
    blk_format_begin(d, &spoor_format_ftrace,
                     "times are seconds since boot; block_rq_issue joined with block_rq_complete");
    return SPOOR_OK;
}

static int ftrace_parse(struct spoor_parse_job *job, const char *buf, size_t len, struct spoor_error *err)
{
    struct blk_rows rows;
    blk_rows_init(&rows, job->out, job->src);
    return spoor_mapped_lines(job, buf, len, ftrace_line, &rows, err);
}

const struct spoor_format spoor_format_ftrace = {
    .name = "ftrace",
    .sniff = ftrace_sniff,
    .detect = ftrace_detect,
    .parse = ftrace_parse,
    .release = blk_format_release,
    .in_order = blk_format_join,
};
