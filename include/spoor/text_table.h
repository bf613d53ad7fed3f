/* Aligned plain-text tables for terminal output: cells are collected, column
 * widths measured, then printed with numbers right-aligned; or, for tables
 * too long to hold, widths measured on the first rows and the rest streamed. */
#ifndef SPOOR_TEXT_TABLE_H
#define SPOOR_TEXT_TABLE_H

#include <stdbool.h>
#include <stdio.h>

/* Callers fill cells with counts and durations spelled by these. */
#include "spoor/fmt_human.h"

struct spoor_text_table;

struct spoor_text_table *spoor_text_table_new(size_t ncols, const char *const *headers,
                                              const bool *right_align);
/* Room for `cells` more cells holding `bytes` more bytes of text in all: a
 * caller that knows how large its table will be spares the copies of growing
 * it (an overestimate costs address space only, never touched). */
void spoor_text_table_reserve(struct spoor_text_table *t, size_t cells, size_t bytes);
/* Adds a cell to the current row; a row is complete after ncols cells. */
void spoor_text_table_cell(struct spoor_text_table *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Adds a cell holding text as it is: no format to read, for tables of many cells. */
void spoor_text_table_text(struct spoor_text_table *t, const char *text);
/* The same for the first len bytes of text, whose length the caller knows. */
void spoor_text_table_textn(struct spoor_text_table *t, const char *text, size_t len);
/* Adds a cell holding v as "%.6g" or n as "%llu", written straight into the
 * table (spoor_format_g6, spoor_format_u64): no buffer, no copy. */
void spoor_text_table_g6(struct spoor_text_table *t, double v);
void spoor_text_table_u64(struct spoor_text_table *t, unsigned long long n);
void spoor_text_table_print(const struct spoor_text_table *t, FILE *out);
/* Prints tables of as many columns as one: the first, then the rows of each
 * other (their headers left out), aligned together. A large table filled in
 * parts on several threads is measured and laid out there too, on up to
 * `threads` threads; the bytes do not depend on them. */
void spoor_text_table_print_parts(const struct spoor_text_table *const *parts, size_t nparts, FILE *out, int threads);
/* A table of any length in bounded memory: print_head prints the rows so
 * far (the headers and a sample) and keeps their column widths and
 * alignment; rows added after are printed by flush with them, and dropped.
 * A later cell wider than its column is printed whole, widening its own line
 * only: nothing is cut. Add only whole rows between flushes. */
void spoor_text_table_print_head(struct spoor_text_table *t, FILE *out);
void spoor_text_table_flush(struct spoor_text_table *t, FILE *out);
void spoor_text_table_free(struct spoor_text_table *t);

#endif
