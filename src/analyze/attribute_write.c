/* The attribution dataset as CSV or JSON lines, through the row writers'
 * buffer and cell spelling (out/write_internal.h). */
#include "spoor/attribute.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "out/write_internal.h"

static const char *const fixed_names[] = {"call_id", "ts", "dur", "name", "file", "size", "bandwidth"};
enum { NFIXED = sizeof fixed_names / sizeof *fixed_names };
static const char *const tail_names[] = {"unattributed", "coverage"};
enum { NTAIL = sizeof tail_names / sizeof *tail_names };

/* Cells of one row: CSV separates them with commas, JSON labels each. */
struct cells {
    struct wbuf b;
    enum spoor_write_format format;
    struct label *labels;   /* every column, in order */
    size_t next;            /* column of the next cell */
};

static void cell_start(struct cells *c)
{
    if (c->format == SPOOR_WRITE_JSONL) {
        wbuf_byte(&c->b, c->next ? ',' : '{');
        wbuf_put(&c->b, c->labels[c->next].json_key, c->labels[c->next].json_key_len);
    } else if (c->next) {
        wbuf_byte(&c->b, ',');
    }
    c->next++;
}

static void cell_null(struct cells *c)
{
    cell_start(c);
    if (c->format == SPOOR_WRITE_JSONL)
        wbuf_put(&c->b, "null", 4);
}

static void cell_i64(struct cells *c, int64_t v)
{
    if (v == SPOOR_NULL) {
        cell_null(c);
        return;
    }
    cell_start(c);
    wbuf_i64(&c->b, v);
}

static void cell_f64(struct cells *c, double v)
{
    if (isnan(v)) {
        cell_null(c);
        return;
    }
    cell_start(c);
    wbuf_f64(&c->b, v);
}

static void cell_str(struct cells *c, const char *s)
{
    if (!s) {
        cell_null(c);
        return;
    }
    cell_start(c);
    (c->format == SPOOR_WRITE_JSONL ? json_text : csv_text)(&c->b, s, strlen(s));
}

static void row_end(struct cells *c)
{
    if (c->format == SPOOR_WRITE_JSONL)
        wbuf_byte(&c->b, '}');
    wbuf_byte(&c->b, '\n');
    c->next = 0;
}

static void write_header(struct cells *c, size_t ncols)
{
    for (size_t i = 0; i < ncols; i++)
        cell_str(c, c->labels[i].text);
    row_end(c);
}

static void write_row(struct cells *c, const struct spoor_attr_dataset *d, size_t i)
{
    const struct spoor_attr_row *r = &d->rows[i];
    cell_i64(c, r->call_id);
    cell_i64(c, r->ts);
    cell_i64(c, r->dur);
    cell_str(c, r->name);
    cell_str(c, r->file);
    cell_i64(c, r->size);
    cell_f64(c, r->bandwidth);
    for (size_t k = 0; k < d->ncols; k++)
        cell_i64(c, r->unattributed == SPOOR_NULL ? SPOOR_NULL : d->ns[i * d->ncols + k]);
    cell_i64(c, r->unattributed);
    cell_f64(c, r->coverage);
    row_end(c);
}

int spoor_attr_dataset_write(FILE *out, const struct spoor_attr_dataset *d, enum spoor_write_format format,
                             struct spoor_error *err)
{
    size_t ncols = NFIXED + d->ncols + NTAIL;
    struct cells c = {.format = format, .labels = spoor_xmalloc(ncols * sizeof *c.labels)};
    for (size_t i = 0; i < ncols; i++)
        label_make(&c.labels[i], i < NFIXED ? fixed_names[i]
                                 : i < NFIXED + d->ncols ? d->col_names[i - NFIXED]
                                                         : tail_names[i - NFIXED - d->ncols]);
    wbuf_init(&c.b, out, 1 << 16);
    if (format == SPOOR_WRITE_CSV)
        write_header(&c, ncols);
    for (size_t i = 0; i < d->nrows; i++)
        write_row(&c, d, i);
    int st = wbuf_finish(&c.b, err);
    wbuf_release(&c.b);
    for (size_t i = 0; i < ncols; i++)
        label_free(&c.labels[i]);
    free(c.labels);
    return st;
}
