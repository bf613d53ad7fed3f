/* The ps reader: `ps aux` rows, one per process, so that other traces' PIDs
 * can be named:
 *
 *     root  1001  0.0  0.0  31952 18508 ?  Ss  Mar10  0:00 /usr/bin/python3 /usr/bin/networkd-dispatcher
 *
 * USER PID %CPU %MEM VSZ RSS TTY STAT START TIME COMMAND, split on blanks,
 * COMMAND taking the rest of the line; the header line is optional. A row
 * says what a process is, not something that happened at a time: it is a
 * metadata row (ph 'M', no ts) with cat "ps", the pid, name the program (the
 * last path part of the command's first word) and the columns user, cpu_pct,
 * mem_pct, vsz_kib, rss_kib, tty, stat, start (as ps prints it: a time of day
 * or a date), cpu_time_s and command. */
#include "read/field_map.h"
#include "read/mapped_reader.h"
#include "read/text_fields.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PS_FIELDS = 11 };
enum ps_field { PS_USER, PS_PID, PS_CPU, PS_MEM, PS_VSZ, PS_RSS, PS_TTY, PS_STAT, PS_START, PS_TIME, PS_COMMAND };

static const char *const column_names[PS_FIELDS] = {
    "user", NULL, "cpu_pct", "mem_pct", "vsz_kib", "rss_kib", "tty", "stat", "start", "cpu_time_s", "command",
};

/* "digits.digits" (ps prints %CPU and %MEM with one decimal). */
static bool percent(const char *p, size_t n, double *v)
{
    const char *dot = memchr(p, '.', n);
    int64_t whole, frac;
    if (!dot || dot == p || dot + 1 == p + n || !spoor_text_int(p, (size_t)(dot - p), &whole) ||
        !spoor_text_int(dot + 1, (size_t)(p + n - dot - 1), &frac) || whole < 0 || frac < 0)
        return false;
    double scale = 1;
    for (size_t i = 0; i < (size_t)(p + n - dot - 1); i++)
        scale *= 10;
    *v = (double)whole + (double)frac / scale;
    return true;
}

/* TIME, the CPU time: "M:SS", "MMM:SS" or "[D-]HH:MM:SS", in seconds. */
static bool cpu_time(const char *p, size_t n, int64_t *seconds)
{
    const char *end = p + n, *dash = memchr(p, '-', n);
    int64_t days = 0, total = 0;
    if (dash && !spoor_text_int(p, (size_t)(dash - p), &days))
        return false;
    const char *q = dash ? dash + 1 : p;
    int parts = 0;
    while (q < end) {
        const char *colon = memchr(q, ':', (size_t)(end - q));
        const char *e = colon ? colon : end;
        int64_t v;
        if (!spoor_text_int(q, (size_t)(e - q), &v) || v < 0 || ++parts > 3)
            return false;
        total = total * 60 + v;
        q = colon ? colon + 1 : end;
    }
    *seconds = days * 86400 + total;
    return parts >= 2;
}

/* STAT: the state letter and its modifiers. */
static bool state(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strchr("DIRSTtWXZ<NLsl+", p[i]))
            return false;
    return n > 0;
}

struct ps_row {
    const char *start[PS_FIELDS + 1];
    size_t len[PS_FIELDS + 1];
    int64_t pid, vsz, rss, time;
    double cpu, mem;
};

/* The header line ps prints first: "USER PID %CPU ...". */
static bool is_header(const char *p, const char *end)
{
    const char *word = p;
    while (word < end && spoor_text_blank(*word))
        word++;
    if (end - word < 4 || memcmp(word, "USER", 4) != 0) /* a row's first word is a user: most lines stop here */
        return false;
    const char *start[2];
    size_t len[2];
    return spoor_text_split(p, end, 2, true, start, len) == 2 && len[0] == 4 && memcmp(start[0], "USER", 4) == 0 &&
           len[1] >= 3 && memcmp(start[1], "PID", 3) == 0;
}

/* Splits and checks a row; NULL, or why it is no ps row. */
static const char *read_row(const char *p, const char *end, struct ps_row *r)
{
    size_t n = spoor_text_split(p, end, PS_FIELDS, true, r->start, r->len);
    if (n < PS_FIELDS)
        return "fewer fields than a ps aux row (a cut line)";
    if (!spoor_text_int(r->start[PS_PID], r->len[PS_PID], &r->pid) || r->pid < 0 ||
        !spoor_text_int(r->start[PS_VSZ], r->len[PS_VSZ], &r->vsz) ||
        !spoor_text_int(r->start[PS_RSS], r->len[PS_RSS], &r->rss))
        return "PID, VSZ or RSS is not a number";
    if (!percent(r->start[PS_CPU], r->len[PS_CPU], &r->cpu) || !percent(r->start[PS_MEM], r->len[PS_MEM], &r->mem))
        return "%CPU or %MEM is not a percentage";
    if (!state(r->start[PS_STAT], r->len[PS_STAT]))
        return "STAT is not a process state";
    if (!cpu_time(r->start[PS_TIME], r->len[PS_TIME], &r->time))
        return "TIME is not a CPU time";
    return NULL;
}

/* Every line of the head (a last one cut by the head aside) is a ps aux row
 * or its header, and one at least is a row. */
static int ps_sniff(const char *head, size_t len)
{
    const char *p = head + spoor_bom_len(head, len), *end = head + len;
    size_t rows = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl && rows)
            break;
        const char *e = spoor_text_cut_cr(p, nl ? nl : end);
        struct ps_row r;
        bool blank = spoor_field_is_blank(p, (size_t)(e - p)), header = !rows && is_header(p, e);
        if (!blank && !header && read_row(p, e, &r))
            return 0;
        rows += !blank && !header;
        p = nl ? nl + 1 : end;
    }
    return rows ? 80 : 0;
}

static int ps_detect(const char *head, size_t len, const struct spoor_read_opts *opts, struct spoor_dialect *d,
                     struct spoor_error *err)
{
    (void)head, (void)len, (void)opts, (void)err;
    d->format = &spoor_format_ps;
    snprintf(d->name, sizeof d->name, "ps-aux");
    d->ts_unit = d->dur_unit = SPOOR_UNIT_NS;
    spoor_dialect_assume(d, "a ps aux list: one metadata row per process, no time");
    return SPOOR_OK;
}

struct ps_parser {
    struct spoor_table *t;
    uint32_t src, cat;
    int col[PS_FIELDS];
    /* Recent values of each text column (users, ttys, states and commands
     * repeat), and of the program name. */
    struct spoor_string_memo memo[PS_FIELDS], name_memo;
};

/* The program of a command line: its first word's last path part (after
 * its last '/' but one that ends the word). */
static void program(const char *p, size_t n, const char **prog, size_t *prog_len)
{
    const char *word_end = p, *slash = NULL, *slash_before = NULL;
    for (; word_end < p + n && !spoor_text_blank(*word_end); word_end++)
        if (*word_end == '/') {
            slash_before = slash;
            slash = word_end;
        }
    if (slash && slash + 1 == word_end)
        slash = slash_before;
    *prog = slash ? slash + 1 : p;
    *prog_len = (size_t)(word_end - *prog);
}

static const char *ps_line(void *ctx, const char *line, const char **line_end, uint64_t line_no)
{
    struct ps_parser *pp = ctx;
    *line_end = spoor_text_cut_cr(line, *line_end);
    if (spoor_field_is_blank(line, (size_t)(*line_end - line)) || is_header(line, *line_end))
        return NULL;
    struct ps_row r;
    const char *reason = read_row(line, *line_end, &r);
    if (reason)
        return reason;
    struct spoor_table *t = pp->t;
    size_t row = spoor_table_add_row(t);
    t->src[row] = pp->src;
    t->line[row] = line_no;
    t->pid[row] = r.pid;
    t->cat[row] = pp->cat;
    t->ph[row] = 'M';
    const char *prog;
    size_t prog_len;
    program(r.start[PS_COMMAND], r.len[PS_COMMAND], &prog, &prog_len);
    t->name[row] = spoor_memo_intern(&pp->name_memo, t, prog, prog_len);
    int64_t ints[PS_FIELDS] = {[PS_VSZ] = r.vsz, [PS_RSS] = r.rss, [PS_TIME] = r.time};
    for (size_t i = 0; i < PS_FIELDS; i++) {
        if (!column_names[i])
            continue;
        struct spoor_column *c = &t->cols[pp->col[i]];
        struct spoor_value v = {.type = SPOOR_STR, .text = r.start[i], .text_len = r.len[i]};
        if (i == PS_CPU || i == PS_MEM) {
            v = (struct spoor_value){.type = SPOOR_F64, .f64 = i == PS_CPU ? r.cpu : r.mem};
            spoor_table_set(t, c, row, &v);
        } else if (i == PS_VSZ || i == PS_RSS || i == PS_TIME) {
            spoor_mapped_set_i64(t, c, row, ints[i]);
        } else {
            v.str = spoor_memo_intern(&pp->memo[i], t, r.start[i], r.len[i]);
            spoor_mapped_set(t, c, row, &v);
        }
    }
    return NULL;
}

static int ps_parse(struct spoor_parse_job *job, const char *buf, size_t len, struct spoor_error *err)
{
    struct ps_parser *pp = calloc(1, sizeof *pp); /* its memos are kilobytes */
    if (!pp)
        return spoor_fail(err, SPOOR_ENOMEM, "out of memory");
    pp->t = job->out;
    pp->src = job->src;
    pp->cat = spoor_table_intern(job->out, "ps", 2);
    for (size_t i = 0; i < PS_FIELDS; i++)
        if (column_names[i])
            pp->col[i] = (int)(spoor_table_column(pp->t, spoor_table_intern(pp->t, column_names[i],
                                                                             strlen(column_names[i]))) -
                               pp->t->cols);
    int st = spoor_mapped_lines(job, buf, len, ps_line, pp, err);
    free(pp);
    return st;
}

const struct spoor_format spoor_format_ps = {
    .name = "ps",
    .sniff = ps_sniff,
    .detect = ps_detect,
    .parse = ps_parse,
};
