/* The kinds of input `spoor gen --kind K` writes besides the default trace;
 * each has its own options and help. */
#ifndef SPOOR_GEN_KINDS_H
#define SPOOR_GEN_KINDS_H

#include <stdbool.h>
#include <stdint.h>

/* Parses a whole number from 0 to max (cmd_gen.c); false on trailing junk,
 * a sign or a value above max. */
bool parse_upto(const char *s, uint64_t max, uint64_t *out);

/* --kind metrics: the node-metric table of `spoor series`. */
int cmd_gen_metrics(int argc, char **argv);
/* --kind cascade: the scheduler log of `spoor lifecycle`. */
int cmd_gen_cascade(int argc, char **argv);

#endif
