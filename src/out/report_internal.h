/* Inside the report model: how sheets hold their cells (report.c) and how a
 * cell is spelled for a format (report_cell.c), shared by the renderers. */
#ifndef SPOOR_OUT_REPORT_INTERNAL_H
#define SPOOR_OUT_REPORT_INTERNAL_H

#include "spoor/report.h"

#include <stdint.h>

union report_value {
    double f;           /* FLOAT: NaN = null */
    uint64_t u;         /* COUNT */
    int64_t i;          /* INT, TIME (UTC ns) */
    bool b;
    size_t text;        /* TEXT: offset of its text (NUL-terminated) in the sheet's text block */
    const char *name;   /* NAME */
    const struct spoor_sheet *sheet; /* SHEET, owned by the sheet holding the cell */
};

struct spoor_sheet {
    enum spoor_sheet_kind kind;
    char *key, *title, *footer; /* any may be NULL */
    unsigned formats;
    size_t ncols, nrows;
    char **headers;
    unsigned char *col_unit, *col_hint;
    signed char *col_digits;
    /* per cell, row-major */
    union report_value *values;
    unsigned char *types;
    unsigned char *units;   /* a properties sheet's, per cell; other sheets' are their columns' */
    signed char *digits;
    size_t cap, pending;    /* cells allocated; cells of the unfinished row */
    char *text;             /* the text cells back to back */
    size_t text_used, text_room;
    int64_t time_offset_ns;
    struct spoor_sheet **owned; /* the sheets of SHEET cells */
    size_t nowned;
    int prop_unit, prop_digits; /* a properties line: its value cell's */
    spoor_sheet_fill_fn *fill;  /* a source sheet: its rows made when rendered */
    void *fill_ctx;
    size_t source_rows;
    struct report_spell *spell; /* set: cells are spelled as they come, never held */
};

struct spoor_report {
    char *title;
    struct spoor_sheet **sheets;
    size_t nsheets;
};

/* Cell i's unit and digits. */
static inline unsigned char report_unit(const struct spoor_sheet *s, size_t i)
{
    return s->units ? s->units[i] : s->col_unit[i % s->ncols];
}

static inline int report_digits(const struct spoor_sheet *s, size_t i)
{
    return s->digits ? s->digits[i] : s->col_digits[i % s->ncols];
}

/* Properties sheets have these columns. */
enum { PROP_KEY, PROP_VALUE, PROP_NOTE, PROP_NCOLS };

static inline bool report_shown(const struct spoor_sheet *s, enum spoor_output_format f)
{
    return s->formats & SPOOR_FORMAT_BIT(f);
}

/* The date of a local day, remembered: a resample sheet has a row per bucket,
 * so gmtime runs once per day of buckets, not once per row. */
struct iso_day {
    int64_t day;            /* days since 1970-01-01; INT64_MIN: none yet */
    int year, mon, mday;
};
#define ISO_DAY_NONE ((struct iso_day){.day = INT64_MIN})

/* A row's cells spelled into a buffer one by one, as a format spells them: by
 * the renderers for the cells a sheet holds, and, for a source sheet's rows,
 * straight from the spoor_sheet_* calls of its fill (no cell is stored). */
struct wbuf;
/* Spells cell (c, v, type) of sheet s, the row's joint before cell 0 (see
 * report_row_begin). A text cell comes as SPOOR_CELL_TEXT (v.text in s's
 * text block) or SPOOR_CELL_NAME. */
typedef void report_cell_fn(struct report_spell *w, const struct spoor_sheet *s, size_t c, union report_value v,
                            unsigned char type, int digits);
struct report_spell {
    struct wbuf *b;
    report_cell_fn *cell;
    size_t nth;                 /* rows of the sheet begun before this one */
    size_t shown;               /* cells of the row spelled so far (JSON: the commas) */
    struct iso_day day;
    /* Rows are joined before a row, not after, so that a row's last cell
     * ends in its spelling: before the first, before each next (closing the
     * one before), and after the last row of the sheet. */
    const char *first_row, *next_row, *rows_end;
    const char *comma, *colon; /* JSON: between cells, after a key */
};

/* A float as digits ask (SPOOR_DIGITS_*), in buf of 48 bytes; its length. */
size_t report_float_text(char *buf, double v, int digits);
/* Whether a cell type is a text (its text, in buf of 48 bytes for a time,
 * unless the sheet's own). */
static inline bool report_is_text(unsigned char type)
{
    return type == SPOOR_CELL_TEXT || type == SPOOR_CELL_NAME || type == SPOOR_CELL_TIME;
}
const char *report_cell_text(const struct spoor_sheet *s, union report_value v, unsigned char type, char *buf,
                             struct iso_day *day, size_t *len);

/* Rows of a sheet, made or held. */
static inline size_t report_nrows(const struct spoor_sheet *s) { return s->fill ? s->source_rows : s->nrows; }
/* A sheet of s's columns to fill a source sheet's rows into. */
struct spoor_sheet *report_scratch(const struct spoor_sheet *s);
/* Empties scratch and fills it with n rows of the source sheet s from
 * `from`: held, or spelled by `spell` (NULL: held). */
void report_refill(struct spoor_sheet *scratch, const struct spoor_sheet *s, size_t from, size_t n,
                   struct report_spell *spell);
void report_sheet_free(struct spoor_sheet *s);
/* Cell i as a text table spells it (in buf, 64 bytes, unless the sheet's own). */
const char *report_spell_table(const struct spoor_sheet *s, size_t i, char *buf, struct iso_day *day, size_t *len);
/* Whether a type is a number (right-aligned in tables, bare in JSON). */
bool report_numeric_type(unsigned char type);

/* Rows a thread formats at the least: fewer are not worth a thread. */
enum { REPORT_ROWS_PER_THREAD = 8192 };
/* The parts a sheet is formatted in: one per REPORT_ROWS_PER_THREAD rows, at most one a thread. */
size_t report_parts(const struct spoor_sheet *s, int threads);

void report_write_table(FILE *out, const struct spoor_report *r, int threads);
void report_write_csv(struct wbuf *b, const struct spoor_report *r, int threads);
void report_write_json(struct wbuf *b, const struct spoor_report *r, int threads);
void report_write_jsonl(struct wbuf *b, const struct spoor_report *r, int threads);
void report_write_html(struct wbuf *b, const struct spoor_report *r);
/* For the HTML page's data, spelled as JSON spells them, without spaces: row
 * r of a rows sheet as an object; a properties or list sheet whole. */
void report_json_row_object(struct wbuf *b, const struct spoor_sheet *s, size_t r, struct iso_day *day);
void report_json_sheet_inline(struct wbuf *b, const struct spoor_sheet *s);

#endif
