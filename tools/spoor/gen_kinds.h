/* The kinds of input `spoor gen --kind K` writes besides the default trace;
 * each has its own options and help. */
#ifndef SPOOR_GEN_KINDS_H
#define SPOOR_GEN_KINDS_H

/* --kind metrics: the node-metric table of `spoor series`. */
int cmd_gen_metrics(int argc, char **argv);
/* --kind cascade: the scheduler log of `spoor lifecycle`. */
int cmd_gen_cascade(int argc, char **argv);

#endif
