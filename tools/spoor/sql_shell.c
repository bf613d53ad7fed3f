/* spoor sql's shell: libedit's readline with history in
 * ~/.spoor_sql_history; a statement runs once sqlite3_complete() says it is
 * whole (ends with ';'), so it may span lines. Dot commands: .tables,
 * .schema [TABLE], .help, .quit. */
#include "sql_shell.h"

#include <editline/readline.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char shell_help[] =
    ".tables          the tables\n"
    ".schema [TABLE]  their columns\n"
    ".quit            leave (or end of input)\n"
    "Anything else is SQL, run when it ends with ';'.\n";

void sql_print_error(const char *query, const struct spoor_sql_run *run, const struct spoor_error *err)
{
    fprintf(stderr, "spoor sql: %s\n", err->msg);
    spoor_sql_print_caret(stderr, query, run->error_offset);
}

static void print_schema(struct spoor_sql *s, const char *table)
{
    const char *const *names = spoor_sql_table_names();
    for (size_t i = 0; names[i]; i++)
        if (!*table || !strcmp(table, names[i]))
            printf("%s;\n", spoor_sql_schema(s, names[i]));
    if (*table && !spoor_sql_schema(s, table))
        fprintf(stderr, "spoor sql: no table '%s'; see .tables\n", table);
}

/* Returns false on .quit. */
static bool dot_command(struct spoor_sql *s, char *line)
{
    char *cmd = strtok(line, " \t");
    char *arg = strtok(NULL, " \t");
    if (!strcmp(cmd, ".quit") || !strcmp(cmd, ".exit"))
        return false;
    if (!strcmp(cmd, ".tables")) {
        for (const char *const *n = spoor_sql_table_names(); *n; n++)
            printf("%s%s", *n, n[1] ? "  " : "\n");
    } else if (!strcmp(cmd, ".schema")) {
        print_schema(s, arg ? arg : "");
    } else if (!strcmp(cmd, ".help")) {
        fputs(shell_help, stdout);
    } else {
        fprintf(stderr, "spoor sql: unknown command '%s'; try .help\n", cmd);
    }
    return true;
}

static char *history_path(void)
{
    const char *home = getenv("HOME");
    if (!home)
        return NULL;
    char *path = spoor_xmalloc(strlen(home) + 32);
    sprintf(path, "%s/.spoor_sql_history", home);
    return path;
}

static void append(char **buf, size_t *len, const char *line)
{
    size_t n = strlen(line);
    *buf = spoor_xrealloc(*buf, *len + n + 2);
    memcpy(*buf + *len, line, n);
    *len += n;
    (*buf)[(*len)++] = '\n';
    (*buf)[*len] = '\0';
}

int sql_shell_run(struct spoor_sql *s, struct spoor_sql_run *run)
{
    char *history = history_path();
    if (history)
        read_history(history);
    printf("spoor sql: .tables lists the tables, .help the commands; end statements with ';'\n");
    char *buf = NULL;
    size_t len = 0;
    for (;;) {
        char *line = readline(len ? "   ...> " : "spoor> ");
        if (!line)
            break;
        if (!len && line[0] == '.') {
            add_history(line);
            bool go_on = dot_command(s, line);
            free(line);
            if (!go_on)
                break;
            continue;
        }
        append(&buf, &len, line);
        free(line);
        if (!sqlite3_complete(buf))
            continue;
        buf[len - 1] = '\0'; /* the history entry without its last newline */
        add_history(buf);
        struct spoor_error err = {0};
        run->out = stdout;
        if (spoor_sql_exec(s, buf, run, &err) != SPOOR_OK)
            sql_print_error(buf, run, &err);
        fflush(stdout);
        len = 0;
    }
    if (history)
        write_history(history);
    free(history);
    free(buf);
    return 0;
}
