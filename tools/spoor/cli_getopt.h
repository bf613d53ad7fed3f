/* The option layer every command shares. A command declares its options once,
 * as a table saying where each value goes, and cli_parse() reads argv against
 * it (and against the reading options of load_args.h it takes): -h/--help
 * prints the command's help; a usage error prints one line
 *   spoor CMD: PROBLEM; see 'spoor CMD --help'
 * naming the option as typed, and the command exits 2. A second spelling of an
 * option (kept for old scripts) is one more row with the same target, left out
 * of the hand-written help. */
#ifndef SPOOR_CLI_GETOPT_H
#define SPOOR_CLI_GETOPT_H

#include <getopt.h> /* optind: where the operands start once cli_parse() is done */
#include <stdbool.h>
#include <stddef.h>

#include "spoor/report.h"

enum cli_kind {
    CLI_FLAG,   /* bool *: set to true */
    CLI_STRING, /* const char **: the value as typed; a later one wins */
    CLI_COUNT,  /* int, size_t or uint64_t *: a whole number from lo to hi */
    CLI_REAL,   /* double *: a finite number from lo to hi */
    CLI_WORD,   /* int *: the index of the value in words (NULL-terminated) */
    CLI_CALL,   /* call(target, value): false when the value is bad */
    CLI_LIST,   /* struct cli_list *: each value given is one more item */
};

/* A repeatable option's values, in the order given: at most max of them. */
struct cli_list {
    const char **item;
    size_t n, max;
};

/* One option. A bad value is told "OPT 'VALUE': PROBLEM" with the row's
 * problem ("expected a count"), or, for a CLI_CALL without one, by the call. */
struct cli_option {
    const char *name; /* the long name without "--"; NULL: a letter alone */
    char letter;      /* the short name, 0: none */
    enum cli_kind kind;
    void *target;
    const char *problem;
    double lo, hi;
    const char *const *words;
    bool (*call)(void *target, const char *value);
    bool once;   /* given twice is an error ("OPT given twice", the words of old) */
    size_t size; /* CLI_COUNT: sizeof *target */
};
/* The rows, read in the table as "--name (or -l) sets target": */
#define CLI_OPT_FLAG(n, l, t) {.name = (n), .letter = (l), .kind = CLI_FLAG, .target = (t)}
#define CLI_OPT_STRING(n, l, t) {.name = (n), .letter = (l), .kind = CLI_STRING, .target = (t)}
#define CLI_OPT_ONCE(n, l, t) {.name = (n), .letter = (l), .kind = CLI_STRING, .target = (t), .once = true}
#define CLI_OPT_COUNT(n, l, t, min, max, p) \
    {.name = (n), .letter = (l), .kind = CLI_COUNT, .target = (t), .size = sizeof *(t), .lo = (min), .hi = (max), \
     .problem = (p)}
#define CLI_OPT_REAL(n, l, t, min, max, p) \
    {.name = (n), .letter = (l), .kind = CLI_REAL, .target = (t), .lo = (min), .hi = (max), .problem = (p)}
#define CLI_OPT_WORD(n, l, t, list, p) \
    {.name = (n), .letter = (l), .kind = CLI_WORD, .target = (t), .words = (list), .problem = (p)}
#define CLI_OPT_WORD_ONCE(n, l, t, list, p) \
    {.name = (n), .letter = (l), .kind = CLI_WORD, .target = (t), .words = (list), .problem = (p), .once = true}
#define CLI_OPT_CALL(n, l, t, fn, p) \
    {.name = (n), .letter = (l), .kind = CLI_CALL, .target = (t), .call = (fn), .problem = (p)}
#define CLI_OPT_LIST(n, l, t) {.name = (n), .letter = (l), .kind = CLI_LIST, .target = (t)}
#define CLI_OPT_FORMAT(t) CLI_OPT_CALL("format", 0, (t), cli_format_parse, NULL)
#define CLI_END {.name = NULL}

/* --format as the row CLI_OPT_FORMAT(&f), with f = {CMD, ALLOWED, N, DEFAULT};
 * the choice lands in f.value. */
struct cli_format {
    const char *cmd;
    const enum spoor_output_format *allowed;
    size_t n;
    enum spoor_output_format value;
};
bool cli_format_parse(void *format, const char *value);
/* --format ARG among the n `allowed`; on a bad one prints "spoor CMD:
 * --format 'ARG': expected csv or jsonl" and returns false. */
bool cli_format_choose(const char *cmd, const char *arg, const enum spoor_output_format *allowed, size_t n,
                       enum spoor_output_format *format);
/* Whether `format` may go to `output` (-o; NULL or "-": stdout): an HTML page
 * (a megabyte of script) goes to a file or a pipe, not to a terminal; false
 * after saying so. */
bool cli_output_fits(const char *cmd, enum spoor_output_format format, const char *output);

/* A time unit (ns, us, ms or s) into an enum spoor_unit: CLI_OPT_UNIT(name, letter, &unit). */
bool cli_unit_parse(void *unit, const char *value);
#define CLI_OPT_UNIT(n, l, t) CLI_OPT_CALL(n, l, t, cli_unit_parse, "expected ns, us, ms or s")

/* Parses argv from argv[1] against options (ended by CLI_END) and, when load
 * is not NULL, the reading options in load_groups (LOAD_GROUP_* of
 * load_args.h) into load. Returns -1 to go on, with optind at the first
 * operand; else the exit code: 0 after printing help, 2 after a usage error. */
struct spoor_load_opts;
int cli_parse(const char *cmd, const char *help, const struct cli_option *options, struct spoor_load_opts *load,
              unsigned load_groups, int argc, char **argv);

/* Prints "spoor CMD: PROBLEM; see 'spoor CMD --help'" with PROBLEM formatted
 * from fmt; returns 2, the exit code of a usage error. CMD may name a kind of
 * command ("gen --kind metrics"): its first word begins the line. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The exit status of a command that ended with status st: 0 when it went
 * well, 2 for a usage error found on the way (a field --ts names that the
 * input lacks, `-` given twice), 1 for any other failure. */
int cli_exit_code(int st);

/* Splits "a,b,c" into a NULL-terminated array of copies, empty items left
 * out; *n is how many (free with cli_split_free). */
char **cli_split_commas(const char *s, size_t *n);
void cli_split_free(char **v);

#endif
