/* The option layer (cli_getopt.h): a table of options turned into one
 * getopt_long loop. */
#include "cli_getopt.h"
#include "cli_number.h"
#include "load_args.h"
#include "spoor/error.h"

#include <assert.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { OWN_CODE = 2000 }; /* row i of a command's table comes back as OWN_CODE + i */
#define MAX_OPTIONS 96

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "spoor %.*s: ", (int)strcspn(cmd, " "), cmd); /* "gen --kind metrics": "spoor gen: " */
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "; see 'spoor %s --help'\n", cmd);
    va_end(ap);
    return 2;
}

/* getopt_long, with an unknown option or one lacking its value told in the
 * usage error's shape; then it returns '?'. */
static int next_option(const char *cmd, int argc, char **argv, const char *shortopts, const struct option *longopts,
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
        cli_usage_error(cmd, "%s needs a value", shown);
    else
        cli_usage_error(cmd, "unknown option '%s'", shown);
    return '?';
}

/* The getopt_long tables for options: its long and short names, -h/--help,
 * then the reading options. */
static void build_tables(const struct cli_option *options, unsigned load_groups, struct option *longs,
                         char *shorts, size_t nshorts)
{
    size_t nl = 0, ns = 0;
    shorts[ns++] = 'h';
    for (size_t i = 0; options[i].name || options[i].letter; i++) {
        bool value = options[i].kind != CLI_FLAG;
        if (options[i].name)
            longs[nl++] = (struct option){options[i].name, value ? required_argument : no_argument, 0, OWN_CODE + (int)i};
        if (options[i].letter && ns + 3 < nshorts) {
            shorts[ns++] = options[i].letter;
            if (value)
                shorts[ns++] = ':';
        }
        assert(i < 64 && nl < MAX_OPTIONS / 2); /* 64: the bits of cli_parse's `given` */
    }
    shorts[ns] = 0;
    longs[nl++] = (struct option){"help", no_argument, 0, 'h'};
    nl += load_args_options(load_groups, longs + nl);
    longs[nl] = (struct option){0, 0, 0, 0};
}

static_assert(sizeof(size_t) == sizeof(uint64_t), "CLI_COUNT stores a size_t as a uint64_t");

/* Stores value in the option's target; returns false after the error. */
static bool apply(const char *cmd, const struct cli_option *o, bool typed_long, bool again, const char *value)
{
    char shown[64];
    if (typed_long || !o->letter)
        snprintf(shown, sizeof shown, "--%s", o->name);
    else
        snprintf(shown, sizeof shown, "-%c", o->letter);
    if (again && o->once) { /* tests/cli/events_errors.sh holds this line to the letter, without the "see" */
        fprintf(stderr, "spoor %.*s: %s given twice\n", (int)strcspn(cmd, " "), cmd, shown);
        return false;
    }
    bool ok = true;
    switch (o->kind) {
    case CLI_FLAG: *(bool *)o->target = true; return true;
    case CLI_STRING: *(const char **)o->target = value; return true;
    case CLI_COUNT: {
        uint64_t v;
        ok = cli_count(value, o->hi >= (double)UINT64_MAX ? UINT64_MAX : (uint64_t)o->hi, &v) && (double)v >= o->lo;
        if (ok && o->size == sizeof(int))
            *(int *)o->target = (int)v;
        else if (ok)
            *(uint64_t *)o->target = v; /* size_t is uint64_t's size here */
        break;
    }
    case CLI_REAL: ok = cli_real(value, o->lo, o->hi, (double *)o->target); break;
    case CLI_WORD: {
        int k = 0;
        while (o->words[k] && strcmp(o->words[k], value))
            k++;
        ok = o->words[k] != NULL;
        if (ok)
            *(int *)o->target = k;
        break;
    }
    case CLI_LIST: {
        struct cli_list *list = o->target;
        if (list->n == list->max) {
            cli_usage_error(cmd, "at most %zu %s", list->max, shown);
            return false;
        }
        list->item[list->n++] = value;
        return true;
    }
    case CLI_CALL:
        ok = o->call(o->target, value);
        if (!ok && !o->problem)
            return false;
        break;
    }
    if (!ok)
        cli_usage_error(cmd, "%s '%s': %s", shown, value, o->problem);
    return ok;
}

int cli_parse(const char *cmd, const char *help, const struct cli_option *options, struct spoor_load_opts *load,
              unsigned load_groups, int argc, char **argv)
{
    struct option longs[MAX_OPTIONS];
    char shorts[32];
    build_tables(options, load ? load_groups : 0, longs, shorts, sizeof shorts);
    optind = 1;
    uint64_t given = 0; /* bit i: row i was given */
    for (;;) {
        int index = -1;
        int c = next_option(cmd, argc, argv, shorts, longs, &index);
        if (c == -1)
            return -1;
        if (c == '?')
            return 2;
        if (c == 'h') {
            fputs(help, stdout);
            return 0;
        }
        size_t row = 0;
        if (c >= OWN_CODE)
            row = (size_t)(c - OWN_CODE);
        else
            while ((options[row].name || options[row].letter) && options[row].letter != c)
                row++;
        if (options[row].name || options[row].letter) {
            uint64_t bit = 1ull << row;
            if (!apply(cmd, &options[row], index >= 0 && c >= OWN_CODE, given & bit, optarg))
                return 2;
            given |= bit;
        } else if (load_args_handle(load, c, optarg, cmd) <= 0) {
            return 2;
        }
    }
}

bool cli_format_choose(const char *cmd, const char *arg, const enum spoor_output_format *allowed, size_t n,
                       enum spoor_output_format *format)
{
    if (spoor_format_parse(arg, allowed, n, format))
        return true;
    fprintf(stderr, "spoor %s: --format '%s': expected ", cmd, arg);
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, "%s%s", i == 0 ? "" : i + 1 < n ? ", " : " or ", spoor_format_name(allowed[i]));
    fputc('\n', stderr);
    return false;
}

bool cli_output_fits(const char *cmd, enum spoor_output_format format, const char *output)
{
    if (format != SPOOR_FORMAT_HTML || (output && strcmp(output, "-")) || !isatty(STDOUT_FILENO))
        return true;
    fprintf(stderr, "spoor %s: --format html writes a page, not text for a terminal: give -o FILE.html or redirect\n",
            cmd);
    return false;
}

bool cli_format_parse(void *format, const char *value)
{
    struct cli_format *f = format;
    return cli_format_choose(f->cmd, value, f->allowed, f->n, &f->value);
}

bool cli_unit_parse(void *unit, const char *value)
{
    enum spoor_unit *u = unit;
    *u = spoor_unit_parse(value);
    return *u != SPOOR_UNIT_AUTO;
}

int cli_exit_code(int st)
{
    return st == SPOOR_OK ? 0 : st == SPOOR_EUSAGE ? 2 : 1;
}

char **cli_split_commas(const char *s, size_t *n)
{
    char *copy = spoor_xstrdup(s), *save = NULL;
    char **v = spoor_xcalloc(strlen(s) + 2, sizeof *v);
    *n = 0;
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
        v[(*n)++] = spoor_xstrdup(t);
    free(copy);
    return v;
}

void cli_split_free(char **v)
{
    for (size_t i = 0; v && v[i]; i++)
        free(v[i]);
    free(v);
}
