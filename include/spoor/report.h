/* The report model: what every command prints, as data, and its renderers;
 * with human counts and durations (first) and aligned text tables (last).
 *
 * A report is a title and a list of sheets. A sheet is a grid of typed cells
 * (a text, a count, an integer, a float, a time, ...) under named columns;
 * each cell has a unit (ns, bytes, bytes/s, a share, ...) so that a renderer
 * knows how to spell it, and each column a hint for charts (the time axis,
 * a series to plot, a category to group by). A properties sheet holds
 * key-value lines (a trace's "events 1,234 (+ 5 metadata)").
 *
 * src/out renders a report as an aligned text table, CSV, JSON, JSON lines
 * or a self-contained HTML page of charts (report_table.c, report_csv.c,
 * report_json.c, report_html.c); a renderer never needs to know which command
 * built the report. A sheet can be meant for some formats
 * only (`formats`): where the reader of a table wants "36.40 ms (first ts
 * ...)" and a program wants the numbers apart, the command builds both.
 *
 * Cells cost no allocation each (a value, a type byte, a unit byte and a
 * digits byte; texts back to back in one block), so a sheet of millions of
 * cells is cheap; large sheets are formatted on several threads. */
#ifndef SPOOR_REPORT_H
#define SPOOR_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "spoor/error.h"

/* Counts and durations as people read them, for tables and messages. */
/* Formats n with thousands separators. */
SPOOR_API const char *spoor_fmt_count(char *buf, size_t cap, unsigned long long n);
/* Formats a duration in ns with a human unit (ns, us, ms, s). */
SPOOR_API const char *spoor_fmt_duration(char *buf, size_t cap, double ns);
/* Reads a duration as people write it, the one parser of every option that
 * takes one: a positive decimal number and a unit, ns, us (or µs), ms, s, min
 * (or m), h or d ("2.5s", "250ms", "1.5h", "10us"), the whole text. Exact:
 * 2.5s is 2,500,000,000 ns; digits finer than 1 ns are rounded to the nearest
 * ns. Returns NULL and sets *ns, or what is wrong (no number, no unit or an
 * unknown one, a value past INT64_MAX ns or one that rounds to 0 ns). */
SPOOR_API const char *spoor_parse_duration(const char *s, int64_t *ns);

/* ---- formats ---- */

enum spoor_output_format { SPOOR_FORMAT_TABLE, SPOOR_FORMAT_CSV, SPOOR_FORMAT_JSON, SPOOR_FORMAT_JSONL, SPOOR_FORMAT_HTML };
#define SPOOR_FORMAT_BIT(f) (1u << (f))
#define SPOOR_FORMATS_ALL 0xfu

/* The one --format parser: the format named arg among the n `allowed`;
 * false when it is none of them (the CLI names them in its error). */
SPOOR_API bool spoor_format_parse(const char *arg, const enum spoor_output_format *allowed, size_t n,
                                  enum spoor_output_format *format);
SPOOR_API const char *spoor_format_name(enum spoor_output_format f);
/* What most commands offer: table (the default), json or csv. */
SPOOR_API extern const enum spoor_output_format spoor_report_formats[3];
/* The same and html: the commands whose reports have charts. */
SPOOR_API extern const enum spoor_output_format spoor_chart_formats[4];

/* ---- cells ---- */

enum spoor_cell_type {
    SPOOR_CELL_ABSENT, /* not there: left out of a JSON object, empty in CSV and in a table */
    SPOOR_CELL_NULL,   /* known to be unknown: null in JSON, empty in CSV, "-" in a table */
    SPOOR_CELL_TEXT,   /* copied into the sheet */
    SPOOR_CELL_NAME,   /* text kept by pointer: it outlives the report */
    SPOOR_CELL_TIME,   /* UTC ns, spelled ISO-8601 at the sheet's offset */
    SPOOR_CELL_INT,    /* int64 */
    SPOOR_CELL_COUNT,  /* uint64 */
    SPOOR_CELL_FLOAT,  /* double; not finite = null */
    SPOOR_CELL_BOOL,
    SPOOR_CELL_SHEET,  /* a sheet inside a cell: properties as one JSON object (e.g.
                        * counts per reason), rows as an array of objects, a list as
                        * an array of values, all on one line */
};

/* What a number measures. It decides the spelling in a table (CSV and JSON
 * spell numbers plainly): */
enum spoor_cell_unit {
    SPOOR_CU_NONE,       /* integers as they are, floats "%.6g" */
    SPOOR_CU_COUNT,      /* "1,234" */
    SPOOR_CU_BYTES,      /* "1,234" */
    SPOOR_CU_NS,         /* a duration: "12 ns", "1.50 us", "2.25 ms", "3.000 s" */
    SPOOR_CU_PER_S,      /* a rate of events: "%.0f" */
    SPOOR_CU_MIB_PER_S,  /* a bandwidth in MiB/s: "%.1f" */
    SPOOR_CU_BYTES_PER_S,/* a bandwidth in bytes/s: "%.6g" */
    SPOOR_CU_RATIO,      /* a ratio such as max/mean: "%.2f" */
    SPOOR_CU_SHARE,      /* a fraction of a whole: "%.1f%%" of 100 times it */
    SPOOR_CU_CHANGE,     /* a relative change: "%+.1f%%" of 100 times it */
};

/* How a float is spelled: digits >= 0 after the point ("%.3f"), or
 * SPOOR_DIGITS_SIG(n) significant ones ("%.6g"), in every format; or
 * SPOOR_DIGITS_SHORTEST: in CSV and JSON the shortest of 15 to 17 significant
 * digits that reads back the same, in a table as its unit says. */
#define SPOOR_DIGITS_SHORTEST (-1)
#define SPOOR_DIGITS_SIG(n) (-1 - (n))

/* What a column is to a chart (the HTML renderer's choice, web/report.js):
 * pivot columns: a heatmap; stacked series: stacked bars; a time axis and
 * series: lines; two categories and series: a heatmap per series; a category
 * and series: bars; box columns: box plots. A sheet meant for HTML only (SPOOR_FORMAT_BIT of
 * SPOOR_FORMAT_HTML) can hold what a chart wants in the shape it wants. */
enum spoor_col_hint {
    SPOOR_HINT_NONE,
    SPOOR_HINT_TIME,     /* the x axis of a time line */
    SPOOR_HINT_SERIES,   /* a value to plot (bar, line, heatmap cell) */
    SPOOR_HINT_CATEGORY, /* a label rows group by (a bar's name, a heatmap's row) */
    SPOOR_HINT_STACKED,  /* a series stacked on the other stacked ones (parts of a whole) */
    SPOOR_HINT_PIVOT,    /* one value of a category spread over columns (a weekday, a
                          * predicted class, a metric of a correlation matrix): the pivot
                          * columns are a heatmap's x axis, the category its y axis (with
                          * two categories, a heatmap per value of the first) */
    SPOOR_HINT_TIMELINE, /* part of a zoomable timeline, read whole by its view (the
                          * timeline_* sheets of spoor report; src/analyze/timeline.h) */
    SPOOR_HINT_BOX,      /* a box plot's five numbers in a list cell (lower whisker, p25,
                          * median, p75, upper whisker): the box columns side by side
                          * (two runs) along the first category, a chart per value of
                          * a second */
};

/* ---- the model ---- */

enum spoor_sheet_kind {
    SPOOR_SHEET_ROWS,  /* rows of cells under headers */
    SPOOR_SHEET_PROPS, /* lines of key, value and an optional note for a table */
    SPOOR_SHEET_LIST,  /* values only, in a cell: a JSON array ["a", 2] */
};

struct spoor_sheet;
struct spoor_report;

SPOOR_API struct spoor_report *spoor_report_new(const char *title);
SPOOR_API void spoor_report_free(struct spoor_report *r);

/* A sheet of ncols columns appended to the report, shown in `formats`
 * (SPOOR_FORMAT_BIT of each; SPOOR_FORMATS_ALL). key names it in JSON (its
 * member) and in CSV with several sheets ("# key"). */
SPOOR_API struct spoor_sheet *spoor_report_rows(struct spoor_report *r, const char *key, size_t ncols,
                                                unsigned formats);
/* A column as a table of them declares it; hint SPOOR_HINT_NONE there is
 * taken from the unit: a category without one, a series with one. */
struct spoor_sheet_col {
    const char *name;
    enum spoor_cell_unit unit;
    int digits;
    enum spoor_col_hint hint;
};
/* A rows sheet of these n columns. */
SPOOR_API struct spoor_sheet *spoor_report_table(struct spoor_report *r, const char *key, unsigned formats,
                                                 const struct spoor_sheet_col *cols, size_t n);
/* A rows sheet of nrows rows not held but made when rendered, a block at a
 * time: fill(ctx, s, row) adds the cells of one row to s (whose columns are
 * the source sheet's). For results of millions of rows (attribute's one row
 * per call): no copy of them, and memory for a few blocks only. fill runs on
 * up to the renderer's threads at once, each on rows of its own. Set its columns
 * with spoor_sheet_column; the cell readers below see no rows of it. */
typedef void spoor_sheet_fill_fn(void *ctx, struct spoor_sheet *s, size_t row);
SPOOR_API struct spoor_sheet *spoor_report_rows_source(struct spoor_report *r, const char *key, size_t ncols,
                                                       unsigned formats, size_t nrows, spoor_sheet_fill_fn *fill,
                                                       void *ctx);
/* A properties sheet; key NULL: in JSON its lines are members of the report's
 * object, else one object member `key`. */
SPOOR_API struct spoor_sheet *spoor_report_props(struct spoor_report *r, const char *key, unsigned formats);
/* Sheets owned by no report, for a SPOOR_CELL_SHEET cell (which then owns
 * them): properties, rows of ncols, a list of values of a unit and digits. */
SPOOR_API struct spoor_sheet *spoor_sheet_props_new(void);
SPOOR_API struct spoor_sheet *spoor_sheet_rows_new(size_t ncols);
SPOOR_API struct spoor_sheet *spoor_sheet_list_new(enum spoor_cell_unit unit, int digits);

/* The line a table prints above the sheet, and one it prints below. A rows
 * sheet of no columns is its title alone: a line of text in a table (and
 * nothing in CSV or JSON, so show it in tables only). */
SPOOR_API void spoor_sheet_title(struct spoor_sheet *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
SPOOR_API void spoor_sheet_footer(struct spoor_sheet *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Column c: its header, the unit and float digits its cells take, its hint. */
SPOOR_API void spoor_sheet_column(struct spoor_sheet *s, size_t c, const char *name, enum spoor_cell_unit unit,
                                  int digits, enum spoor_col_hint hint);
/* Time cells are spelled as seen at this offset from UTC ("Z" at 0). */
SPOOR_API void spoor_sheet_time_offset(struct spoor_sheet *s, int64_t offset_ns);
/* Room for `rows` more rows, for a sheet that knows its size. */
SPOOR_API void spoor_sheet_reserve(struct spoor_sheet *s, size_t rows);

/* Cells, row by row (a row is complete after ncols of them). In a properties
 * sheet each line is spoor_sheet_prop, one value cell, and optionally a note. */
SPOOR_API void spoor_sheet_text(struct spoor_sheet *s, const char *text);
SPOOR_API void spoor_sheet_textf(struct spoor_sheet *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
SPOOR_API void spoor_sheet_name(struct spoor_sheet *s, const char *name);
SPOOR_API void spoor_sheet_time(struct spoor_sheet *s, int64_t utc_ns);
SPOOR_API void spoor_sheet_int(struct spoor_sheet *s, int64_t v);
/* n integers at once, null where v[i] == null_value (e.g. SPOOR_NULL): wide
 * rows of numbers (a column per kernel function) without a call per cell. */
SPOOR_API void spoor_sheet_ints(struct spoor_sheet *s, const int64_t *v, size_t n, int64_t null_value);
/* One integer, null when it is null_value. */
SPOOR_API void spoor_sheet_int_or_null(struct spoor_sheet *s, int64_t v, int64_t null_value);
SPOOR_API void spoor_sheet_count(struct spoor_sheet *s, uint64_t n);
SPOOR_API void spoor_sheet_float(struct spoor_sheet *s, double v);
SPOOR_API void spoor_sheet_bool(struct spoor_sheet *s, bool v);
SPOOR_API void spoor_sheet_null(struct spoor_sheet *s);
SPOOR_API void spoor_sheet_absent(struct spoor_sheet *s);
SPOOR_API void spoor_sheet_sheet(struct spoor_sheet *s, struct spoor_sheet *props);

/* A property: its key, then the unit and digits of the value cell that follows. */
SPOOR_API void spoor_sheet_prop(struct spoor_sheet *s, const char *key, enum spoor_cell_unit unit, int digits);
/* What a table prints after the value, in parentheses. */
SPOOR_API void spoor_sheet_note(struct spoor_sheet *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- reading it back (for renderers and bindings) ---- */

SPOOR_API size_t spoor_report_nsheets(const struct spoor_report *r);
SPOOR_API const struct spoor_sheet *spoor_report_sheet(const struct spoor_report *r, size_t i);
SPOOR_API enum spoor_sheet_kind spoor_sheet_kind(const struct spoor_sheet *s);
SPOOR_API size_t spoor_sheet_ncols(const struct spoor_sheet *s);
SPOOR_API size_t spoor_sheet_nrows(const struct spoor_sheet *s);
SPOOR_API enum spoor_cell_type spoor_sheet_cell_type(const struct spoor_sheet *s, size_t row, size_t col);
SPOOR_API enum spoor_cell_unit spoor_sheet_cell_unit(const struct spoor_sheet *s, size_t row, size_t col);
SPOOR_API const char *spoor_sheet_header(const struct spoor_sheet *s, size_t col);
SPOOR_API enum spoor_col_hint spoor_sheet_hint(const struct spoor_sheet *s, size_t col);

/* ---- rendering ---- */

/* Writes the sheets shown in `format`, in order. Table: the sheets one after
 * another, a blank line between, each under its title. CSV: one sheet plainly;
 * several, each after a line "# key", blank-line separated. JSON: one object,
 * each sheet a member (an array of row objects, or a properties object, or
 * the properties as members). JSON lines: each row object on a line. HTML:
 * one page, no network needed, with the sheets shown in JSON or HTML as
 * charts and tables, their cells spelled as in JSON (a large sheet sampled). A large
 * sheet is formatted on up to `threads` threads (the bytes never depend on
 * them). Returns SPOOR_EIO (err set) when writing fails, else SPOOR_OK. */
SPOOR_API int spoor_report_write(FILE *out, const struct spoor_report *r, enum spoor_output_format format, int threads,
                                 struct spoor_error *err);
/* The same into path, whole or not at all (spoor/write.h; "-" or NULL:
 * stdout). */
SPOOR_API int spoor_report_save(const struct spoor_report *r, const char *path, enum spoor_output_format format,
                                int threads, struct spoor_error *err);

/* Aligned plain-text tables for terminal output: cells are collected, column
 * widths measured, then printed with numbers right-aligned; or, for tables
 * too long to hold, widths measured on the first rows and the rest streamed. */
/* Callers fill cells with counts and durations spelled by these. */

struct spoor_text_table;

SPOOR_API struct spoor_text_table *spoor_text_table_new(size_t ncols, const char *const *headers,
                                                        const bool *right_align);
/* Room for `cells` more cells holding `bytes` more bytes of text in all: a
 * caller that knows how large its table will be spares the copies of growing
 * it (an overestimate costs address space only, never touched). */
SPOOR_API void spoor_text_table_reserve(struct spoor_text_table *t, size_t cells, size_t bytes);
/* Adds a cell holding text as it is to the current row; a row is complete
 * after ncols cells. */
SPOOR_API void spoor_text_table_text(struct spoor_text_table *t, const char *text);
/* The same for the first len bytes of text, whose length the caller knows. */
SPOOR_API void spoor_text_table_textn(struct spoor_text_table *t, const char *text, size_t len);
/* Adds a cell holding v as "%.6g" or n as "%llu", written straight into the
 * table (spoor_format_g6, spoor_format_u64): no buffer, no copy. */
SPOOR_API void spoor_text_table_g6(struct spoor_text_table *t, double v);
SPOOR_API void spoor_text_table_u64(struct spoor_text_table *t, unsigned long long n);
SPOOR_API void spoor_text_table_print(const struct spoor_text_table *t, FILE *out);
/* Prints tables of as many columns as one: the first, then the rows of each
 * other (their headers left out), aligned together. A large table filled in
 * parts on several threads is measured and laid out there too, on up to
 * `threads` threads; the bytes do not depend on them. */
SPOOR_API void spoor_text_table_print_parts(const struct spoor_text_table *const *parts, size_t nparts, FILE *out,
                                            int threads);
/* A table of any length in bounded memory: print_head prints the rows so
 * far (the headers and a sample) and keeps their column widths and
 * alignment; rows added after are printed by flush with them, and dropped.
 * A later cell wider than its column is printed whole, widening its own line
 * only: nothing is cut. Add only whole rows between flushes. */
SPOOR_API void spoor_text_table_print_head(struct spoor_text_table *t, FILE *out);
SPOOR_API void spoor_text_table_flush(struct spoor_text_table *t, FILE *out);
SPOOR_API void spoor_text_table_free(struct spoor_text_table *t);

#endif
