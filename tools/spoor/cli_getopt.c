#include "cli_getopt.h"
#include "spoor/error.h"

#include <stdio.h>
#include <string.h>

int cli_getopt(const char *cmd, int argc, char **argv, const char *shortopts, const struct option *longopts,
               int *index)
{
    char spec[64]; /* a leading ':' tells a missing value from an unknown option */
    snprintf(spec, sizeof spec, ":%s", shortopts);
    opterr = 0;
    int c = getopt_long(argc, argv, spec, longopts, index);
    if (c != '?' && c != ':')
        return c;
    /* The option as typed: the short one getopt stopped at, else the word
     * (without any =VALUE). */
    const char *word = optind > 0 && optind <= argc ? argv[optind - 1] : "";
    char shown[64];
    if (strncmp(word, "--", 2) && optopt > 0 && optopt < 128)
        snprintf(shown, sizeof shown, "-%c", optopt);
    else
        snprintf(shown, sizeof shown, "%.*s", (int)strcspn(word, "="), word);
    if (c == ':')
        fprintf(stderr, "spoor %s: %s needs a value; see 'spoor %s --help'\n", cmd, shown, cmd);
    else
        fprintf(stderr, "spoor %s: unknown option '%s'; see 'spoor %s --help'\n", cmd, shown, cmd);
    return CLI_BAD_OPTION;
}

int cli_exit_code(int st)
{
    return st == SPOOR_OK ? 0 : st == SPOOR_EUSAGE ? 2 : 1;
}
