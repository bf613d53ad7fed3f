/* A report as CSV: one sheet plainly, several each after a line "# key",
 * blank-line separated. Cells as RFC 4180 quotes them (csv_out.h); null,
 * absent and empty cells are empty fields. A properties sheet is two columns,
 * key and value. */
#include "out/report_rows.h"
#include "spoor/csv_out.h"

static void csv_cell(FILE *out, const struct spoor_sheet *s, size_t i, struct iso_day *day)
{
    char buf[48];
    const char *text;
    size_t len;
    if (report_spell_data(s, i, buf, day, &text, &len) == SPELLED_TEXT)
        spoor_csv_write_field(out, text);
    else
        fwrite(text, 1, len, out);
}

/* Columns shown: a properties sheet leaves its notes out. */
static size_t csv_cols(const struct spoor_sheet *s) { return s->kind == SPOOR_SHEET_PROPS ? PROP_NOTE : s->ncols; }

static void csv_row(FILE *out, const struct spoor_sheet *s, size_t r, struct iso_day *day)
{
    for (size_t c = 0; c < csv_cols(s); c++) {
        if (c)
            fputc(',', out);
        csv_cell(out, s, r * s->ncols + c, day);
    }
    fputc('\n', out);
}

void report_write_csv(FILE *out, const struct spoor_report *r, int threads)
{
    size_t shown = 0, k = 0;
    for (size_t i = 0; i < r->nsheets; i++)
        shown += report_shown(r->sheets[i], SPOOR_FORMAT_CSV);
    for (size_t i = 0; i < r->nsheets; i++) {
        const struct spoor_sheet *s = r->sheets[i];
        if (!report_shown(s, SPOOR_FORMAT_CSV))
            continue;
        if (shown > 1)
            fprintf(out, "%s# %s\n", k++ ? "\n" : "", s->key ? s->key : "");
        for (size_t c = 0; c < csv_cols(s); c++) {
            if (c)
                fputc(',', out);
            spoor_csv_write_field(out, s->headers[c]);
        }
        fputc('\n', out);
        report_write_rows(out, s, csv_row, threads);
    }
}
