/* Writing CSV cells through stdio (reports such as stats and lifecycle). */
#ifndef SPOOR_CSV_OUT_H
#define SPOOR_CSV_OUT_H

#include <stdio.h>

/* Writes s as one CSV field: quoted, quotes doubled, when it holds a comma, a
 * quote or a line break (RFC 4180, as the row writers quote); an empty string
 * is an empty field. */
void spoor_csv_write_field(FILE *out, const char *s);

#endif
