/* A report as CSV: one sheet plainly, several each after a line "# key",
 * blank-line separated. Cells as the row writers spell them (write_csv.c): a
 * text holding a comma, quote or line break quoted, an empty text "", null
 * and absent cells empty. A properties sheet is two columns, key and value. */
#include "out/report_rows.h"

#include <string.h>

static void csv_cell(struct wbuf *b, const struct spoor_sheet *s, size_t i, struct iso_day *day)
{
    if (!report_put_number(b, s, i) && report_is_text(s->types[i])) {
        char buf[48];
        size_t len;
        const char *text = report_cell_text(s, i, buf, day, &len);
        csv_text(b, text, len);
    }
}

/* Columns shown: a properties sheet leaves its notes out. */
static size_t csv_cols(const struct spoor_sheet *s) { return s->kind == SPOOR_SHEET_PROPS ? PROP_NOTE : s->ncols; }

static void csv_row(struct wbuf *b, const struct spoor_sheet *s, size_t r, size_t nth, struct iso_day *day)
{
    (void)nth;
    for (size_t c = 0; c < csv_cols(s); c++) {
        if (c)
            wbuf_byte(b, ',');
        csv_cell(b, s, r * s->ncols + c, day);
    }
    wbuf_byte(b, '\n');
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
        report_write_rows(b, s, csv_row, threads);
    }
}
