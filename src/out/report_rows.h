/* Writing a sheet's rows, one function per row, on threads for large sheets. */
#ifndef SPOOR_OUT_REPORT_ROWS_H
#define SPOOR_OUT_REPORT_ROWS_H

#include "out/report_internal.h"

typedef void report_row_fn(FILE *out, const struct spoor_sheet *s, size_t row, struct iso_day *day);

void report_write_rows(FILE *out, const struct spoor_sheet *s, report_row_fn *write_row, int threads);

#endif
