/* Sheets: cells collected row by row, rendered once in the chosen format. */
#include "series_sheet.h"
#include "spoor/error.h"
#include "spoor/format_g.h"
#include "spoor/json_out.h"
#include "spoor/text_table.h"
#include "util/parallel.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct sheet *sheet_new(const char *key, size_t ncols, const char *title_fmt, ...)
{
    struct sheet *s = spoor_xcalloc(1, sizeof *s);
    s->key = key;
    s->ncols = ncols;
    s->headers = spoor_xcalloc(ncols, sizeof *s->headers);
    va_list ap;
    va_start(ap, title_fmt);
    int n = vsnprintf(NULL, 0, title_fmt, ap);
    va_end(ap);
    s->title = spoor_xmalloc((size_t)(n > 0 ? n : 0) + 1);
    va_start(ap, title_fmt);
    vsnprintf(s->title, (size_t)(n > 0 ? n : 0) + 1, title_fmt, ap);
    va_end(ap);
    return s;
}

void sheet_free(struct sheet *s)
{
    if (!s)
        return;
    for (size_t c = 0; c < s->ncols; c++)
        free(s->headers[c]);
    free(s->headers);
    free(s->values);
    free(s->kinds);
    free(s->text);
    free(s->title);
    free(s);
}

void sheet_header(struct sheet *s, size_t c, const char *name)
{
    free(s->headers[c]);
    s->headers[c] = spoor_xstrdup(name);
}

/* Cells written so far; a row is complete after ncols. */
static size_t ncells(const struct sheet *s) { return s->nrows * s->ncols + s->pending; }

/* A resample sheet's cells take megabytes, written once: from malloc, as the
 * text table's (src/out/text_table.c says why not huge pages). */
static void set_cap(struct sheet *s, size_t cap)
{
    s->values = spoor_xrealloc(s->values, cap * sizeof *s->values);
    s->kinds = spoor_xrealloc(s->kinds, cap * sizeof *s->kinds);
    s->cap = cap;
}

void sheet_reserve(struct sheet *s, size_t rows)
{
    if (ncells(s) + rows * s->ncols > s->cap)
        set_cap(s, ncells(s) + rows * s->ncols);
}

static void add_cell(struct sheet *s, union sheet_value v, enum sheet_cell kind)
{
    size_t i = ncells(s);
    if (i == s->cap)
        set_cap(s, s->cap ? s->cap * 2 : 64);
    s->values[i] = v;
    s->kinds[i] = (unsigned char)kind;
    if (++s->pending == s->ncols) {
        s->pending = 0;
        s->nrows++;
    }
}

void sheet_text(struct sheet *s, const char *text)
{
    size_t n = strlen(text) + 1;
    if (s->text_used + n > s->text_room) {
        s->text_room = (s->text_used + n) * 2;
        s->text = spoor_xrealloc(s->text, s->text_room);
    }
    memcpy(s->text + s->text_used, text, n);
    add_cell(s, (union sheet_value){.text = s->text_used}, SHEET_TEXT);
    s->text_used += n;
}

void sheet_name(struct sheet *s, const char *name) { add_cell(s, (union sheet_value){.name = name}, SHEET_NAME); }

void sheet_time(struct sheet *s, int64_t utc_ns) { add_cell(s, (union sheet_value){.time = utc_ns}, SHEET_TIME); }

void sheet_number(struct sheet *s, double v)
{
    add_cell(s, (union sheet_value){.number = isfinite(v) ? v : NAN}, SHEET_NUMBER);
}

void sheet_count(struct sheet *s, unsigned long long n) { add_cell(s, (union sheet_value){.count = n}, SHEET_COUNT); }

static bool numeric(unsigned char kind) { return kind == SHEET_NUMBER || kind == SHEET_COUNT; }

/* v in width digits, zeros in front; the end. */
static char *put_digits(char *p, unsigned v, int width)
{
    for (int k = width - 1; k >= 0; k--, v /= 10)
        p[k] = (char)('0' + v % 10);
    return p + width;
}

/* The date of a local day, remembered: a resample sheet has a row per bucket,
 * so gmtime runs once per day of buckets, not once per row. */
struct iso_day {
    int64_t day;            /* days since 1970-01-01; INT64_MIN: none yet */
    int year, mon, mday;
};

/* ISO-8601 of a UTC time as seen at the offset ("Z" for UTC) in buf; returns
 * its length. Written digit by digit: the resample section has one per row,
 * too many for snprintf. */
static size_t iso_text(char *buf, size_t cap, int64_t utc_ns, int64_t offset_ns, struct iso_day *date)
{
    int64_t local_s = (utc_ns + offset_ns) / 1000000000LL - ((utc_ns + offset_ns) % 1000000000LL < 0);
    int64_t frac = (utc_ns + offset_ns) - local_s * 1000000000LL;
    int64_t day = local_s / 86400 - (local_s % 86400 < 0), second = local_s - day * 86400;
    if (day != date->day) {
        time_t t = (time_t)local_s;
        struct tm tm;
        gmtime_r(&t, &tm);
        *date = (struct iso_day){day, tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday};
    }
    char *p = buf;
    if (date->year >= 0 && date->year <= 9999)
        p = put_digits(p, (unsigned)date->year, 4);
    else
        p += snprintf(p, cap, "%04d", date->year);
    const struct {
        char sep;
        int value;
    } parts[] = {{'-', date->mon},
                 {'-', date->mday},
                 {'T', (int)(second / 3600)},
                 {':', (int)(second / 60 % 60)},
                 {':', (int)(second % 60)}};
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
        *p++ = parts[i].sep;
        p = put_digits(p, (unsigned)parts[i].value, 2);
    }
    if (frac) {
        *p++ = '.';
        p = put_digits(p, (unsigned)frac, 9);
    }
    if (offset_ns) {
        int64_t min = (offset_ns < 0 ? -offset_ns : offset_ns) / 60000000000LL;
        *p++ = offset_ns < 0 ? '-' : '+';
        p = put_digits(p, (unsigned)(min / 60), 2);
        *p++ = ':';
        p = put_digits(p, (unsigned)(min % 60), 2);
    } else {
        *p++ = 'Z';
    }
    *p = '\0';
    return (size_t)(p - buf);
}

/* Cell i when it is text, a name or a time: its spelling (in buf for a time,
 * 40 bytes at least) and length. */
static const char *text_of(const struct sheet *s, size_t i, char *buf, struct iso_day *date, size_t *len)
{
    union sheet_value v = s->values[i];
    if (s->kinds[i] == SHEET_TIME) {
        *len = iso_text(buf, 40, v.time, s->time_offset_ns, date);
        return buf;
    }
    const char *text = s->kinds[i] == SHEET_TEXT ? s->text + v.text : v.name;
    *len = strlen(text);
    return text;
}

/* Cell i as CSV and JSON spell it (buf holds it unless it is text or a name)
 * and its length in *len: NULL when empty. */
static const char *cell_text(const struct sheet *s, size_t i, char *buf, size_t cap, struct iso_day *date,
                             size_t *len)
{
    union sheet_value v = s->values[i];
    if (!numeric(s->kinds[i]))
        return text_of(s, i, buf, date, len);
    if (s->kinds[i] == SHEET_COUNT) {
        *len = spoor_format_u64(buf, v.count);
        buf[*len] = '\0';
        return buf;
    }
    if (isnan(v.number))
        return NULL;
    /* The shortest spelling that reads back to the same double. */
    for (int digits = 15; digits <= 17; digits++) {
        *len = (size_t)snprintf(buf, cap, "%.*g", digits, v.number);
        if (strtod(buf, NULL) == v.number)
            break;
    }
    return buf;
}

/* Rows a thread formats at the least: fewer are not worth a thread. */
enum { ROWS_PER_THREAD = 8192 };

/* The parts a sheet is formatted in: one per ROWS_PER_THREAD rows, at most one a thread. */
static size_t parts_of(const struct sheet *s, int threads)
{
    size_t n = s->nrows / ROWS_PER_THREAD, most = threads > 1 ? (size_t)threads : 1;
    return n < 1 ? 1 : n > most ? most : n;
}

struct table_job {
    const struct sheet *s;
    struct spoor_text_table **parts;
    size_t nparts;
};

/* Part k of the sheet's rows as text table cells, in parts[k]. */
static void format_part(void *ctx, size_t k, int worker)
{
    (void)worker;
    const struct table_job *j = ctx;
    const struct sheet *s = j->s;
    size_t from = s->nrows * k / j->nparts * s->ncols, to = s->nrows * (k + 1) / j->nparts * s->ncols;
    struct spoor_text_table *t = j->parts[k];
    struct iso_day date = {.day = INT64_MIN};
    char buf[40];
    for (size_t i = from; i < to; i++) {
        union sheet_value v = s->values[i];
        if (s->kinds[i] == SHEET_COUNT) {
            spoor_text_table_u64(t, v.count);
        } else if (!numeric(s->kinds[i])) {
            size_t len;
            const char *text = text_of(s, i, buf, &date, &len);
            spoor_text_table_textn(t, text, len);
        } else if (isnan(v.number)) {
            spoor_text_table_textn(t, "-", 1);
        } else {
            spoor_text_table_g6(t, v.number);
        }
    }
}

/* A large sheet's cells are formatted in parts on the threads, and printed
 * as one table from the parts. */
static void write_table(FILE *out, const struct sheet *s, int threads)
{
    bool *right = spoor_xcalloc(s->ncols, sizeof *right);
    for (size_t c = 0; c < s->ncols; c++)
        right[c] = s->nrows && numeric(s->kinds[c]);
    size_t nparts = parts_of(s, threads);
    struct spoor_text_table *parts[nparts];
    for (size_t k = 0; k < nparts; k++) {
        parts[k] = spoor_text_table_new(s->ncols, (const char *const *)s->headers, right);
        /* Seldom short (the table grows if it is): the sheet's text, and 32 bytes a cell */
        size_t cells = s->nrows * s->ncols / nparts + s->ncols;
        spoor_text_table_reserve(parts[k], cells, s->text_used + cells * 32);
    }
    spoor_parallel_for(nparts, threads, format_part, &(struct table_job){s, parts, nparts});
    fprintf(out, "%s\n", s->title);
    spoor_text_table_print_parts((const struct spoor_text_table *const *)parts, nparts, out, threads);
    for (size_t k = 0; k < nparts; k++)
        spoor_text_table_free(parts[k]);
    free(right);
}

static void csv_cell(FILE *out, const char *s)
{
    if (!s)
        return;
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (const char *p = s; *p; p++)
        fputs(*p == '"' ? "\"\"" : (char[2]){*p, 0}, out);
    fputc('"', out);
}

static void write_csv_header(FILE *out, const struct sheet *s)
{
    for (size_t c = 0; c < s->ncols; c++) {
        if (c)
            fputc(',', out);
        csv_cell(out, s->headers[c]);
    }
    fputc('\n', out);
}

static void write_csv_row(FILE *out, const struct sheet *s, size_t r, struct iso_day *date)
{
    char buf[40];
    for (size_t c = 0; c < s->ncols; c++) {
        if (c)
            fputc(',', out);
        size_t len;
        csv_cell(out, cell_text(s, r * s->ncols + c, buf, sizeof buf, date, &len));
    }
    fputc('\n', out);
}

static void write_json_row(FILE *out, const struct sheet *s, size_t r, struct iso_day *date)
{
    char buf[40];
    fprintf(out, "%s\n    {", r ? "," : "");
    for (size_t c = 0; c < s->ncols; c++) {
        size_t len;
        const char *cell = cell_text(s, r * s->ncols + c, buf, sizeof buf, date, &len);
        fprintf(out, "%s", c ? ", " : "");
        spoor_json_write_string(out, s->headers[c], strlen(s->headers[c]));
        fputs(": ", out);
        if (!cell)
            fputs("null", out);
        else if (numeric(s->kinds[r * s->ncols + c]))
            fputs(cell, out);
        else
            spoor_json_write_string(out, cell, len);
    }
    fputc('}', out);
}

typedef void write_row_fn(FILE *out, const struct sheet *s, size_t r, struct iso_day *date);

struct rows_job {
    const struct sheet *s;
    write_row_fn *write_row;
    size_t nparts;
    char **text;
    size_t *len;
};

static void write_rows_from(FILE *out, const struct sheet *s, write_row_fn *write_row, size_t from, size_t to)
{
    struct iso_day date = {.day = INT64_MIN};
    for (size_t r = from; r < to; r++)
        write_row(out, s, r, &date);
}

/* Part k of the sheet's rows spelled into memory (text[k] NULL when there was
 * no memory for it: the part is then written directly after). */
static void rows_part(void *ctx, size_t k, int worker)
{
    (void)worker;
    const struct rows_job *j = ctx;
    j->text[k] = NULL;
    FILE *mem = open_memstream(&j->text[k], &j->len[k]);
    if (!mem)
        return;
    write_rows_from(mem, j->s, j->write_row, j->s->nrows * k / j->nparts, j->s->nrows * (k + 1) / j->nparts);
    if (fclose(mem) != 0) {
        free(j->text[k]);
        j->text[k] = NULL;
    }
}

/* The rows of a CSV or JSON sheet: a large sheet is spelled in parts on the
 * threads (shortest round-trip numbers cost a printf and a strtod or more
 * each) and written in order. */
static void write_rows(FILE *out, const struct sheet *s, write_row_fn *write_row, int threads)
{
    size_t nparts = parts_of(s, threads);
    if (nparts == 1) {
        write_rows_from(out, s, write_row, 0, s->nrows);
        return;
    }
    char *text[nparts];
    size_t len[nparts];
    spoor_parallel_for(nparts, threads, rows_part, &(struct rows_job){s, write_row, nparts, text, len});
    for (size_t k = 0; k < nparts; k++) {
        if (text[k])
            fwrite(text[k], 1, len[k], out);
        else
            write_rows_from(out, s, write_row, s->nrows * k / nparts, s->nrows * (k + 1) / nparts);
        free(text[k]);
    }
}

void sheets_write(FILE *out, struct sheet *const *sheets, size_t n, enum sheet_format format, const char *head,
                  int threads)
{
    if (format == SHEET_JSON)
        fprintf(out, "{\n  %s", head);
    for (size_t i = 0; i < n; i++) {
        const struct sheet *s = sheets[i];
        switch (format) {
        case SHEET_TABLE:
            fputc('\n', out);
            write_table(out, s, threads);
            break;
        case SHEET_CSV:
            if (n > 1)
                fprintf(out, "%s# %s\n", i ? "\n" : "", s->key);
            write_csv_header(out, s);
            write_rows(out, s, write_csv_row, threads);
            break;
        case SHEET_JSON:
            fprintf(out, ",\n  \"%s\": [", s->key);
            write_rows(out, s, write_json_row, threads);
            fputs("\n  ]", out);
            break;
        }
    }
    if (format == SHEET_JSON)
        fputs("\n}\n", out);
}
