/* A default CSV's rows written a second time, after its final header
 * (csv_widen.c), and the temporary file that holds them meanwhile. */
#ifndef SPOOR_OUT_CSV_WIDEN_H
#define SPOOR_OUT_CSV_WIDEN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "out/write_internal.h"

/* From data row `row` (0 = the first after the header) on, rows were
 * written with `ncols` args cells. */
struct csv_epoch {
    uint64_t row;
    uint32_t ncols;
};

/* A new temporary file in the directory of the file `beside`, or with NULL
 * in $TMPDIR (or /tmp), open for reading and writing and without a name;
 * NULL with err filled when it cannot be made. */
FILE *csv_spill_open(const char *beside, struct spoor_error *err);

/* Copies the CSV rows of fd, read from its current offset to its end, into
 * b: its first row skipped when skip_header, every data row widened to
 * `ncols` args cells by the epochs (at least one; rows are told apart by RFC
 * 4180 quoting). */
int csv_copy_rows(int fd, const struct csv_epoch *epochs, size_t nepochs, uint32_t ncols, bool skip_header,
                  struct wbuf *b, struct spoor_error *err);

#endif
