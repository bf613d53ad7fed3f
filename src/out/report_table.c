/* A report as text for a terminal: each sheet under its title, a blank line
 * between sheets; properties as "key        value (note)" lines, rows as an
 * aligned table (numbers right-aligned) formatted on threads when large. */
#include "out/report_internal.h"
#include "spoor/error.h"
#include "spoor/report.h"
#include "util/parallel.h"

#include <stdlib.h>
#include <string.h>

/* Where a property's value starts. */
enum { PROP_VALUE_COLUMN = 12 };

static void write_props(FILE *out, const struct spoor_sheet *s)
{
    char buf[64];
    struct iso_day day = ISO_DAY_NONE;
    for (size_t r = 0; r < s->nrows; r++) {
        size_t at = r * PROP_NCOLS, len;
        const char *key = s->text + s->values[at + PROP_KEY].text;
        size_t klen = strlen(key);
        fputs(key, out);
        for (size_t k = klen; k < PROP_VALUE_COLUMN || k == klen; k++)
            fputc(' ', out);
        bool value = s->types[at + PROP_VALUE] != SPOOR_CELL_ABSENT;
        if (value)
            fputs(report_spell_table(s, at + PROP_VALUE, buf, &day, &len), out);
        if (s->types[at + PROP_NOTE] == SPOOR_CELL_TEXT)
            fprintf(out, value ? " (%s)" : "%s", s->text + s->values[at + PROP_NOTE].text);
        fputc('\n', out);
    }
}

struct table_job {
    const struct spoor_sheet *s;
    struct spoor_text_table **parts;
    size_t nparts;
};

/* Part k of the sheet's rows as text table cells, in parts[k]. */
static void format_part(void *ctx, size_t k, int worker)
{
    (void)worker;
    const struct table_job *j = ctx;
    const struct spoor_sheet *s = j->s;
    size_t from = s->nrows * k / j->nparts * s->ncols, to = s->nrows * (k + 1) / j->nparts * s->ncols;
    struct spoor_text_table *t = j->parts[k];
    struct iso_day day = ISO_DAY_NONE;
    char buf[64];
    for (size_t i = from; i < to; i++) {
        unsigned char type = s->types[i];
        unsigned char unit = report_unit(s, i);
        if (type == SPOOR_CELL_COUNT && unit == SPOOR_CU_NONE) {
            spoor_text_table_u64(t, s->values[i].u);
        } else if (type == SPOOR_CELL_FLOAT && unit == SPOOR_CU_NONE && report_digits(s, i) == SPOOR_DIGITS_SHORTEST &&
                   s->values[i].f == s->values[i].f) {
            spoor_text_table_g6(t, s->values[i].f);
        } else {
            size_t len;
            const char *text = report_spell_table(s, i, buf, &day, &len);
            spoor_text_table_textn(t, text, len);
        }
    }
}

/* A column is right-aligned when it holds numbers or measures something. */
static bool *right_aligned(const struct spoor_sheet *s)
{
    bool *right = spoor_xcalloc(s->ncols ? s->ncols : 1, sizeof *right);
    for (size_t c = 0; c < s->ncols; c++)
        right[c] = s->col_unit[c] != SPOOR_CU_NONE;
    for (size_t i = 0; i < s->nrows * s->ncols; i++)
        if (report_numeric_type(s->types[i]))
            right[i % s->ncols] = true;
    return right;
}

/* A large sheet's cells are formatted in parts on the threads, and printed
 * as one table from the parts. */
static void write_rows(FILE *out, const struct spoor_sheet *s, int threads)
{
    if (s->fill) { /* a table is aligned over all its rows: made whole */
        struct spoor_sheet *all = report_scratch(s);
        report_refill(all, s, 0, s->source_rows, NULL);
        write_rows(out, all, threads);
        report_sheet_free(all);
        return;
    }
    bool *right = right_aligned(s);
    size_t nparts = report_parts(s, threads);
    struct spoor_text_table *parts[nparts];
    for (size_t k = 0; k < nparts; k++) {
        parts[k] = spoor_text_table_new(s->ncols, (const char *const *)s->headers, right);
        /* Seldom short (the table grows if it is): the sheet's text, and 32 bytes a cell */
        size_t cells = s->nrows * s->ncols / nparts + s->ncols;
        spoor_text_table_reserve(parts[k], cells, s->text_used + cells * 32);
    }
    spoor_parallel_for(nparts, threads, format_part, &(struct table_job){s, parts, nparts});
    spoor_text_table_print_parts((const struct spoor_text_table *const *)parts, nparts, out, threads);
    for (size_t k = 0; k < nparts; k++)
        spoor_text_table_free(parts[k]);
    free(right);
}

void report_write_table(FILE *out, const struct spoor_report *r, int threads)
{
    bool first = true;
    for (size_t i = 0; i < r->nsheets; i++) {
        const struct spoor_sheet *s = r->sheets[i];
        if (!report_shown(s, SPOOR_FORMAT_TABLE))
            continue;
        if (!first)
            fputc('\n', out);
        first = false;
        if (s->title)
            fprintf(out, "%s\n", s->title);
        if (s->kind == SPOOR_SHEET_PROPS)
            write_props(out, s);
        else
            write_rows(out, s, threads);
        if (s->footer)
            fprintf(out, "%s\n", s->footer);
    }
}
