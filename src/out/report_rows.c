/* The rows of a CSV or JSON sheet. A large held sheet is spelled in parts on
 * threads (shortest round-trip numbers cost a printf and a strtod or more
 * each) and written in order: the bytes never depend on the threads. A source
 * sheet's rows are made a block at a time, each cell spelled as the fill
 * gives it (never stored), so memory holds a block of text, not the result. */
#include "out/report_rows.h"
#include "util/parallel.h"

#include <stdlib.h>
#include <string.h>

/* Rows a source sheet makes at a time, and blocks a thread takes per round. */
enum { BLOCK_ROWS = 512, BLOCKS_PER_THREAD = 16 };

/* Rows [from, to) of a held sheet, the first numbered `from` in the sheet. */
static void spell_held(struct report_spell *w, const struct spoor_sheet *s, size_t from, size_t to)
{
    w->nth = from;
    w->day = ISO_DAY_NONE;
    for (size_t r = from; r < to; r++)
        for (size_t c = 0, i = r * s->ncols; c < s->ncols; c++, i++)
            w->cell(w, s, c, s->values[i], s->types[i], report_digits(s, i));
}

struct rows_job {
    const struct spoor_sheet *s;
    const struct report_spell *spell;
    size_t nparts;
    struct wbuf *parts;
};

/* Part k of the sheet's rows spelled into memory. */
static void rows_part(void *ctx, size_t k, int worker)
{
    (void)worker;
    const struct rows_job *j = ctx;
    struct report_spell w = *j->spell;
    w.b = &j->parts[k];
    wbuf_init(w.b, NULL, 1 << 16);
    spell_held(&w, j->s, j->s->nrows * k / j->nparts, j->s->nrows * (k + 1) / j->nparts);
}

struct blocks_job {
    const struct spoor_sheet *s;
    const struct report_spell *spell;
    size_t first;               /* the round's first block */
    struct spoor_sheet **scratch; /* per worker */
    struct wbuf *text;          /* per block of the round */
};

/* Block `first + k` of a source sheet spelled into text[k] as the worker's
 * scratch sheet is filled. */
static void block_task(void *ctx, size_t k, int worker)
{
    const struct blocks_job *j = ctx;
    size_t from = (j->first + k) * BLOCK_ROWS, left = j->s->source_rows - from;
    struct report_spell w = *j->spell;
    w.b = &j->text[k];
    w.b->len = 0;
    w.nth = from;
    w.day = ISO_DAY_NONE;
    report_refill(j->scratch[worker], j->s, from, left < BLOCK_ROWS ? left : BLOCK_ROWS, &w);
}

/* A source sheet's rows, a round of blocks at a time: made and spelled on the
 * threads, written in order. */
static void write_source_rows(const struct spoor_sheet *s, const struct report_spell *spell, int threads)
{
    size_t workers = threads > 1 ? (size_t)threads : 1, per_round = workers * BLOCKS_PER_THREAD;
    size_t nblocks = (s->source_rows + BLOCK_ROWS - 1) / BLOCK_ROWS;
    struct blocks_job j = {s, spell, 0, spoor_xcalloc(workers, sizeof *j.scratch),
                           spoor_xcalloc(per_round, sizeof *j.text)};
    for (size_t w = 0; w < workers; w++)
        j.scratch[w] = report_scratch(s);
    for (size_t k = 0; k < per_round; k++)
        wbuf_init(&j.text[k], NULL, 1 << 16);
    for (; j.first < nblocks; j.first += per_round) {
        size_t n = nblocks - j.first < per_round ? nblocks - j.first : per_round;
        spoor_parallel_for(n, (int)workers, block_task, &j);
        for (size_t k = 0; k < n; k++)
            wbuf_write(spell->b, j.text[k].data, j.text[k].len);
    }
    for (size_t w = 0; w < workers; w++)
        report_sheet_free(j.scratch[w]);
    for (size_t k = 0; k < per_round; k++)
        wbuf_release(&j.text[k]);
    free(j.scratch);
    free(j.text);
}

/* A held sheet's rows: in parts on the threads when large. */
static void write_held_rows(const struct spoor_sheet *s, const struct report_spell *spell, int threads)
{
    size_t nparts = report_parts(s, threads);
    if (nparts == 1) {
        struct report_spell w = *spell;
        spell_held(&w, s, 0, s->nrows);
        return;
    }
    struct wbuf *parts = spoor_xcalloc(nparts, sizeof *parts);
    spoor_parallel_for(nparts, threads, rows_part, &(struct rows_job){s, spell, nparts, parts});
    for (size_t k = 0; k < nparts; k++) {
        wbuf_write(spell->b, parts[k].data, parts[k].len);
        wbuf_release(&parts[k]);
    }
    free(parts);
}

void report_write_rows(const struct spoor_sheet *s, const struct report_spell *spell, int threads)
{
    if (s->fill)
        write_source_rows(s, spell, threads);
    else
        write_held_rows(s, spell, threads);
    if (report_nrows(s))
        wbuf_put(spell->b, spell->rows_end, strlen(spell->rows_end));
}
