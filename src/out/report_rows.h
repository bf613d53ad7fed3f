/* Writing a sheet's rows, one function per row: a held sheet's on threads
 * when large, a source sheet's made a block at a time. */
#ifndef SPOOR_OUT_REPORT_ROWS_H
#define SPOOR_OUT_REPORT_ROWS_H

#include "out/report_internal.h"
#include "out/write_internal.h"

/* Writes row r of s (row `nth` of the whole sheet: a source sheet's block
 * numbers its rows from 0). */
typedef void report_row_fn(struct wbuf *b, const struct spoor_sheet *s, size_t r, size_t nth, struct iso_day *day);

void report_write_rows(struct wbuf *b, const struct spoor_sheet *s, report_row_fn *write_row, int threads);

#endif
