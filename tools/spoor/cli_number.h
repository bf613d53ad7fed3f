/* Numbers in option values, shared by the commands (each keeps its own
 * message): the whole text must be the number, with no sign or blank before
 * an integer and nothing after either. */
#ifndef SPOOR_CLI_NUMBER_H
#define SPOOR_CLI_NUMBER_H

#include <stdbool.h>
#include <stdint.h>

/* A whole number from 0 to max. */
bool cli_count(const char *s, uint64_t max, uint64_t *out);
/* A finite number from lo to hi. */
bool cli_real(const char *s, double lo, double hi, double *out);
/* A duration (spoor_parse_duration) as option opt of command cmd; when it is
 * none, prints the usage error "--OPT 'S': what is wrong". */
bool cli_duration(const char *cmd, const char *opt, const char *s, int64_t *ns);

#endif
