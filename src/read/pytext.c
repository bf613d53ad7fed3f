/* The plain Python logging reader: records written with a format like
 * `%(asctime)s:%(levelname)s: %(message)s`, optionally with the logger
 * (`%(asctime)s:%(levelname)s:%(name)s: %(message)s`):
 *
 *     2022-03-31 12:05:09,054:INFO: Creating dataloader objects
 *     2022-03-31 12:05:10,472:ERROR:train: loader died
 *     Traceback (most recent call last):
 *       File "train.py", line 3, in <module>
 *
 * Lines without the `YYYY-MM-DD HH:MM:SS` stamp continue the record before
 * them and are folded into its message, one '\n' between lines. The input
 * is cut into chunks only where a record starts (SPOOR_RECORDS_LOG_LINES,
 * src/io/log_lines.c), so a chunk never begins with another chunk's
 * continuation; only lines before the file's first record have no record to
 * go with, and are skipped. One row per record: ts (local wall time, on UTC
 * in input order: wall_clock.c), name and column level, column logger when
 * there is one, column message; cat "log", ph 'i'.
 *
 * The `k=v;k=v` logs of the pylog reader have stamped lines too: the sniffer
 * leaves a head whose records mostly hold '=' to that reader. */
#include "io/input.h"
#include "read/field_map.h"
#include "read/mapped_reader.h"
#include "read/time_text.h"
#include "read/wall_clock.h"
#include "util/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A record line split up; false when it is stamped but not of the shape. */
struct record {
    int64_t local_ns;
    const char *level, *logger, *msg;
    size_t level_len, logger_len, msg_len;
};

static bool is_upper_word(const char *p, size_t n)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++)
        if (p[i] < 'A' || p[i] > 'Z')
            return false;
    return true;
}

static bool split_record(struct spoor_iso_day *day, const char *p, const char *end, struct record *r)
{
    const char *stamp_end = p + 19;
    if (stamp_end < end && (*stamp_end == ',' || *stamp_end == '.'))
        for (stamp_end++; stamp_end < end && *stamp_end >= '0' && *stamp_end <= '9'; stamp_end++)
            ;
    if (stamp_end >= end || *stamp_end != ':' ||
        !spoor_time_parse_iso_day(day, p, (size_t)(stamp_end - p), &r->local_ns))
        return false;
    const char *level = stamp_end + 1, *colon = memchr(level, ':', (size_t)(end - level));
    if (!colon || !is_upper_word(level, (size_t)(colon - level)))
        return false;
    r->level = level;
    r->level_len = (size_t)(colon - level);
    r->logger = NULL;
    r->logger_len = 0;
    const char *rest = colon + 1;
    if (rest < end && *rest != ' ') {
        const char *c = rest;
        while (c < end && *c != ':' && *c != ' ')
            c++;
        if (c < end && *c == ':') {
            r->logger = rest;
            r->logger_len = (size_t)(c - rest);
            rest = c + 1;
        }
    }
    if (rest < end && *rest == ' ')
        rest++;
    r->msg = rest;
    r->msg_len = (size_t)(end - rest);
    return true;
}

/* Confident when most lines of the head are such records and few of them
 * hold a k=v message (those are pylog's). */
static int pytext_sniff(const char *head, size_t len)
{
    const char *p = head + spoor_bom_len(head, len), *end = head + len;
    int records = 0, stamped = 0, pairs = 0;
    struct spoor_iso_day day = {0};
    for (int lines = 0; p < end && lines < 16; lines++) {
        const char *e = spoor_line_end(p, end), *le = spoor_cut_cr(p, e);
        struct record r;
        if (spoor_log_record_start(p, le)) {
            stamped++;
            if (split_record(&day, p, le, &r)) {
                records++;
                pairs += memchr(r.msg, '=', r.msg_len) != NULL;
            }
        }
        p = e + 1;
    }
    return records && records * 2 >= stamped && pairs * 2 < records ? 80 : 0;
}

static int pytext_detect(const char *head, size_t len, const struct spoor_read_opts *opts, struct spoor_dialect *d,
                         struct spoor_error *err)
{
    (void)head;
    (void)len;
    struct spoor_local_rows *s = calloc(1, sizeof *s);
    if (!s)
        return spoor_fail(err, SPOOR_ENOMEM, "out of memory");
    d->format = &spoor_format_pytext;
    d->state = s;
    d->records = SPOOR_RECORDS_LOG_LINES;
    d->ts_unit = d->dur_unit = SPOOR_UNIT_NS;
    snprintf(d->name, sizeof d->name, "python-logging");
    if (spoor_local_rows_open(s, false, opts, d, err) != SPOOR_OK) {
        spoor_local_rows_release(d);
        return SPOOR_EUSAGE;
    }
    return SPOOR_OK;
}

struct pytext_parser {
    struct spoor_table *t;
    struct spoor_column *level, *logger, *message;
    uint32_t cat;
    struct spoor_iso_day day;
    /* Recent levels, loggers and one-line messages: they repeat. */
    struct spoor_string_memo level_memo, logger_memo, message_memo;
    const char *msg;        /* the open record's message: in the chunk while it has one line, */
    size_t msg_len;
    bool folded;            /* or, once continuation lines came, folded into text */
    char *text;
    size_t text_len, text_cap;
    size_t row;             /* its row; SIZE_MAX when none is open */
};

static void set_text(struct spoor_table *t, struct spoor_column *c, size_t row, uint32_t id, const char *s, size_t n)
{
    struct spoor_value v = {.type = SPOOR_STR, .str = id, .text = s, .text_len = n};
    spoor_mapped_set(t, c, row, &v);
}

/* The open record's message into its row (blank lines after it part records
 * and are no text of theirs). */
static void close_record(struct pytext_parser *pp)
{
    const char *s = pp->folded ? pp->text : pp->msg;
    size_t n = pp->folded ? pp->text_len : pp->msg_len;
    while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (pp->row != SIZE_MAX) /* the memo keeps text of the chunk only */
        set_text(pp->t, pp->message, pp->row,
                 pp->folded ? spoor_table_intern(pp->t, s, n) : spoor_memo_intern(&pp->message_memo, pp->t, s, n), s,
                 n);
    pp->row = SIZE_MAX;
}

/* A continuation line, after a '\n', onto the open record's message. */
static void append_line(struct pytext_parser *pp, const char *s, size_t n)
{
    if (!pp->folded) {
        spoor_reserve((void **)&pp->text, &pp->text_cap, pp->msg_len + 1, 1);
        memcpy(pp->text, pp->msg, pp->msg_len);
        pp->text_len = pp->msg_len;
        pp->folded = true;
    }
    spoor_reserve((void **)&pp->text, &pp->text_cap, pp->text_len + n + 2, 1);
    pp->text[pp->text_len++] = '\n';
    memcpy(pp->text + pp->text_len, s, n);
    pp->text_len += n;
}

static void open_record(struct pytext_parser *pp, const struct record *r, uint64_t line_no)
{
    struct spoor_table *t = pp->t;
    size_t row = spoor_table_add_row(t);
    t->ts[row] = r->local_ns;
    t->line[row] = line_no;
    t->src[row] = 0;
    t->cat[row] = pp->cat;
    t->ph[row] = 'i';
    t->name[row] = spoor_memo_intern(&pp->level_memo, t, r->level, r->level_len);
    set_text(t, pp->level, row, t->name[row], r->level, r->level_len);
    if (r->logger)
        set_text(t, pp->logger, row, spoor_memo_intern(&pp->logger_memo, t, r->logger, r->logger_len), r->logger,
                 r->logger_len);
    pp->row = row;
    pp->msg = r->msg;
    pp->msg_len = r->msg_len;
    pp->folded = false;
}

static int pytext_parse(struct spoor_parse_job *job, const char *buf, size_t len, struct spoor_error *err)
{
    struct spoor_table *t = job->out;
    struct pytext_parser *pp = calloc(1, sizeof *pp); /* its memos are kilobytes */
    if (!pp)
        return spoor_fail(err, SPOOR_ENOMEM, "out of memory");
    pp->t = t;
    pp->row = SIZE_MAX;
    ptrdiff_t level = spoor_column_index(t, "level"), logger = spoor_column_index(t, "logger"),
              message = spoor_column_index(t, "message");
    pp->level = t->cols + level;
    pp->logger = t->cols + logger;
    pp->message = t->cols + message;
    pp->cat = spoor_table_intern(t, "log", 3);
    const char *p = buf + (job->at_file_start ? spoor_bom_len(buf, len) : 0), *end = buf + len;
    uint64_t line_no = 0;
    int st = SPOOR_OK;
    while (p < end && st == SPOOR_OK) {
        const char *e = spoor_line_end(p, end), *line = p, *le = spoor_cut_cr(p, e);
        p = e + 1;
        line_no++;
        const char *reason = NULL;
        struct record r;
        if (!spoor_log_record_start(line, le)) {
            if (pp->row != SIZE_MAX)
                append_line(pp, line, (size_t)(le - line));
            else if (!spoor_field_is_blank(line, (size_t)(le - line)))
                reason = "continuation line with no record before it";
        } else if (split_record(&pp->day, line, le, &r)) {
            close_record(pp);
            open_record(pp, &r, line_no);
        } else {
            /* what follows it belongs to no record either */
            close_record(pp);
            reason = "stamped line is not `asctime:LEVEL: message`";
        }
        if (reason)
            st = spoor_generic_skip(job, line_no, reason, line, (size_t)(le - line), err);
    }
    close_record(pp);
    free(pp->text);
    free(pp);
    job->lines = line_no;
    return st;
}

const struct spoor_format spoor_format_pytext = {
    .name = "pytext",
    .sniff = pytext_sniff,
    .detect = pytext_detect,
    .parse = pytext_parse,
    .in_order = spoor_local_rows_in_order,
    .release = spoor_local_rows_release,
    .clock = SPOOR_CLOCK_DATED,
};
