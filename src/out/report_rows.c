/* The rows of a CSV or JSON sheet, spelled in parts on threads when there are
 * many (shortest round-trip numbers cost a printf and a strtod or more each)
 * and written in order: the bytes never depend on the threads. */
#include "out/report_rows.h"
#include "util/parallel.h"

#include <stdlib.h>

struct rows_job {
    const struct spoor_sheet *s;
    report_row_fn *write_row;
    size_t nparts;
    char **text;
    size_t *len;
};

static void write_rows_from(FILE *out, const struct spoor_sheet *s, report_row_fn *write_row, size_t from, size_t to)
{
    struct iso_day day = ISO_DAY_NONE;
    for (size_t r = from; r < to; r++)
        write_row(out, s, r, &day);
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

void report_write_rows(FILE *out, const struct spoor_sheet *s, report_row_fn *write_row, int threads)
{
    size_t nparts = report_parts(s, threads);
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
