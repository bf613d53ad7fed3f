/* The sections `spoor series` prints, each a small sheet of cells (text or
 * number) that renders as an aligned text table, CSV or JSON, so every
 * section comes out the same way in every format. Numbers are formatted
 * once, for the format chosen (in CSV and JSON the shortest of 15 to 17
 * significant digits that reads back to the same double; 6 in text tables). */
#ifndef SPOOR_SERIES_SHEET_H
#define SPOOR_SERIES_SHEET_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum sheet_cell { SHEET_TEXT, SHEET_NAME, SHEET_TIME, SHEET_NUMBER, SHEET_COUNT };

/* A cell's value: no allocation per cell, as a resample sheet has ~700 K. */
union sheet_value {
    double number;          /* NaN = empty */
    unsigned long long count;
    size_t text;            /* offset of its text (NUL-terminated) in the sheet's text block */
    const char *name;       /* text that outlives the sheet */
    int64_t time;           /* UTC ns */
};

struct sheet {
    const char *key;        /* JSON key and CSV section name, e.g. "by_hour" */
    char *title;            /* one line above the text table */
    size_t ncols, nrows;
    char **headers;
    union sheet_value *values; /* nrows * ncols */
    unsigned char *kinds;   /* per cell: enum sheet_cell (numbers and counts right-aligned, unquoted in JSON) */
    char *text;             /* the text cells back to back */
    size_t text_used, text_room;
    size_t cap, pending;    /* cells allocated; cells of the unfinished row */
    int64_t time_offset_ns; /* time cells are spelled as seen at this offset from UTC */
};

struct sheet *sheet_new(const char *key, size_t ncols, const char *title_fmt, ...) __attribute__((format(printf, 3, 4)));
void sheet_free(struct sheet *s);
/* Room for `rows` more rows, for a sheet that knows its size. */
void sheet_reserve(struct sheet *s, size_t rows);
/* Names column c. */
void sheet_header(struct sheet *s, size_t c, const char *name);
/* Appends cells row by row: text, a number (NaN = empty), a count. */
void sheet_text(struct sheet *s, const char *text);
/* Text that outlives the sheet (e.g. the series' group names): kept by
 * pointer, not copied. */
void sheet_name(struct sheet *s, const char *name);
/* A time, spelled ISO-8601 as seen at the sheet's offset ("Z" at UTC) when
 * written: on the threads that format a large table. */
void sheet_time(struct sheet *s, int64_t utc_ns);
void sheet_number(struct sheet *s, double v);
void sheet_count(struct sheet *s, unsigned long long n);

enum sheet_format { SHEET_TABLE, SHEET_CSV, SHEET_JSON };

/* Writes the sheets; CSV with more than one sheet puts "# key" before each and
 * a blank line between them. JSON: one object, one array of row objects per
 * key, after the members `head` has already written (e.g. "\"rows\": 5").
 * A text table of many rows is formatted on up to `threads` threads (the
 * bytes do not depend on them). */
void sheets_write(FILE *out, struct sheet *const *sheets, size_t n, enum sheet_format format, const char *head,
                  int threads);

#endif
