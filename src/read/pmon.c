/* The nvidia-smi pmon reader: `nvidia-smi pmon -s um -o DT`, one row per GPU
 * process per sample.
 *
 *     #Date       Time        gpu        pid  type    sm   mem   enc   dec    fb   command
 *     #YYYYMMDD   HH:MM:SS    Idx          #   C/G     %     %     %     %    MB   name
 *      20220331   12:04:32      0      41235     C    45    12     -     -  1234   python
 *
 * The column names come from the head's first `#Date` line (the second `#`
 * line gives units). A `-` is no value: the cell stays empty, never 0. Each
 * row has ts (the date and local time, on UTC in input order: wall_clock.c),
 * pid, name = the command, ph 'C', and gpu, type, sm, mem, enc, dec, fb, ...
 * as columns (numbers where they are numbers). The header repeats every few
 * lines; one that names other columns stops the load, as in the mpstat reader
 * and for its reason (rows above a chunk's first header take the head's). */
#include "read/field_map.h"
#include "read/json_scan.h"
#include "read/mapped_reader.h"
#include "read/text_fields.h"
#include "read/wall_clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pmon_state {
    struct spoor_local_rows order;  /* first (spoor_local_rows_release); touched by in_order only */
    struct spoor_text_header header;
    int date, time, pid, command;   /* their positions, -1 when absent */
};

/* Whether [p, end) is a header line naming its columns (`#Date Time gpu
 * ...`, or `# gpu ...` without -o DT), read into h. */
static bool read_header(const char *p, const char *end, struct spoor_text_header *h)
{
    h->n = 0;
    if (p == end || *p != '#')
        return false;
    p++;
    size_t n;
    for (const char *f; (f = spoor_next_field(&p, end, &n));) {
        if (n >= SPOOR_TEXT_NAME || h->n == SPOOR_TEXT_COLUMNS)
            return false;
        memcpy(h->name[h->n], f, n);
        h->name[h->n++][n] = '\0';
    }
    return h->n >= 2 && !strcmp(h->name[h->n > 2 ? 2 : 0], "gpu");
}

static int position(const struct pmon_state *s, const char *name)
{
    for (size_t i = 0; i < s->header.n; i++)
        if (!strcmp(s->header.name[i], name))
            return (int)i;
    return -1;
}

static int pmon_sniff(const char *head, size_t len)
{
    const char *p = head + spoor_bom_len(head, len);
    struct spoor_text_header h;
    const char *e = spoor_cut_cr(p, spoor_line_end(p, head + len));
    return read_header(p, e, &h) && !strcmp(h.name[0], "Date") ? 95 : 0;
}

static int pmon_detect(const char *head, size_t len, const struct spoor_read_opts *opts, struct spoor_dialect *d,
                       struct spoor_error *err)
{
    const char *p = head + spoor_bom_len(head, len), *end = head + len;
    struct pmon_state *s = calloc(1, sizeof *s);
    if (!s)
        return spoor_fail(err, SPOOR_ENOMEM, "out of memory");
    d->format = &spoor_format_pmon;
    d->state = s;
    snprintf(d->name, sizeof d->name, "nvidia-smi-pmon");
    d->ts_unit = d->dur_unit = SPOOR_UNIT_NS;
    if (p == end)
        return SPOOR_OK;
    read_header(p, spoor_cut_cr(p, spoor_line_end(p, end)), &s->header);
    s->date = position(s, "Date");
    s->time = position(s, "Time");
    s->pid = position(s, "pid");
    s->command = position(s, "command");
    if (!s->header.n || s->date != 0 || s->time != 1) {
        spoor_local_rows_release(d);
        return spoor_fail(err, SPOOR_EFORMAT,
                          "line 1: no `#Date Time gpu ...` header: write pmon with -o DT (date and time columns)");
    }
    if (spoor_local_rows_open(&s->order, false, opts, d, err) != SPOOR_OK) {
        spoor_local_rows_release(d);
        return SPOOR_EUSAGE;
    }
    return SPOOR_OK;
}

struct pmon_parser {
    const struct pmon_state *s;
    struct spoor_table *t;
    struct spoor_column *col[SPOOR_TEXT_COLUMNS];
    struct spoor_string_memo *memo; /* one per column */
    uint32_t cat;
    uint64_t date_text;             /* the last date's 8 bytes (0: none yet), */
    int64_t date_days;              /* and its days since 1970 */
};

/* Days since 1970 of "YYYYMMDD"; false when it is no such date. Rows repeat
 * the date of the one before, so the last one's days are kept. */
static bool date_days(struct pmon_parser *pp, const char *d, size_t n, int64_t *days)
{
    uint64_t text;
    if (n != 8)
        return false;
    memcpy(&text, d, 8);
    if (text == pp->date_text) {
        *days = pp->date_days;
        return true;
    }
    int v[8];
    for (int i = 0; i < 8; i++) {
        if (d[i] < '0' || d[i] > '9')
            return false;
        v[i] = d[i] - '0';
    }
    if (!spoor_civil_days(v[0] * 1000 + v[1] * 100 + v[2] * 10 + v[3], v[4] * 10 + v[5], v[6] * 10 + v[7], days))
        return false;
    pp->date_text = text;
    pp->date_days = *days;
    return true;
}

static void set_cell(struct spoor_table *t, struct spoor_column *c, struct spoor_string_memo *memo, size_t row,
                     const char *f, size_t n)
{
    int64_t i;
    double x;
    struct spoor_value v = {.type = SPOOR_STR, .text = f, .text_len = n};
    if (n && spoor_json_int64(f, n, &i)) {
        v.type = SPOOR_I64;
        v.i64 = i;
    } else if (spoor_plain_decimal(f, n, &x)) {
        v.type = SPOOR_F64;
        v.f64 = x;
    } else {
        v.str = spoor_memo_intern(memo, t, f, n);
    }
    spoor_table_set(t, c, row, &v);
}

static const char *sample_row(struct pmon_parser *pp, const char *p, const char *end, uint64_t line_no)
{
    const struct pmon_state *s = pp->s;
    const char *f[SPOOR_TEXT_COLUMNS];
    size_t n[SPOOR_TEXT_COLUMNS];
    bool command_last = s->command >= 0 && (size_t)s->command == s->header.n - 1; /* a command may hold blanks */
    size_t count = spoor_text_split(p, end, s->header.n, command_last, f, n);
    if (count < s->header.n)
        return "fewer fields than the header has columns (a cut line?)";
    if (count > s->header.n)
        return "more fields than the header has columns";
    if (command_last) /* up to the line's end, trailing blanks and all */
        n[count - 1] = (size_t)(spoor_cut_cr(f[count - 1], end) - f[count - 1]);
    int64_t days;
    int tod;
    if (!date_days(pp, f[s->date], n[s->date], &days) || !spoor_clock_parse(f[s->time], n[s->time], &tod))
        return "no date and time (YYYYMMDD HH:MM:SS)";
    struct spoor_table *t = pp->t;
    int64_t pid = SPOOR_NULL;
    if (s->pid >= 0 && !(n[s->pid] == 1 && f[s->pid][0] == '-') && !spoor_json_int64(f[s->pid], n[s->pid], &pid))
        return "pid is not a number";
    size_t row = spoor_table_add_row(t);
    t->ts[row] = (days * SPOOR_DAY_S + tod) * 1000000000LL; /* local; on UTC in input order */
    t->pid[row] = pid;
    t->line[row] = line_no;
    t->src[row] = 0;
    t->cat[row] = pp->cat;
    t->ph[row] = 'C';
    for (size_t i = 2; i < count; i++) {
        bool none = n[i] == 1 && f[i][0] == '-';
        if ((int)i == s->pid || none)
            continue;
        if ((int)i == s->command)
            t->name[row] = spoor_memo_intern(&pp->memo[i], t, f[i], n[i]);
        else if (pp->col[i])
            set_cell(t, pp->col[i], &pp->memo[i], row, f[i], n[i]);
    }
    return NULL;
}

static int pmon_parse(struct spoor_parse_job *job, const char *buf, size_t len, struct spoor_error *err)
{
    const struct pmon_state *s = job->dialect->state;
    struct spoor_table *t = job->out;
    struct pmon_parser pp = {.s = s, .t = t, .cat = spoor_table_intern(t, "pmon", 4)};
    ptrdiff_t col[SPOOR_TEXT_COLUMNS];
    for (size_t i = 0; i < s->header.n; i++)
        col[i] = spoor_args_keep(job->opts, s->header.name[i]) ? spoor_column_index(t, s->header.name[i]) : -1;
    for (size_t i = 0; i < s->header.n; i++)
        pp.col[i] = col[i] >= 0 ? t->cols + col[i] : NULL;
    pp.memo = calloc(s->header.n, sizeof *pp.memo);
    if (!pp.memo)
        return spoor_fail(err, SPOOR_ENOMEM, "out of memory");
    const char *p = buf + (job->at_file_start ? spoor_bom_len(buf, len) : 0), *end = buf + len;
    uint64_t line_no = 0;
    int st = SPOOR_OK;
    while (p < end && st == SPOOR_OK) {
        const char *e = spoor_line_end(p, end), *line = p, *le = spoor_cut_cr(p, e);
        p = e + 1;
        line_no++;
        if (spoor_field_is_blank(line, (size_t)(le - line)))
            continue;
        if (*line == '#') {
            struct spoor_text_header header;
            bool names = read_header(line, le, &header) && !strcmp(header.name[0], "Date");
            if (!names || spoor_text_header_equal(&header, &s->header))
                continue;   /* the units line, or the header again */
            st = spoor_fail(err, SPOOR_EFORMAT,
                            "byte %llu: the header's columns differ from the first header's (two pmon runs in one "
                            "file?): split the file there",
                            (unsigned long long)(job->offset + (uint64_t)(line - buf)));
            break;
        }
        const char *reason = sample_row(&pp, line, le, line_no);
        if (reason)
            st = spoor_generic_skip(job, line_no, reason, line, (size_t)(le - line), err);
    }
    free(pp.memo);
    job->lines = line_no;
    return st;
}

const struct spoor_format spoor_format_pmon = {
    .name = "pmon",
    .sniff = pmon_sniff,
    .detect = pmon_detect,
    .parse = pmon_parse,
    .in_order = spoor_local_rows_in_order,
    .release = spoor_local_rows_release,
    .clock = SPOOR_CLOCK_DATED,
};
