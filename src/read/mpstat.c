/* The mpstat reader: `mpstat -P ALL 1` output, one row per (sample, CPU).
 *
 *     Linux 5.4.0-104-generic (host) \t03/31/2022 \t_x86_64_\t(36 CPU)
 *
 *     12:04:31 PM  CPU    %usr   %nice    %sys %iowait ... %idle
 *     12:04:32 PM  all    2.70    0.00    0.78    0.06 ...  96.40
 *     12:04:32 PM    0    0.00    0.00    0.00    0.00 ...  98.04
 *
 * The banner gives the date, each line only a time of day (12-hour with
 * AM/PM, or 24-hour in other locales). A row has ts, cpu ("all" or the
 * number) and one number column per % column, named without the '%'.
 *
 * Chunks are parsed in parallel, so a chunk may begin mid-file with neither
 * banner nor header before it. Detection reads the banner's date and the
 * first header's columns from the head. Every header met later is compared
 * with those columns: rows above a chunk's first header are read with them,
 * which is right only because a differing header stops the load (two runs of
 * different sysstat versions appended into one file; the message says to
 * split it), and so does a second banner (whose date would restart the
 * count of days). A chunk counts its own midnights (the time of day stepping
 * back half a day or more); the days before it, and the zone, are applied in
 * input order (wall_clock.c). `Average:` lines at the end are no samples. */
#include "read/mapped_reader.h"
#include "read/wall_clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mpstat_state {
    struct spoor_local_rows order;  /* first (spoor_local_rows_release); touched by in_order only */
    int64_t date_days;
    struct spoor_text_header header;    /* the first one's, names without the '%' */
};

/* The banner's date: MM/DD/YYYY, MM/DD/YY or YYYY-MM-DD in one of its fields. */
static bool banner_date(const char *p, const char *end, int64_t *days)
{
    if ((size_t)(end - p) < 6 || memcmp(p, "Linux ", 6))
        return false;
    size_t n;
    for (const char *f; (f = spoor_next_field(&p, end, &n));) {
        int y = 0, m = 0, d = 0;
        char tail;
        char buf[16];
        if (n >= sizeof buf)
            continue;
        memcpy(buf, f, n);
        buf[n] = '\0';
        if ((sscanf(buf, "%2d/%2d/%4d%c", &m, &d, &y, &tail) == 3 && (n == 10 || n == 8)) ||
            (sscanf(buf, "%4d-%2d-%2d%c", &y, &m, &d, &tail) == 3 && n == 10)) {
            if (n == 8 && buf[2] == '/')
                y += 2000;
            return spoor_civil_days(y, m, d, days);
        }
    }
    return false;
}

/* The time at the start of a line, with its AM/PM field if any; p moves past it. */
static bool line_time(const char **p, const char *end, int *tod)
{
    size_t n;
    const char *f = spoor_next_field(p, end, &n);
    if (!f || !spoor_clock_parse(f, n, tod))
        return false;
    const char *save = *p;
    f = spoor_next_field(p, end, &n);
    if (f && n == 2 && (f[1] == 'M' || f[1] == 'm'))
        return spoor_clock_12h(tod, f, n);
    *p = save;
    return true;
}

/* Whether [p, end), past its time, is a header (`CPU %usr ...`), read into h. */
static bool read_header(const char *p, const char *end, struct spoor_text_header *h)
{
    size_t n;
    h->n = 0;
    const char *f = spoor_next_field(&p, end, &n);
    if (!f || n != 3 || memcmp(f, "CPU", 3))
        return false;
    while ((f = spoor_next_field(&p, end, &n))) {
        if (f[0] == '%')
            f++, n--;
        if (n == 0 || n >= SPOOR_TEXT_NAME || h->n == SPOOR_TEXT_COLUMNS)
            return false;
        memcpy(h->name[h->n], f, n);
        h->name[h->n++][n] = '\0';
    }
    return h->n > 0;
}

static int mpstat_sniff(const char *head, size_t len)
{
    const char *p = head + spoor_bom_len(head, len), *end = head + len;
    int64_t days;
    if (!banner_date(p, spoor_cut_cr(p, spoor_line_end(p, end)), &days))
        return 0;
    for (int lines = 0; p < end && lines < 6; lines++) {
        const char *e = spoor_line_end(p, end);
        const char *q = p;
        int tod;
        struct spoor_text_header h;
        if (line_time(&q, spoor_cut_cr(p, e), &tod) && read_header(q, spoor_cut_cr(p, e), &h))
            return 95;
        p = e + 1;
    }
    return 0;
}

/* Detection failed: the state goes, err says why. */
#define mpstat_fail(d, err, ...) (spoor_local_rows_release(d), spoor_fail(err, __VA_ARGS__))

static int mpstat_detect(const char *head, size_t len, const struct spoor_read_opts *opts, struct spoor_dialect *d,
                         struct spoor_error *err)
{
    const char *p = head + spoor_bom_len(head, len), *end = head + len;
    struct mpstat_state *s = calloc(1, sizeof *s);
    if (!s)
        return spoor_fail(err, SPOOR_ENOMEM, "out of memory");
    d->format = &spoor_format_mpstat;
    d->state = s;
    snprintf(d->name, sizeof d->name, "mpstat");
    d->ts_unit = d->dur_unit = SPOOR_UNIT_NS;
    if (p == end)
        return SPOOR_OK;    /* an empty input: no rows */
    if (!banner_date(p, spoor_cut_cr(p, spoor_line_end(p, end)), &s->date_days))
        return mpstat_fail(d, err, SPOOR_EFORMAT,
                          "line 1: no mpstat banner with a date (`Linux ... MM/DD/YYYY ...`); the date comes from it");
    while (p < end && !s->header.n) {
        const char *e = spoor_line_end(p, end), *q = p;
        int tod;
        if (line_time(&q, spoor_cut_cr(p, e), &tod))
            read_header(q, spoor_cut_cr(p, e), &s->header);
        p = e + 1;
    }
    if (!s->header.n)
        return mpstat_fail(d, err, SPOOR_EFORMAT, "no mpstat header line (`HH:MM:SS  CPU  %%usr ...`) in the first %zu bytes",
                          len);
    if (spoor_local_rows_open(&s->order, true, opts, d, err) != SPOOR_OK) {
        spoor_local_rows_release(d);
        return SPOOR_EUSAGE;
    }
    s->order.date_days = s->date_days;
    return SPOOR_OK;
}

struct mpstat_parser {
    const struct mpstat_state *s;
    struct spoor_table *t;
    struct spoor_column *value[SPOOR_TEXT_COLUMNS], *cpu;
    uint32_t name, cat, all;
    int prev_tod;
    int64_t rolls;
    bool at_file_start;
};

static void set_f64(struct spoor_table *t, struct spoor_column *c, size_t row, double v)
{
    if (c->typed && c->type == SPOOR_F64) {
        c->f64[row] = v;
        c->valid[row / 64] |= 1ULL << (row % 64);
        return;
    }
    struct spoor_value val = {.type = SPOOR_F64, .f64 = v, .text = "", .text_len = 0};
    spoor_table_set(t, c, row, &val);
}

static const char *sample_row(struct mpstat_parser *mp, const char *p, const char *end, int tod, uint64_t line_no)
{
    size_t n = 0;
    const char *cpu = spoor_next_field(&p, end, &n);
    size_t cpu_len = n;
    double v[SPOOR_TEXT_COLUMNS];
    size_t count = 0;
    /* fields are split and read in one pass: the hot loop of the reader */
    for (;;) {
        p = spoor_skip_blanks(p, end);
        if (p == end)
            break;
        if (count == mp->s->header.n)
            return "more values than the header has columns";
        struct spoor_decimal d;
        p = spoor_scan_decimal(p, end, &d);
        if (!d.ok || (p < end && *p != ' ' && *p != '\t'))
            return "a value is not a number";
        if (mp->value[count])   /* a column not kept is only checked */
            v[count] = spoor_decimal_value(&d);
        count++;
    }
    if (count < mp->s->header.n)
        return "fewer values than the header has columns (a cut line?)";
    struct spoor_table *t = mp->t;
    size_t row = spoor_table_add_row(t);
    t->ts[row] = spoor_local_of_day(mp->s->date_days, tod, &mp->prev_tod, &mp->rolls);
    t->line[row] = line_no;
    t->src[row] = 0;
    t->name[row] = mp->name;
    t->cat[row] = mp->cat;
    t->ph[row] = 'C';
    if (mp->cpu) {
        bool all = cpu_len == 3 && !memcmp(cpu, "all", 3);
        struct spoor_value c = {.type = SPOOR_STR, .str = all ? mp->all : spoor_table_intern(t, cpu, cpu_len),
                                .text = cpu, .text_len = cpu_len};
        spoor_mapped_set(t, mp->cpu, row, &c);
    }
    for (size_t i = 0; i < count; i++)
        if (mp->value[i])
            set_f64(t, mp->value[i], row, v[i]);
    return NULL;
}

static int mpstat_parse(struct spoor_parse_job *job, const char *buf, size_t len, struct spoor_error *err)
{
    const struct mpstat_state *s = job->dialect->state;
    struct spoor_table *t = job->out;
    struct mpstat_parser mp = {.s = s, .t = t, .prev_tod = -1};
    mp.name = spoor_table_intern(t, "cpu", 3);
    mp.cat = spoor_table_intern(t, "mpstat", 6);
    mp.all = spoor_table_intern(t, "all", 3);
    /* values are read (and checked) whether their columns are kept or not */
    ptrdiff_t cpu = spoor_args_keep(job->opts, "cpu") ? spoor_column_index(t, "cpu") : -1, value[SPOOR_TEXT_COLUMNS];
    for (size_t i = 0; i < s->header.n; i++)
        value[i] = spoor_args_keep(job->opts, s->header.name[i]) ? spoor_column_index(t, s->header.name[i]) : -1;
    mp.cpu = cpu >= 0 ? t->cols + cpu : NULL;
    for (size_t i = 0; i < s->header.n; i++)
        mp.value[i] = value[i] >= 0 ? t->cols + value[i] : NULL;
    const char *p = buf + (job->at_file_start ? spoor_bom_len(buf, len) : 0), *end = buf + len;
    uint64_t line_no = 0;
    int st = SPOOR_OK;
    while (p < end && st == SPOOR_OK) {
        const char *e = spoor_line_end(p, end), *line = p, *le = spoor_cut_cr(p, e), *q = p;
        p = e + 1;
        line_no++;
        int tod;
        if (spoor_field_is_blank(line, (size_t)(le - line)))
            continue;
        if ((size_t)(le - line) >= 6 && !memcmp(line, "Linux ", 6)) {
            if (job->at_file_start && line_no == 1)
                continue;
            st = spoor_fail(err, SPOOR_EFORMAT,
                            "byte %llu: a second mpstat banner (two runs in one file): split the file at it",
                            (unsigned long long)(job->offset + (uint64_t)(line - buf)));
            break;
        }
        if ((size_t)(le - line) >= 8 && !memcmp(line, "Average:", 8))
            continue;
        const char *reason = "not an mpstat line (no time of day)";
        if (line_time(&q, le, &tod)) {
            size_t hn;
            const char *h = q, *first = spoor_next_field(&h, le, &hn);
            struct spoor_text_header header;
            if (first && hn == 3 && !memcmp(first, "CPU", 3)) {
                if (read_header(q, le, &header) && spoor_text_header_equal(&header, &s->header))
                    continue;
                st = spoor_fail(err, SPOOR_EFORMAT,
                                "byte %llu: the header's columns differ from the first header's (two mpstat runs "
                                "in one file?): split the file there",
                                (unsigned long long)(job->offset + (uint64_t)(line - buf)));
                break;
            }
            reason = sample_row(&mp, q, le, tod, line_no);
        }
        if (reason)
            st = spoor_generic_skip(job, line_no, reason, line, (size_t)(le - line), err);
    }
    job->lines = line_no;
    return st;
}

const struct spoor_format spoor_format_mpstat = {
    .name = "mpstat",
    .sniff = mpstat_sniff,
    .detect = mpstat_detect,
    .parse = mpstat_parse,
    .in_order = spoor_local_rows_in_order,
    .release = spoor_local_rows_release,
    .clock = SPOOR_CLOCK_DATED,
};
