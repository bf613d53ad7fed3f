#include "spoor/text_table.h"
#include "spoor/error.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct spoor_text_table {
    size_t ncols;
    char **cells;       /* row-major, headers first */
    size_t ncells, cap;
    bool *right;
};

static void push(struct spoor_text_table *t, char *cell)
{
    if (t->ncells == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 64;
        t->cells = spoor_xrealloc(t->cells, t->cap * sizeof *t->cells);
    }
    t->cells[t->ncells++] = cell;
}

struct spoor_text_table *spoor_text_table_new(size_t ncols, const char *const *headers,
                                              const bool *right_align)
{
    struct spoor_text_table *t = spoor_xcalloc(1, sizeof *t);
    t->ncols = ncols;
    t->right = spoor_xcalloc(ncols, sizeof *t->right);
    for (size_t i = 0; i < ncols; i++) {
        push(t, spoor_xstrdup(headers[i]));
        t->right[i] = right_align && right_align[i];
    }
    return t;
}

void spoor_text_table_cell(struct spoor_text_table *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *cell = NULL;
    if (vasprintf(&cell, fmt, ap) < 0)
        cell = spoor_xstrdup("?");
    va_end(ap);
    push(t, cell);
}

void spoor_text_table_text(struct spoor_text_table *t, const char *text) { push(t, spoor_xstrdup(text)); }

/* n spaces: fwrite of a run, cheaper than a printf width per cell. */
static void pad(FILE *out, size_t n)
{
    static const char spaces[] = "                                ";
    for (size_t k; n; n -= k) {
        k = n < sizeof spaces - 1 ? n : sizeof spaces - 1;
        fwrite(spaces, 1, k, out);
    }
}

void spoor_text_table_print(const struct spoor_text_table *t, FILE *out)
{
    size_t *width = spoor_xcalloc(t->ncols, sizeof *width);
    for (size_t i = 0; i < t->ncells; i++) {
        size_t w = strlen(t->cells[i]);
        if (w > width[i % t->ncols])
            width[i % t->ncols] = w;
    }
    for (size_t i = 0; i < t->ncells; i++) {
        size_t c = i % t->ncols;
        bool last = c == t->ncols - 1 || i == t->ncells - 1;
        size_t len = strlen(t->cells[i]);
        if (t->right[c])
            pad(out, width[c] - len);
        fwrite(t->cells[i], 1, len, out);
        if (!t->right[c] && !last)
            pad(out, width[c] - len);
        fputs(last ? "\n" : "  ", out);
    }
    free(width);
}

void spoor_text_table_free(struct spoor_text_table *t)
{
    for (size_t i = 0; i < t->ncells; i++)
        free(t->cells[i]);
    free(t->cells);
    free(t->right);
    free(t);
}

const char *spoor_fmt_count(char *buf, size_t cap, unsigned long long n)
{
    char digits[32];
    int len = snprintf(digits, sizeof digits, "%llu", n);
    size_t o = 0;
    for (int i = 0; i < len && o + 2 < cap; i++) {
        if (i && (len - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
    return buf;
}

const char *spoor_fmt_duration(char *buf, size_t cap, double ns)
{
    double a = ns < 0 ? -ns : ns;
    if (a < 1e3)
        snprintf(buf, cap, "%.0f ns", ns);
    else if (a < 1e6)
        snprintf(buf, cap, "%.2f us", ns / 1e3);
    else if (a < 1e9)
        snprintf(buf, cap, "%.2f ms", ns / 1e6);
    else
        snprintf(buf, cap, "%.3f s", ns / 1e9);
    return buf;
}
