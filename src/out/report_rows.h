/* Writing a sheet's rows, cell by cell through a format's report_cell_fn: a
 * held sheet's on threads when large, a source sheet's made a block at a
 * time and spelled as its fill gives the cells. */
#ifndef SPOOR_OUT_REPORT_ROWS_H
#define SPOOR_OUT_REPORT_ROWS_H

#include "out/report_internal.h"
#include "out/write_internal.h"
#include "out/format_g.h"

/* Writes the two numbers of a dataset, an integer and a float spelled
 * shortest, each as a call that can end its caller (inline: it runs for
 * every cell); false, nothing written, for any other cell. */
static inline bool report_put_common(struct wbuf *b, union report_value v, unsigned char type, int digits)
{
    if (type == SPOOR_CELL_INT) {
        wbuf_i64(b, v.i);
        return true;
    }
    if (type == SPOOR_CELL_FLOAT && digits == SPOOR_DIGITS_SHORTEST && v.f == v.f)
        return wbuf_f64(b, v.f); /* true: v is finite */
    return false;
}

/* Writes a cell as CSV and JSON spell it when it is a number (a bool
 * included); false, nothing written, when it is not (null, absent, a NaN
 * float, a text or a sheet). */
bool report_put_number(struct wbuf *b, union report_value v, unsigned char type, int digits);

/* The joint before a row (first_row or next_row), the row counted. Byte by
 * byte: a joint is a few bytes, a line break in CSV. */
static inline void report_row_begin(struct report_spell *w)
{
    for (const char *joint = w->nth++ ? w->next_row : w->first_row; *joint; joint++)
        wbuf_byte(w->b, *joint);
}

/* Writes s's rows through spell (its buffer, cell function and joints; nth
 * and day are the writer's): the rows a held sheet has, or a source sheet's
 * made by its fill. */
void report_write_rows(const struct spoor_sheet *s, const struct report_spell *spell, int threads);

#endif
