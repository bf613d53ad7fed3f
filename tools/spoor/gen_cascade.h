/* `spoor gen --kind cascade`: its own options, dispatched from cmd_gen. */
#ifndef SPOOR_TOOLS_GEN_CASCADE_H
#define SPOOR_TOOLS_GEN_CASCADE_H

int gen_cascade(int argc, char **argv);

#endif
