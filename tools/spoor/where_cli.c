#include "where_cli.h"

#include <stdio.h>

bool where_compile(const char *cmd, const char *text, struct spoor_expr **out)
{
    *out = NULL;
    struct spoor_error err = {0};
    if (text && spoor_expr_compile(text, out, &err) != SPOOR_OK) {
        fprintf(stderr, "spoor %s: --where: %s\n", cmd, err.msg);
        return false;
    }
    return true;
}

void where_unknown_report(const char *cmd, const struct spoor_stream_load *l)
{
    for (size_t i = 0; i < l->nunknown; i++)
        fprintf(stderr,
                "spoor %s: warning: --where: unknown column '%s' at position %zu: no input has it, so it is null "
                "in every row\n",
                cmd, l->unknown[i]->name, l->unknown[i]->pos);
}
