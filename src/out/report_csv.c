/* A report as CSV: one sheet plainly, several each after a line "# key",
 * blank-line separated. Cells as the row writers spell them (write_csv.c): a
 * text holding a comma, quote or line break quoted, an empty text "", null
 * and absent cells empty. A properties sheet is two columns, key and value. */
#include "out/report_rows.h"

#include <string.h>

/* Columns shown: a properties sheet leaves its notes out. */
static size_t csv_cols(const struct spoor_sheet *s) { return s->kind == SPOOR_SHEET_PROPS ? PROP_NOTE : s->ncols; }

/* A cell other than report_put_common's: a number, a text or nothing. */
__attribute__((noinline)) static void csv_cell_other(struct report_spell *w, const struct spoor_sheet *s,
                                                     union report_value v, unsigned char type, int digits)
{
    if (!report_is_text(type)) {
        report_put_number(w->b, v, type, digits);
        return;
    }
    char buf[48];
    size_t len;
    const char *text = report_cell_text(s, v, type, buf, &w->day, &len);
    csv_text(w->b, text, len);
}

/* A cell's value; the common numbers need no frame of their own here. */
static void csv_cell_value(struct report_spell *w, const struct spoor_sheet *s, union report_value v,
                           unsigned char type, int digits)
{
    if (!report_put_common(w->b, v, type, digits))
        csv_cell_other(w, s, v, type, digits);
}

/* A row's first cell, a cell after a full buffer, a column not shown. */
__attribute__((noinline)) static void csv_cell_edge(struct report_spell *w, const struct spoor_sheet *s, size_t c,
                                                    union report_value v, unsigned char type, int digits)
{
    if (c == 0)
        report_row_begin(w);
    else if (c < csv_cols(s))
        wbuf_byte(w->b, ',');
    else
        return;
    csv_cell_value(w, s, v, type, digits);
}

/* A row's line break is written before the next row (and after the last by
 * report_write_rows), and the edge cases apart: a cell in the middle of a
 * row, run for every cell of a dataset, is a comma and a value, calling
 * nothing before its last call. */
static void csv_cell(struct report_spell *w, const struct spoor_sheet *s, size_t c, union report_value v,
                     unsigned char type, int digits)
{
    struct wbuf *b = w->b;
    if (c == 0 || c >= csv_cols(s) || b->len == b->cap) {
        csv_cell_edge(w, s, c, v, type, digits);
        return;
    }
    b->data[b->len++] = ',';
    csv_cell_value(w, s, v, type, digits);
}

static void put_text(struct wbuf *b, const char *s) { wbuf_put(b, s, strlen(s)); }

void report_write_csv(struct wbuf *b, const struct spoor_report *r, int threads)
{
    size_t shown = 0, k = 0;
    for (size_t i = 0; i < r->nsheets; i++)
        shown += report_shown(r->sheets[i], SPOOR_FORMAT_CSV);
    for (size_t i = 0; i < r->nsheets; i++) {
        const struct spoor_sheet *s = r->sheets[i];
        if (!report_shown(s, SPOOR_FORMAT_CSV))
            continue;
        if (shown > 1) {
            put_text(b, k++ ? "\n# " : "# ");
            put_text(b, s->key ? s->key : "");
            wbuf_byte(b, '\n');
        }
        for (size_t c = 0; c < csv_cols(s); c++) {
            if (c)
                wbuf_byte(b, ',');
            csv_text(b, s->headers[c], strlen(s->headers[c]));
        }
        wbuf_byte(b, '\n');
        struct report_spell w = {.b = b, .cell = csv_cell, .first_row = "", .next_row = "\n", .rows_end = "\n"};
        report_write_rows(s, &w, threads);
    }
}
