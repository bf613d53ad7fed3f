/* The report model: sheets of typed cells collected row by row, rendered once
 * in the format asked for (report_table.c, report_csv.c, report_json.c,
 * report_html.c). */
#include "out/report_internal.h"
#include "out/write_internal.h"
#include "spoor/write.h"
#include "spoor/error.h"
#include "util/grow.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char *const format_names[] = {"table", "csv", "json", "jsonl", "html"};

const enum spoor_output_format spoor_report_formats[3] = {SPOOR_FORMAT_TABLE, SPOOR_FORMAT_JSON, SPOOR_FORMAT_CSV};
const enum spoor_output_format spoor_chart_formats[4] = {SPOOR_FORMAT_TABLE, SPOOR_FORMAT_JSON, SPOOR_FORMAT_CSV,
                                                         SPOOR_FORMAT_HTML};

const char *spoor_format_name(enum spoor_output_format f) { return format_names[f]; }

bool spoor_format_parse(const char *arg, const enum spoor_output_format *allowed, size_t n,
                        enum spoor_output_format *format)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(arg, format_names[allowed[i]])) {
            *format = allowed[i];
            return true;
        }
    return false;
}

static char *vformat(const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    char *s = spoor_xmalloc((size_t)(n > 0 ? n : 0) + 1);
    vsnprintf(s, (size_t)(n > 0 ? n : 0) + 1, fmt, again);
    va_end(again);
    return s;
}

struct spoor_report *spoor_report_new(const char *title)
{
    struct spoor_report *r = spoor_xcalloc(1, sizeof *r);
    r->title = spoor_xstrdup(title ? title : "");
    return r;
}

void report_sheet_free(struct spoor_sheet *s)
{
    if (!s)
        return;
    for (size_t c = 0; c < s->ncols; c++)
        free(s->headers[c]);
    for (size_t i = 0; i < s->nowned; i++)
        report_sheet_free(s->owned[i]);
    free(s->owned);
    free(s->headers);
    free(s->col_unit);
    free(s->col_hint);
    free(s->col_digits);
    free(s->values);
    free(s->types);
    free(s->units);
    free(s->digits);
    free(s->text);
    free(s->key);
    free(s->title);
    free(s->footer);
    free(s);
}

void spoor_report_free(struct spoor_report *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nsheets; i++)
        report_sheet_free(r->sheets[i]);
    free(r->sheets);
    free(r->title);
    free(r);
}

static struct spoor_sheet *sheet_new(enum spoor_sheet_kind kind, const char *key, size_t ncols, unsigned formats)
{
    struct spoor_sheet *s = spoor_xcalloc(1, sizeof *s);
    s->kind = kind;
    s->key = key ? spoor_xstrdup(key) : NULL;
    s->formats = formats;
    s->ncols = ncols;
    s->headers = spoor_xcalloc(ncols, sizeof *s->headers);
    s->col_unit = spoor_xcalloc(ncols, 1);
    s->col_hint = spoor_xcalloc(ncols, 1);
    s->col_digits = spoor_xcalloc(ncols, 1);
    for (size_t c = 0; c < ncols; c++) {
        s->headers[c] = spoor_xstrdup("");
        s->col_digits[c] = SPOOR_DIGITS_SHORTEST;
    }
    return s;
}

static struct spoor_sheet *add_sheet(struct spoor_report *r, struct spoor_sheet *s)
{
    r->sheets = spoor_xrealloc(r->sheets, (r->nsheets + 1) * sizeof *r->sheets);
    r->sheets[r->nsheets++] = s;
    return s;
}

struct spoor_sheet *spoor_report_rows(struct spoor_report *r, const char *key, size_t ncols, unsigned formats)
{
    return add_sheet(r, sheet_new(SPOOR_SHEET_ROWS, key, ncols, formats));
}

struct spoor_sheet *spoor_sheet_props_new(void)
{
    struct spoor_sheet *s = sheet_new(SPOOR_SHEET_PROPS, NULL, PROP_NCOLS, SPOOR_FORMATS_ALL);
    spoor_sheet_column(s, PROP_KEY, "key", SPOOR_CU_NONE, SPOOR_DIGITS_SHORTEST, SPOOR_HINT_CATEGORY);
    spoor_sheet_column(s, PROP_VALUE, "value", SPOOR_CU_NONE, SPOOR_DIGITS_SHORTEST, SPOOR_HINT_NONE);
    spoor_sheet_column(s, PROP_NOTE, "note", SPOOR_CU_NONE, SPOOR_DIGITS_SHORTEST, SPOOR_HINT_NONE);
    return s;
}

struct spoor_sheet *spoor_report_table(struct spoor_report *r, const char *key, unsigned formats,
                                       const struct spoor_sheet_col *cols, size_t n)
{
    struct spoor_sheet *s = spoor_report_rows(r, key, n, formats);
    for (size_t c = 0; c < n; c++) {
        enum spoor_col_hint hint = cols[c].hint;
        if (hint == SPOOR_HINT_NONE)
            hint = cols[c].unit == SPOOR_CU_NONE ? SPOOR_HINT_CATEGORY : SPOOR_HINT_SERIES;
        spoor_sheet_column(s, c, cols[c].name, cols[c].unit, cols[c].digits, hint);
    }
    return s;
}

struct spoor_sheet *spoor_report_rows_source(struct spoor_report *r, const char *key, size_t ncols, unsigned formats,
                                             size_t nrows, spoor_sheet_fill_fn *fill, void *ctx)
{
    struct spoor_sheet *s = spoor_report_rows(r, key, ncols, formats);
    s->fill = fill;
    s->fill_ctx = ctx;
    s->source_rows = nrows;
    return s;
}

struct spoor_sheet *report_scratch(const struct spoor_sheet *s)
{
    struct spoor_sheet *t = sheet_new(SPOOR_SHEET_ROWS, s->key, s->ncols, s->formats);
    for (size_t c = 0; c < s->ncols; c++)
        spoor_sheet_column(t, c, s->headers[c], s->col_unit[c], s->col_digits[c], s->col_hint[c]);
    t->time_offset_ns = s->time_offset_ns;
    return t;
}

void report_refill(struct spoor_sheet *scratch, const struct spoor_sheet *s, size_t from, size_t n,
                   struct report_spell *spell)
{
    for (size_t i = 0; i < scratch->nowned; i++)
        report_sheet_free(scratch->owned[i]);
    scratch->nowned = 0;
    scratch->nrows = scratch->pending = scratch->text_used = 0;
    scratch->spell = spell;
    if (!spell)
        spoor_sheet_reserve(scratch, n);
    for (size_t r = from; r < from + n; r++)
        s->fill(s->fill_ctx, scratch, r);
}

struct spoor_sheet *spoor_sheet_rows_new(size_t ncols)
{
    return sheet_new(SPOOR_SHEET_ROWS, NULL, ncols, SPOOR_FORMATS_ALL);
}

struct spoor_sheet *spoor_sheet_list_new(enum spoor_cell_unit unit, int digits)
{
    struct spoor_sheet *s = sheet_new(SPOOR_SHEET_LIST, NULL, 1, SPOOR_FORMATS_ALL);
    spoor_sheet_column(s, 0, "value", unit, digits, SPOOR_HINT_NONE);
    return s;
}

struct spoor_sheet *spoor_report_props(struct spoor_report *r, const char *key, unsigned formats)
{
    struct spoor_sheet *s = add_sheet(r, spoor_sheet_props_new());
    s->key = key ? spoor_xstrdup(key) : NULL;
    s->formats = formats;
    return s;
}

void spoor_sheet_title(struct spoor_sheet *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    free(s->title);
    s->title = vformat(fmt, ap);
    va_end(ap);
}

void spoor_sheet_footer(struct spoor_sheet *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    free(s->footer);
    s->footer = vformat(fmt, ap);
    va_end(ap);
}

void spoor_sheet_column(struct spoor_sheet *s, size_t c, const char *name, enum spoor_cell_unit unit, int digits,
                        enum spoor_col_hint hint)
{
    free(s->headers[c]);
    s->headers[c] = spoor_xstrdup(name);
    s->col_unit[c] = (unsigned char)unit;
    s->col_digits[c] = (signed char)digits;
    s->col_hint[c] = (unsigned char)hint;
}

void spoor_sheet_time_offset(struct spoor_sheet *s, int64_t offset_ns) { s->time_offset_ns = offset_ns; }

/* Cells written so far; a row is complete after ncols. */
static size_t ncells(const struct spoor_sheet *s) { return s->nrows * s->ncols + s->pending; }

/* A resample sheet's cells take megabytes, written once: from malloc, as the
 * text table's (src/out/text_table.c says why not huge pages). */
static void set_cap(struct spoor_sheet *s, size_t cap)
{
    s->values = spoor_xrealloc(s->values, cap * sizeof *s->values);
    s->types = spoor_xrealloc(s->types, cap);
    if (s->kind == SPOOR_SHEET_PROPS) {
        s->units = spoor_xrealloc(s->units, cap);
        s->digits = spoor_xrealloc(s->digits, cap);
    }
    s->cap = cap;
}

void spoor_sheet_reserve(struct spoor_sheet *s, size_t rows)
{
    if (ncells(s) + rows * s->ncols > s->cap)
        set_cap(s, ncells(s) + rows * s->ncols);
}

static void hold_cell(struct spoor_sheet *s, union report_value v, enum spoor_cell_type type)
{
    size_t i = ncells(s), c = s->pending;
    if (i == s->cap)
        set_cap(s, s->cap ? s->cap * 2 : 64);
    s->values[i] = v;
    s->types[i] = (unsigned char)type;
    if (++s->pending == s->ncols) {
        s->pending = 0;
        s->nrows++;
    }
    if (!s->units)
        return;
    bool prop_value = c == PROP_VALUE;
    s->units[i] = (unsigned char)(prop_value ? s->prop_unit : s->col_unit[c]);
    s->digits[i] = (signed char)(prop_value ? s->prop_digits : s->col_digits[c]);
    if (prop_value) /* a note only when one is given */
        hold_cell(s, (union report_value){0}, SPOOR_CELL_ABSENT);
}

/* A cell held, or, in a source sheet's block, spelled at once (kept apart
 * from hold_cell: the spelled path is the one run per cell of a dataset). */
static inline void add_cell(struct spoor_sheet *s, union report_value v, enum spoor_cell_type type)
{
    if (!s->spell) {
        hold_cell(s, v, type);
        return;
    }
    size_t c = s->pending;
    s->pending = c + 1 == s->ncols ? 0 : c + 1;
    s->spell->cell(s->spell, s, c, v, (unsigned char)type, s->col_digits[c]);
}

/* Copies n bytes of text (and a NUL) into the text block; returns the offset. */
static size_t keep_text(struct spoor_sheet *s, const char *text, size_t n)
{
    spoor_reserve((void **)&s->text, &s->text_room, s->text_used + n + 1, 1);
    size_t at = s->text_used;
    memcpy(s->text + at, text, n);
    s->text[at + n] = '\0';
    s->text_used += n + 1;
    return at;
}

void spoor_sheet_text(struct spoor_sheet *s, const char *text)
{
    if (s->spell) { /* spelled at once: no copy */
        add_cell(s, (union report_value){.name = text}, SPOOR_CELL_NAME);
        return;
    }
    add_cell(s, (union report_value){.text = keep_text(s, text, strlen(text))}, SPOOR_CELL_TEXT);
}

void spoor_sheet_textf(struct spoor_sheet *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = vformat(fmt, ap);
    va_end(ap);
    spoor_sheet_text(s, text);
    free(text);
}

void spoor_sheet_name(struct spoor_sheet *s, const char *name)
{
    add_cell(s, (union report_value){.name = name}, SPOOR_CELL_NAME);
}

void spoor_sheet_time(struct spoor_sheet *s, int64_t utc_ns) { add_cell(s, (union report_value){.i = utc_ns}, SPOOR_CELL_TIME); }
void spoor_sheet_int(struct spoor_sheet *s, int64_t v) { add_cell(s, (union report_value){.i = v}, SPOOR_CELL_INT); }
void spoor_sheet_ints(struct spoor_sheet *s, const int64_t *v, size_t n, int64_t null_value)
{
    if (s->units || s->spell || s->pending + n > s->ncols) { /* properties, spelled, or past the row: cell by cell */
        for (size_t k = 0; k < n; k++)
            add_cell(s, (union report_value){.i = v[k]}, v[k] == null_value ? SPOOR_CELL_NULL : SPOOR_CELL_INT);
        return;
    }
    size_t i = ncells(s);
    if (i + n > s->cap)
        set_cap(s, (i + n) * 2);
    for (size_t k = 0; k < n; k++) {
        s->values[i + k].i = v[k];
        s->types[i + k] = v[k] == null_value ? SPOOR_CELL_NULL : SPOOR_CELL_INT;
    }
    if ((s->pending += n) == s->ncols) {
        s->pending = 0;
        s->nrows++;
    }
}

void spoor_sheet_int_or_null(struct spoor_sheet *s, int64_t v, int64_t null_value)
{
    add_cell(s, (union report_value){.i = v}, v == null_value ? SPOOR_CELL_NULL : SPOOR_CELL_INT);
}

void spoor_sheet_count(struct spoor_sheet *s, uint64_t n) { add_cell(s, (union report_value){.u = n}, SPOOR_CELL_COUNT); }
void spoor_sheet_bool(struct spoor_sheet *s, bool v) { add_cell(s, (union report_value){.b = v}, SPOOR_CELL_BOOL); }
void spoor_sheet_null(struct spoor_sheet *s) { add_cell(s, (union report_value){0}, SPOOR_CELL_NULL); }
void spoor_sheet_absent(struct spoor_sheet *s) { add_cell(s, (union report_value){0}, SPOOR_CELL_ABSENT); }

void spoor_sheet_float(struct spoor_sheet *s, double v)
{
    add_cell(s, (union report_value){.f = isfinite(v) ? v : NAN}, SPOOR_CELL_FLOAT);
}

void spoor_sheet_sheet(struct spoor_sheet *s, struct spoor_sheet *props)
{
    s->owned = spoor_xrealloc(s->owned, (s->nowned + 1) * sizeof *s->owned);
    s->owned[s->nowned++] = props;
    add_cell(s, (union report_value){.sheet = props}, SPOOR_CELL_SHEET);
}

void spoor_sheet_prop(struct spoor_sheet *s, const char *key, enum spoor_cell_unit unit, int digits)
{
    spoor_sheet_text(s, key);
    s->prop_unit = unit;
    s->prop_digits = digits;
}

void spoor_sheet_note(struct spoor_sheet *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *note = vformat(fmt, ap);
    va_end(ap);
    size_t i = (s->nrows - 1) * PROP_NCOLS + PROP_NOTE;
    s->values[i].text = keep_text(s, note, strlen(note));
    s->types[i] = SPOOR_CELL_TEXT;
    s->units[i] = SPOOR_CU_NONE;
    s->digits[i] = SPOOR_DIGITS_SHORTEST;
    free(note);
}

size_t spoor_report_nsheets(const struct spoor_report *r) { return r->nsheets; }
const struct spoor_sheet *spoor_report_sheet(const struct spoor_report *r, size_t i) { return r->sheets[i]; }
enum spoor_sheet_kind spoor_sheet_kind(const struct spoor_sheet *s) { return s->kind; }
size_t spoor_sheet_ncols(const struct spoor_sheet *s) { return s->ncols; }
size_t spoor_sheet_nrows(const struct spoor_sheet *s) { return s->nrows; }
const char *spoor_sheet_header(const struct spoor_sheet *s, size_t col) { return s->headers[col]; }
enum spoor_col_hint spoor_sheet_hint(const struct spoor_sheet *s, size_t col) { return s->col_hint[col]; }

enum spoor_cell_type spoor_sheet_cell_type(const struct spoor_sheet *s, size_t row, size_t col)
{
    return s->types[row * s->ncols + col];
}

enum spoor_cell_unit spoor_sheet_cell_unit(const struct spoor_sheet *s, size_t row, size_t col)
{
    return report_unit(s, row * s->ncols + col);
}

/* The report into out, which errors call `name` (NULL: stdout). */
static int write_named(FILE *out, const char *name, const struct spoor_report *r, enum spoor_output_format format,
                       int threads, struct spoor_error *err)
{
    struct wbuf b;
    if (format == SPOOR_FORMAT_TABLE) {
        report_write_table(out, r, threads);
        if (fflush(out) == 0 && !ferror(out))
            return SPOOR_OK;
        b = (struct wbuf){.error = errno ? errno : EIO, .name = name};
        return wbuf_status(&b, err);
    }
    /* CSV and JSON go through one buffer: no stdio call per cell */
    wbuf_init(&b, out, 1 << 16);
    b.name = name;
    if (format == SPOOR_FORMAT_CSV)
        report_write_csv(&b, r, threads);
    else if (format == SPOOR_FORMAT_JSON)
        report_write_json(&b, r, threads);
    else if (format == SPOOR_FORMAT_HTML)
        report_write_html(&b, r);
    else
        report_write_jsonl(&b, r, threads);
    int st = wbuf_finish(&b, err);
    wbuf_release(&b);
    return st;
}

int spoor_report_write(FILE *out, const struct spoor_report *r, enum spoor_output_format format, int threads,
                       struct spoor_error *err)
{
    return write_named(out, NULL, r, format, threads, err);
}

int spoor_report_save(const struct spoor_report *r, const char *path, enum spoor_output_format format, int threads,
                      struct spoor_error *err)
{
    struct spoor_atomic_file out = {0};
    int st = spoor_atomic_file_open(&out, path, err);
    if (st != SPOOR_OK)
        return st;
    st = write_named(out.fp, path && strcmp(path, "-") ? path : NULL, r, format, threads, err);
    if (st != SPOOR_OK) {
        spoor_atomic_file_abort(&out);
        return st;
    }
    return spoor_atomic_file_commit(&out, err);
}
