/* The kinds of input `spoor gen --kind K` writes besides the default trace;
 * each has its own options and help. */
#ifndef SPOOR_GEN_KINDS_H
#define SPOOR_GEN_KINDS_H

#include <stdbool.h>
#include <stdio.h>

/* --kind metrics: the node-metric table of `spoor series`. */
int cmd_gen_metrics(int argc, char **argv);
/* --kind cascade: the scheduler log of `spoor lifecycle`. */
int cmd_gen_cascade(int argc, char **argv);

/* Whether the truth sidecars go beside path when asked: never beside stdout
 * (`-o -`), /dev/null or a FIFO. */
bool gen_truth_wanted(const char *path, bool asked);
/* Where the one-line report of what was written goes: stderr when the data
 * itself goes to stdout, so the two never mix. */
FILE *gen_report(const char *path);

#endif
