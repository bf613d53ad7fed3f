/* The rows of a CSV or JSON sheet. A large held sheet is spelled in parts on
 * threads (shortest round-trip numbers cost a printf and a strtod or more
 * each) and written in order: the bytes never depend on the threads. A source
 * sheet's rows are made a block at a time into one scratch sheet, so memory
 * holds a block, not the result. */
#include "out/report_rows.h"
#include "util/parallel.h"

#include <stdlib.h>

/* Rows a source sheet makes at a time. */
enum { BLOCK_ROWS = 4096 };

struct rows_job {
    const struct spoor_sheet *s;
    report_row_fn *write_row;
    size_t nparts;
    struct wbuf *parts;
};

static void write_rows_from(struct wbuf *b, const struct spoor_sheet *s, report_row_fn *write_row, size_t from,
                            size_t to, size_t first)
{
    struct iso_day day = ISO_DAY_NONE;
    for (size_t r = from; r < to; r++)
        write_row(b, s, r, first + r, &day);
}

/* Part k of the sheet's rows spelled into memory. */
static void rows_part(void *ctx, size_t k, int worker)
{
    (void)worker;
    const struct rows_job *j = ctx;
    wbuf_init(&j->parts[k], NULL, 1 << 16);
    write_rows_from(&j->parts[k], j->s, j->write_row, j->s->nrows * k / j->nparts,
                    j->s->nrows * (k + 1) / j->nparts, 0);
}

void report_write_rows(struct wbuf *b, const struct spoor_sheet *s, report_row_fn *write_row, int threads)
{
    if (s->fill) {
        struct spoor_sheet *block = report_scratch(s);
        for (size_t from = 0; from < s->source_rows; from += BLOCK_ROWS) {
            size_t n = s->source_rows - from < BLOCK_ROWS ? s->source_rows - from : BLOCK_ROWS;
            report_refill(block, s, from, n);
            write_rows_from(b, block, write_row, 0, block->nrows, from);
        }
        report_sheet_free(block);
        return;
    }
    size_t nparts = report_parts(s, threads);
    if (nparts == 1) {
        write_rows_from(b, s, write_row, 0, s->nrows, 0);
        return;
    }
    struct wbuf *parts = spoor_xcalloc(nparts, sizeof *parts);
    spoor_parallel_for(nparts, threads, rows_part, &(struct rows_job){s, write_row, nparts, parts});
    for (size_t k = 0; k < nparts; k++) {
        wbuf_put(b, parts[k].data, parts[k].len);
        wbuf_release(&parts[k]);
    }
    free(parts);
}
