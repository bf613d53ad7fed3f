/* Writing CSV text: one field, quoted only when it must be (RFC 4180). */
#ifndef SPOOR_CSV_OUT_H
#define SPOOR_CSV_OUT_H

#include <stdio.h>

/* Writes s as a CSV field: as is, or in double quotes (inner quotes doubled)
 * when it holds a comma, a quote or a line end. */
void spoor_csv_write_field(FILE *out, const char *s);

#endif
