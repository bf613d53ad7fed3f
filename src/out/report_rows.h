/* Writing a sheet's rows, one function per row: a held sheet's on threads
 * when large, a source sheet's made a block at a time. */
#ifndef SPOOR_OUT_REPORT_ROWS_H
#define SPOOR_OUT_REPORT_ROWS_H

#include "out/report_internal.h"
#include "out/write_internal.h"
#include "out/format_g.h"

/* Writes cell i as CSV and JSON spell it when it is a number (a bool
 * included); false, nothing written, when it is not (null, absent, a NaN
 * float, a text or a sheet). Inline: it runs for every cell of a dataset. */
static inline bool report_put_number(struct wbuf *b, const struct spoor_sheet *s, size_t i)
{
    union report_value v = s->values[i];
    switch ((enum spoor_cell_type)s->types[i]) {
    case SPOOR_CELL_INT:
        wbuf_i64(b, v.i);
        return true;
    case SPOOR_CELL_COUNT:
        wbuf_reserve(b, 20);
        b->len += spoor_format_u64(b->data + b->len, v.u);
        return true;
    case SPOOR_CELL_BOOL:
        wbuf_put(b, v.b ? "true" : "false", v.b ? 4 : 5);
        return true;
    case SPOOR_CELL_FLOAT: {
        if (v.f != v.f) /* NaN: null */
            return false;
        int digits = report_digits(s, i);
        if (digits == SPOOR_DIGITS_SHORTEST) {
            wbuf_f64(b, v.f);
        } else {
            char buf[48];
            wbuf_put(b, buf, report_float_text(buf, v.f, digits));
        }
        return true;
    }
    default:
        return false;
    }
}

/* Writes row r of s (row `nth` of the whole sheet: a source sheet's block
 * numbers its rows from 0). */
typedef void report_row_fn(struct wbuf *b, const struct spoor_sheet *s, size_t r, size_t nth, struct iso_day *day);

void report_write_rows(struct wbuf *b, const struct spoor_sheet *s, report_row_fn *write_row, int threads);

#endif
