/* spoor: git-style dispatch to one cmd_<name>() per subcommand. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "spoor/atomic_file.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: spoor <command> [options] [args]\n"
            "\n"
            "Reads system traces (DFTracer/DataCrumbs .pfw/.pfw.gz, JSON lines, CSV) into one\n"
            "columnar event table and analyses them.\n"
            "\n"
            "commands:\n");
    for (const struct spoor_command *c = spoor_commands; c->name; c++)
        fprintf(out, "  %s\n", c->name);
    fprintf(out, "\n'spoor <command> --help' describes a command; docs/cli.md has them all.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        puts("spoor 0.1.0");
        return 0;
    }
    spoor_atomic_file_cleanup_on_signals(); /* an interrupted run leaves no temporary behind */
    for (const struct spoor_command *c = spoor_commands; c->name; c++)
        if (!strcmp(c->name, argv[1]))
            return c->run(argc - 1, argv + 1);
    fprintf(stderr, "spoor: '%s' is not a command; see 'spoor --help'\n", argv[1]);
    return 2;
}
