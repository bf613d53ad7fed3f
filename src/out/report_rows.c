/* The rows of a CSV or JSON sheet. A large held sheet is spelled in parts on
 * threads (shortest round-trip numbers cost a printf and a strtod or more
 * each) and written in order: the bytes never depend on the threads. A source
 * sheet's rows are made a block at a time into one scratch sheet, so memory
 * holds a block, not the result. */
#include "out/report_rows.h"
#include "util/parallel.h"

#include <stdlib.h>

/* Rows a source sheet makes at a time (few enough that their cells stay in
 * cache from filling to spelling), and blocks a thread takes per round. */
enum { BLOCK_ROWS = 512, BLOCKS_PER_THREAD = 16 };

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

struct blocks_job {
    const struct spoor_sheet *s;
    report_row_fn *write_row;
    size_t first;               /* the round's first block */
    struct spoor_sheet **scratch; /* per worker */
    struct wbuf *text;          /* per block of the round */
};

/* Block `first + k` of a source sheet, made in the worker's scratch sheet and spelled into text[k]. */
static void block_task(void *ctx, size_t k, int worker)
{
    const struct blocks_job *j = ctx;
    size_t from = (j->first + k) * BLOCK_ROWS, left = j->s->source_rows - from;
    report_refill(j->scratch[worker], j->s, from, left < BLOCK_ROWS ? left : BLOCK_ROWS);
    j->text[k].len = 0;
    write_rows_from(&j->text[k], j->scratch[worker], j->write_row, 0, j->scratch[worker]->nrows, from);
}

/* A source sheet's rows, a round of blocks at a time: made and spelled on the
 * threads, written in order. */
static void write_source_rows(struct wbuf *b, const struct spoor_sheet *s, report_row_fn *write_row, int threads)
{
    size_t workers = threads > 1 ? (size_t)threads : 1, per_round = workers * BLOCKS_PER_THREAD;
    size_t nblocks = (s->source_rows + BLOCK_ROWS - 1) / BLOCK_ROWS;
    struct blocks_job j = {s, write_row, 0, spoor_xcalloc(workers, sizeof *j.scratch),
                           spoor_xcalloc(per_round, sizeof *j.text)};
    for (size_t w = 0; w < workers; w++)
        j.scratch[w] = report_scratch(s);
    for (size_t k = 0; k < per_round; k++)
        wbuf_init(&j.text[k], NULL, 1 << 16);
    for (; j.first < nblocks; j.first += per_round) {
        size_t n = nblocks - j.first < per_round ? nblocks - j.first : per_round;
        spoor_parallel_for(n, (int)workers, block_task, &j);
        for (size_t k = 0; k < n; k++)
            wbuf_put(b, j.text[k].data, j.text[k].len);
    }
    for (size_t w = 0; w < workers; w++)
        report_sheet_free(j.scratch[w]);
    for (size_t k = 0; k < per_round; k++)
        wbuf_release(&j.text[k]);
    free(j.scratch);
    free(j.text);
}

void report_write_rows(struct wbuf *b, const struct spoor_sheet *s, report_row_fn *write_row, int threads)
{
    if (s->fill) {
        write_source_rows(b, s, write_row, threads);
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
