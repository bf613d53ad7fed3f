/* getopt_long for every command, with its errors in spoor's form: an unknown
 * option, or one lacking its value, prints one line "spoor CMD: ...; see
 * 'spoor CMD --help'" on stderr and comes back as CLI_BAD_OPTION, which the
 * command turns into exit code 2 without a word more. */
#ifndef SPOOR_CLI_GETOPT_H
#define SPOOR_CLI_GETOPT_H

#include <getopt.h>

enum { CLI_BAD_OPTION = '?' };

/* As getopt_long(argc, argv, shortopts, longopts, index); index may be NULL. */
int cli_getopt(const char *cmd, int argc, char **argv, const char *shortopts, const struct option *longopts,
               int *index);

/* The exit status of a command that ended with status st: 0 when it went
 * well, 2 for a usage error found on the way (a field --ts names that the
 * input lacks, `-` given twice), 1 for any other failure. */
int cli_exit_code(int st);

#endif
