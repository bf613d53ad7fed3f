/* Sheets: cells collected row by row, rendered once in the chosen format. */
#include "series_sheet.h"
#include "spoor/error.h"
#include "spoor/format_g.h"
#include "spoor/json_out.h"
#include "spoor/text_table.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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
    for (size_t i = 0; i < s->nrows * s->ncols; i++)
        free(s->cells[i]);
    free(s->headers);
    free(s->cells);
    free(s->numeric);
    free(s->numbers);
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

static void add_cell(struct sheet *s, char *text, double number, bool numeric)
{
    size_t i = ncells(s);
    if (i == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->cells = spoor_xrealloc(s->cells, s->cap * sizeof *s->cells);
        s->numeric = spoor_xrealloc(s->numeric, s->cap * sizeof *s->numeric);
        s->numbers = spoor_xrealloc(s->numbers, s->cap * sizeof *s->numbers);
    }
    s->cells[i] = text;
    s->numbers[i] = number;
    s->numeric[i] = numeric;
    if (++s->pending == s->ncols) {
        s->pending = 0;
        s->nrows++;
    }
}

void sheet_text(struct sheet *s, const char *text) { add_cell(s, spoor_xstrdup(text), 0, false); }

void sheet_number(struct sheet *s, double v) { add_cell(s, NULL, isfinite(v) ? v : NAN, true); }

void sheet_count(struct sheet *s, unsigned long long n)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%llu", n);
    add_cell(s, spoor_xstrdup(buf), 0, true);
}

/* Cell i as text: NULL when empty. */
static const char *cell_text(const struct sheet *s, size_t i, bool table, char *buf, size_t cap)
{
    if (s->cells[i])
        return s->cells[i];
    if (isnan(s->numbers[i]))
        return NULL;
    if (table) {
        spoor_format_g6(buf, cap, s->numbers[i]);
        return buf;
    }
    /* The shortest spelling that reads back to the same double. */
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(buf, cap, "%.*g", digits, s->numbers[i]);
        if (strtod(buf, NULL) == s->numbers[i])
            break;
    }
    return buf;
}

static void write_table(FILE *out, const struct sheet *s)
{
    bool *right = spoor_xcalloc(s->ncols, sizeof *right);
    for (size_t c = 0; c < s->ncols; c++)
        right[c] = s->nrows && s->numeric[c];
    struct spoor_text_table *t = spoor_text_table_new(s->ncols, (const char *const *)s->headers, right);
    char buf[40];
    for (size_t i = 0; i < s->nrows * s->ncols; i++) {
        const char *cell = cell_text(s, i, true, buf, sizeof buf);
        spoor_text_table_text(t, cell ? cell : "-");
    }
    fprintf(out, "%s\n", s->title);
    spoor_text_table_print(t, out);
    spoor_text_table_free(t);
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

static void write_csv_row(FILE *out, const struct sheet *s, size_t r)
{
    char buf[40];
    for (size_t c = 0; c < s->ncols; c++) {
        if (c)
            fputc(',', out);
        csv_cell(out, cell_text(s, r * s->ncols + c, false, buf, sizeof buf));
    }
    fputc('\n', out);
}

static void write_json(FILE *out, const struct sheet *s)
{
    fprintf(out, "\"%s\": [", s->key);
    char buf[40];
    for (size_t r = 0; r < s->nrows; r++) {
        fprintf(out, "%s\n    {", r ? "," : "");
        for (size_t c = 0; c < s->ncols; c++) {
            const char *cell = cell_text(s, r * s->ncols + c, false, buf, sizeof buf);
            fprintf(out, "%s", c ? ", " : "");
            spoor_json_write_string(out, s->headers[c], strlen(s->headers[c]));
            fputs(": ", out);
            if (!cell)
                fputs("null", out);
            else if (s->numeric[r * s->ncols + c])
                fputs(cell, out);
            else
                spoor_json_write_string(out, cell, strlen(cell));
        }
        fputc('}', out);
    }
    fputs("\n  ]", out);
}

void sheets_write(FILE *out, struct sheet *const *sheets, size_t n, enum sheet_format format, const char *head)
{
    if (format == SHEET_JSON)
        fprintf(out, "{\n  %s", head);
    for (size_t i = 0; i < n; i++) {
        const struct sheet *s = sheets[i];
        switch (format) {
        case SHEET_TABLE:
            fputc('\n', out);
            write_table(out, s);
            break;
        case SHEET_CSV:
            if (n > 1)
                fprintf(out, "%s# %s\n", i ? "\n" : "", s->key);
            write_csv_header(out, s);
            for (size_t r = 0; r < s->nrows; r++)
                write_csv_row(out, s, r);
            break;
        case SHEET_JSON:
            fputs(",\n  ", out);
            write_json(out, s);
            break;
        }
    }
    if (format == SHEET_JSON)
        fputs("\n}\n", out);
}
