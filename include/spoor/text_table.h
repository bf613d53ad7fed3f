/* Aligned plain-text tables for terminal output: cells are collected, column
 * widths measured, then printed with numbers right-aligned. */
#ifndef SPOOR_TEXT_TABLE_H
#define SPOOR_TEXT_TABLE_H

#include <stdbool.h>
#include <stdio.h>

struct spoor_text_table;

struct spoor_text_table *spoor_text_table_new(size_t ncols, const char *const *headers,
                                              const bool *right_align);
/* Adds a cell to the current row; a row is complete after ncols cells. */
void spoor_text_table_cell(struct spoor_text_table *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Adds a cell holding text as it is: no format to read, for tables of many cells. */
void spoor_text_table_text(struct spoor_text_table *t, const char *text);
void spoor_text_table_print(const struct spoor_text_table *t, FILE *out);
void spoor_text_table_free(struct spoor_text_table *t);

/* Formats n with thousands separators. */
const char *spoor_fmt_count(char *buf, size_t cap, unsigned long long n);
/* Formats a duration in ns with a human unit (ns, us, ms, s). */
const char *spoor_fmt_duration(char *buf, size_t cap, double ns);

#endif
