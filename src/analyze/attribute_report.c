/* The attribution dataset as a report: one sheet whose rows (one per call,
 * possibly millions) are made from the dataset a block at a time while src/out
 * renders it, so the dataset is never copied. */
#include "spoor/attribute.h"

#include <stdlib.h>
#include <string.h>

static const char *const fixed_names[] = {"call_id", "ts", "dur", "name", "file", "size", "bandwidth"};
enum { NFIXED = sizeof fixed_names / sizeof *fixed_names };
static const enum spoor_cell_unit fixed_units[NFIXED] = {SPOOR_CU_NONE, SPOOR_CU_NS,    SPOOR_CU_NS,
                                                          SPOOR_CU_NONE, SPOOR_CU_NONE, SPOOR_CU_BYTES,
                                                          SPOOR_CU_MIB_PER_S};

static void name_or_null(struct spoor_sheet *s, const char *text)
{
    if (text)
        spoor_sheet_name(s, text);
    else
        spoor_sheet_null(s);
}

/* Row i of the dataset: a call, the ns each kernel column took in it, what is left. */
static void fill_row(void *ctx, struct spoor_sheet *s, size_t i)
{
    const struct spoor_attr_dataset *d = ctx;
    const struct spoor_attr_row *r = &d->rows[i];
    int64_t first[] = {r->call_id, r->ts, r->dur};
    spoor_sheet_ints(s, first, 3, SPOOR_NULL);
    name_or_null(s, r->name);
    name_or_null(s, r->file);
    spoor_sheet_int_or_null(s, r->size, SPOOR_NULL);
    spoor_sheet_float(s, r->bandwidth); /* NaN: null */
    if (r->unattributed != SPOOR_NULL)
        spoor_sheet_ints(s, d->ns + i * d->ncols, d->ncols, SPOOR_NULL);
    else /* a call taking no part */
        for (size_t k = 0; k < d->ncols; k++)
            spoor_sheet_null(s);
    spoor_sheet_int_or_null(s, r->unattributed, SPOOR_NULL);
    spoor_sheet_float(s, r->coverage);
}

struct spoor_report *spoor_attr_dataset_report(const struct spoor_attr_dataset *d)
{
    struct spoor_report *rep = spoor_report_new("spoor attribute");
    size_t ncols = NFIXED + d->ncols + 2;
    struct spoor_sheet *s = spoor_report_rows_source(rep, "calls", ncols, SPOOR_FORMATS_ALL, d->nrows, fill_row,
                                                     (void *)d);
    for (size_t c = 0; c < NFIXED; c++)
        spoor_sheet_column(s, c, fixed_names[c], fixed_units[c], SPOOR_DIGITS_SHORTEST,
                           c == 1 ? SPOOR_HINT_TIME : c == 3 || c == 4 ? SPOOR_HINT_CATEGORY : SPOOR_HINT_NONE);
    for (size_t k = 0; k < d->ncols; k++)
        spoor_sheet_column(s, NFIXED + k, d->col_names[k], SPOOR_CU_NS, SPOOR_DIGITS_SHORTEST, SPOOR_HINT_STACKED);
    /* a call's kernel times and what is left add up to its dur: stacked */
    spoor_sheet_column(s, ncols - 2, "unattributed", SPOOR_CU_NS, SPOOR_DIGITS_SHORTEST, SPOOR_HINT_STACKED);
    spoor_sheet_column(s, ncols - 1, "coverage", SPOOR_CU_SHARE, SPOOR_DIGITS_SHORTEST, SPOOR_HINT_NONE);
    return rep;
}
