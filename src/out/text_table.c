#include "spoor/report.h"
#include "spoor/error.h"
#include "out/format_g.h"
#include "util/parallel.h"

#include <stdlib.h>
#include <string.h>

/* Cells and gaps of up to SHORT bytes are laid out with one fixed 16-byte copy
 * (two instructions, where memcpy is a call): the text block and the line
 * buffer keep that much room past their ends for it. */
enum { SHORT = 16 };

/* Cells are kept back to back in one text block, each ending where the next
 * begins: one allocation for a table, not one per cell. The arrays come from
 * malloc, not huge pages (util/huge_array.h): they are written once, in
 * order, so huge pages save no TLB misses, and each fresh 2 MiB page is
 * zeroed whole by the kernel at first touch, which cost a resample table's
 * output more than its formatting (see docs/perf-notes.md, "Series profiles"). */
struct spoor_text_table {
    size_t ncols;
    size_t *end;        /* per cell, row-major, headers first: its end in text */
    size_t ncells, cap;
    char *text;
    size_t used, room;  /* room >= used + SHORT */
    bool *right;
    size_t *fixed;      /* streaming: the widths print_head measured, else NULL */
    char *line_buf;     /* streaming: where flush lays rows out */
    size_t line_cap;
};

static size_t cell_start(const struct spoor_text_table *t, size_t i) { return i ? t->end[i - 1] : 0; }

void spoor_text_table_reserve(struct spoor_text_table *t, size_t cells, size_t bytes)
{
    if (t->ncells + cells > t->cap) {
        t->end = spoor_xrealloc(t->end, (t->ncells + cells) * sizeof *t->end);
        t->cap = t->ncells + cells;
    }
    if (t->used + bytes + SHORT > t->room) {
        t->text = spoor_xrealloc(t->text, t->used + bytes + SHORT);
        t->room = t->used + bytes + SHORT;
    }
}

/* Room for one more cell of up to n bytes, at t->text + t->used. */
static void room_for(struct spoor_text_table *t, size_t n)
{
    if (t->ncells == t->cap || t->used + n + SHORT > t->room)
        spoor_text_table_reserve(t, t->ncells + 64, t->used + n + 64);
}

/* Ends the cell whose n bytes were written at t->text + t->used. */
static void close_cell(struct spoor_text_table *t, size_t n)
{
    t->used += n;
    t->end[t->ncells++] = t->used;
}

static void push(struct spoor_text_table *t, const char *cell, size_t n)
{
    room_for(t, n);
    memcpy(t->text + t->used, cell, n);
    close_cell(t, n);
}

struct spoor_text_table *spoor_text_table_new(size_t ncols, const char *const *headers,
                                              const bool *right_align)
{
    struct spoor_text_table *t = spoor_xcalloc(1, sizeof *t);
    t->ncols = ncols;
    t->right = spoor_xcalloc(ncols, sizeof *t->right);
    for (size_t i = 0; i < ncols; i++) {
        push(t, headers[i], strlen(headers[i]));
        t->right[i] = right_align && right_align[i];
    }
    return t;
}

void spoor_text_table_text(struct spoor_text_table *t, const char *text) { push(t, text, strlen(text)); }

void spoor_text_table_textn(struct spoor_text_table *t, const char *text, size_t len) { push(t, text, len); }

void spoor_text_table_g6(struct spoor_text_table *t, double v)
{
    room_for(t, 32);
    close_cell(t, spoor_format_g6(t->text + t->used, 32, v));
}

void spoor_text_table_u64(struct spoor_text_table *t, unsigned long long n)
{
    room_for(t, 20);
    close_cell(t, spoor_format_u64(t->text + t->used, n));
}

/* n bytes of src at p, which has SHORT bytes of room past them (and src too).
 * The short case is a copy of constant size, so the compiler inlines it. */
static char *put_text(char *p, const char *src, size_t n)
{
    if (n <= SHORT)
        memcpy(p, src, SHORT);
    else
        memcpy(p, src, n);
    return p + n;
}

static char *put_spaces(char *p, size_t n)
{
    if (n <= SHORT)
        memset(p, ' ', SHORT);
    else
        memset(p, ' ', n);
    return p + n;
}

/* Lays out cells [from, to) in buf (cap bytes) with the column widths; line
 * is the longest a line can be. With out, buf is written there whenever it
 * cannot hold one more line: a table can have hundreds of thousands of cells,
 * too many for stdio calls (and locks) each; without, buf holds them all.
 * Returns the end of what buf holds. */
static char *lay_out(const struct spoor_text_table *t, const size_t *width, size_t line, size_t from, size_t to,
                     char *buf, size_t cap, FILE *out)
{
    char *p = buf;
    for (size_t i = from, c = 0; i < to; i++, c = c + 1 == t->ncols ? 0 : c + 1) {
        size_t at = cell_start(t, i), n = t->end[i] - at, gap = n < width[c] ? width[c] - n : 0;
        bool last = c == t->ncols - 1 || i == t->ncells - 1;
        if (t->right[c])
            p = put_spaces(p, gap);
        p = put_text(p, t->text + at, n);
        if (last) {
            *p++ = '\n';
            if (out && cap - (size_t)(p - buf) < line) {
                fwrite(buf, 1, (size_t)(p - buf), out);
                p = buf;
            }
            continue;
        }
        if (!t->right[c])
            p = put_spaces(p, gap);
        *p++ = ' ';
        *p++ = ' ';
    }
    return p;
}

struct print_job {
    const struct spoor_text_table *const *parts;
    size_t nparts, ncols;
    size_t *widths;         /* [part * ncols + column] */
    size_t line;            /* the longest a line can be, and room for a short copy */
    FILE *out;
    char **laid;            /* [part > 0]: its lines, written after the first part's */
    size_t *laid_len, *laid_cap;
};

static void part_widths(void *ctx, size_t k, int worker)
{
    (void)worker;
    const struct print_job *j = ctx;
    const struct spoor_text_table *t = j->parts[k];
    size_t *width = j->widths + k * j->ncols;
    for (size_t i = 0, c = 0; i < t->ncells; i++, c = c + 1 == t->ncols ? 0 : c + 1)
        if (t->end[i] - cell_start(t, i) > width[c])
            width[c] = t->end[i] - cell_start(t, i);
}

/* Part k: the first written as it is laid out, the others (headers left out)
 * kept; the widths are the first part's, which by then hold every part's. */
static void print_part(void *ctx, size_t k, int worker)
{
    (void)worker;
    const struct print_job *j = ctx;
    const struct spoor_text_table *t = j->parts[k];
    if (k == 0) {
        size_t cap = j->line > 65536 ? j->line : 65536;
        char *buf = spoor_xmalloc(cap);
        fwrite(buf, 1, (size_t)(lay_out(t, j->widths, j->line, 0, t->ncells, buf, cap, j->out) - buf), j->out);
        free(buf);
        return;
    }
    j->laid_cap[k] = (t->ncells / t->ncols + 1) * j->line;
    j->laid[k] = spoor_xmalloc(j->laid_cap[k]);
    char *end = lay_out(t, j->widths, j->line, t->ncols, t->ncells, j->laid[k], j->laid_cap[k], NULL);
    j->laid_len[k] = (size_t)(end - j->laid[k]);
}

void spoor_text_table_print_parts(const struct spoor_text_table *const *parts, size_t nparts, FILE *out, int threads)
{
    size_t ncols = parts[0]->ncols;
    if (!ncols)
        return;
    struct print_job j = {parts, nparts, ncols, spoor_xcalloc(nparts * ncols, sizeof *j.widths), 1 + SHORT, out,
                          spoor_xcalloc(nparts, sizeof *j.laid), spoor_xcalloc(nparts, sizeof *j.laid_len),
                          spoor_xcalloc(nparts, sizeof *j.laid_cap)};
    spoor_parallel_for(nparts, threads, part_widths, &j);
    for (size_t k = 1; k < nparts; k++)
        for (size_t c = 0; c < ncols; c++)
            if (j.widths[k * ncols + c] > j.widths[c])
                j.widths[c] = j.widths[k * ncols + c];
    for (size_t c = 0; c < ncols; c++)
        j.line += j.widths[c] + 2;
    spoor_parallel_for(nparts, threads, print_part, &j);
    for (size_t k = 1; k < nparts; k++) {
        fwrite(j.laid[k], 1, j.laid_len[k], out);
        free(j.laid[k]);
    }
    free(j.widths);
    free(j.laid);
    free(j.laid_len);
    free(j.laid_cap);
}

void spoor_text_table_print(const struct spoor_text_table *t, FILE *out) { spoor_text_table_print_parts(&t, 1, out, 1); }

/* Forgets the cells (headers included) once printed; the widths stay. */
static void drop_cells(struct spoor_text_table *t)
{
    t->ncells = 0;
    t->used = 0;
}

void spoor_text_table_print_head(struct spoor_text_table *t, FILE *out)
{
    t->fixed = spoor_xcalloc(t->ncols ? t->ncols : 1, sizeof *t->fixed);
    struct print_job j = {.parts = (const struct spoor_text_table *const *)&t, .ncols = t->ncols,
                          .widths = t->fixed};
    part_widths(&j, 0, 0);
    spoor_text_table_print(t, out);
    drop_cells(t);
}

void spoor_text_table_flush(struct spoor_text_table *t, FILE *out)
{
    if (!t->ncells || !t->ncols)
        return;
    /* The longest line: the widths, plus what cells wider than theirs add. */
    size_t base = 1 + SHORT, line = 0, extra = 0;
    for (size_t c = 0; c < t->ncols; c++)
        base += t->fixed[c] + 2;
    for (size_t i = 0, c = 0; i < t->ncells; i++, c = c + 1 == t->ncols ? 0 : c + 1) {
        size_t n = t->end[i] - cell_start(t, i);
        extra += n > t->fixed[c] ? n - t->fixed[c] : 0;
        if (c + 1 == t->ncols) {
            line = base + extra > line ? base + extra : line;
            extra = 0;
        }
    }
    line = base + extra > line ? base + extra : line;
    if (t->line_cap < line || t->line_cap < 65536) {
        t->line_cap = line > 65536 ? line : 65536;
        t->line_buf = spoor_xrealloc(t->line_buf, t->line_cap);
    }
    char *end = lay_out(t, t->fixed, line, 0, t->ncells, t->line_buf, t->line_cap, out);
    fwrite(t->line_buf, 1, (size_t)(end - t->line_buf), out);
    drop_cells(t);
}

void spoor_text_table_free(struct spoor_text_table *t)
{
    free(t->fixed);
    free(t->line_buf);
    free(t->end);
    free(t->text);
    free(t->right);
    free(t);
}
