#include "spoor/text_table.h"
#include "spoor/error.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Cells are kept back to back in one text block (offset and length each):
 * one allocation for a table, not one per cell. */
struct spoor_text_table {
    size_t ncols;
    size_t *at, *len;   /* per cell, row-major, headers first */
    size_t ncells, cap;
    char *text;
    size_t used, room;
    bool *right;
};

static void push(struct spoor_text_table *t, const char *cell)
{
    if (t->ncells == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 64;
        t->at = spoor_xrealloc(t->at, t->cap * sizeof *t->at);
        t->len = spoor_xrealloc(t->len, t->cap * sizeof *t->len);
    }
    size_t n = strlen(cell);
    if (t->used + n >= t->room) { /* >=: the block exists even when every cell is empty */
        t->room = (t->used + n) * 2 + 64;
        t->text = spoor_xrealloc(t->text, t->room);
    }
    memcpy(t->text + t->used, cell, n);
    t->at[t->ncells] = t->used;
    t->len[t->ncells++] = n;
    t->used += n;
}

struct spoor_text_table *spoor_text_table_new(size_t ncols, const char *const *headers,
                                              const bool *right_align)
{
    struct spoor_text_table *t = spoor_xcalloc(1, sizeof *t);
    t->ncols = ncols;
    t->right = spoor_xcalloc(ncols, sizeof *t->right);
    for (size_t i = 0; i < ncols; i++) {
        push(t, headers[i]);
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
        cell = NULL;
    va_end(ap);
    push(t, cell ? cell : "?");
    free(cell);
}

void spoor_text_table_text(struct spoor_text_table *t, const char *text) { push(t, text); }

/* A row of text being laid out, written with one fwrite: a table can have
 * hundreds of thousands of cells, too many for stdio calls (and locks) each. */
struct line {
    char *p;
    size_t n, cap;
};

static void line_put(struct line *l, const char *s, size_t n, size_t spaces_before, size_t spaces_after)
{
    size_t need = l->n + spaces_before + n + spaces_after;
    if (need >= l->cap) { /* >=: never a memcpy to a null buffer */
        l->cap = need * 2 + 64;
        l->p = spoor_xrealloc(l->p, l->cap);
    }
    memset(l->p + l->n, ' ', spaces_before);
    memcpy(l->p + l->n + spaces_before, s, n);
    memset(l->p + l->n + spaces_before + n, ' ', spaces_after);
    l->n = need;
}

void spoor_text_table_print(const struct spoor_text_table *t, FILE *out)
{
    size_t *width = spoor_xcalloc(t->ncols, sizeof *width);
    for (size_t i = 0; i < t->ncells; i++)
        if (t->len[i] > width[i % t->ncols])
            width[i % t->ncols] = t->len[i];
    struct line l = {0};
    for (size_t i = 0; i < t->ncells; i++) {
        size_t c = i % t->ncols;
        bool last = c == t->ncols - 1 || i == t->ncells - 1;
        size_t gap = width[c] - t->len[i];
        line_put(&l, t->text + t->at[i], t->len[i], t->right[c] ? gap : 0, t->right[c] || last ? 0 : gap);
        line_put(&l, last ? "\n" : "  ", last ? 1 : 2, 0, 0);
        if (last) {
            fwrite(l.p, 1, l.n, out);
            l.n = 0;
        }
    }
    free(l.p);
    free(width);
}

void spoor_text_table_free(struct spoor_text_table *t)
{
    free(t->at);
    free(t->len);
    free(t->text);
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
