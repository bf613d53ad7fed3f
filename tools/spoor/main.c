/* spoor: git-style dispatch to one cmd_<name>() per subcommand. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "spoor/write.h"

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
        fprintf(out, "  %-12s  %s\n", c->name, c->summary);
    fprintf(out, "  %-12s  %s\n  %-12s  %s\n", "help CMD", "the help of CMD (the same as 'spoor CMD --help')",
            "version", "the version of spoor (also --version)");
    fprintf(out, "\ndocs/cli.md describes them all.\n");
}

static const struct spoor_command *find(const char *name)
{
    for (const struct spoor_command *c = spoor_commands; c->name; c++)
        if (!strcmp(c->name, name))
            return c;
    fprintf(stderr, "spoor: '%s' is not a command; see 'spoor --help'\n", name);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *first = argv[1];
    if (!strcmp(first, "--help") || !strcmp(first, "-h") || (!strcmp(first, "help") && argc == 2)) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(first, "--version") || !strcmp(first, "version")) {
        puts("spoor " SPOOR_VERSION);
        return 0;
    }
    spoor_atomic_file_cleanup_on_signals(); /* an interrupted run leaves no temporary behind */
    if (!strcmp(first, "help")) {
        if (argc > 3) {
            fprintf(stderr, "spoor help: one command at a time; see 'spoor --help'\n");
            return 2;
        }
        const struct spoor_command *c = find(argv[2]);
        char *help_argv[] = {argv[2], "--help", NULL};
        return c ? c->run(2, help_argv) : 2;
    }
    const struct spoor_command *c = find(first);
    return c ? c->run(argc - 1, argv + 1) : 2;
}
