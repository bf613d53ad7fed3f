/* A report as JSON: one object, a member per sheet: an array of row objects
 * ("key": [{...}, ...], a row on a line), a properties object ("key": {...})
 * or, for a properties sheet without a key, its lines as members. Absent
 * cells are left out of their object; null ones are null. A sheet in a cell
 * is one line: an object, an array of objects or of values. JSON lines: each
 * row of the row sheets as an object on its own line, without spaces. Texts
 * are escaped as the row writers escape them (write_jsonl.c). */
#include "out/report_rows.h"

#include <string.h>

/* ", " and ": " in JSON, "," and ":" in JSON lines. */
struct seps {
    const char *comma, *colon;
};
static const struct seps spaced = {", ", ": "}, tight = {",", ":"};

static void put_text(struct wbuf *b, const char *s) { wbuf_put(b, s, strlen(s)); }

static void json_key(struct wbuf *b, const char *key, const struct seps *sep)
{
    json_text(b, key, strlen(key));
    put_text(b, sep->colon);
}

static void sheet_json_inline(struct wbuf *b, const struct spoor_sheet *s, const struct seps *sep);

static void cell_json(struct wbuf *b, const struct spoor_sheet *s, size_t i, struct iso_day *day,
                       const struct seps *sep)
{
    if (report_put_number(b, s, i)) {
        return;
    } else if (report_is_text(s->types[i])) {
        char buf[48];
        size_t len;
        const char *text = report_cell_text(s, i, buf, day, &len);
        json_text(b, text, len);
    } else if (s->types[i] == SPOOR_CELL_SHEET) {
        sheet_json_inline(b, s->values[i].sheet, sep);
    } else {
        wbuf_put(b, "null", 4);
    }
}

/* The lines of a properties sheet as members, `between` between them and
 * `before` before the first; whether there was one. */
static bool json_members(struct wbuf *b, const struct spoor_sheet *s, const char *between, const char *before,
                         const struct seps *sep)
{
    struct iso_day day = ISO_DAY_NONE;
    bool any = false;
    for (size_t r = 0; r < s->nrows; r++) {
        size_t at = r * PROP_NCOLS;
        if (s->types[at + PROP_VALUE] == SPOOR_CELL_ABSENT)
            continue;
        put_text(b, any ? between : before);
        any = true;
        json_key(b, s->text + s->values[at + PROP_KEY].text, sep);
        cell_json(b, s, at + PROP_VALUE, &day, sep);
    }
    return any;
}

static void row_object(struct wbuf *b, const struct spoor_sheet *s, size_t r, struct iso_day *day,
                       const struct seps *sep)
{
    wbuf_byte(b, '{');
    for (size_t c = 0, n = 0; c < s->ncols; c++) {
        size_t i = r * s->ncols + c;
        if (s->types[i] == SPOOR_CELL_ABSENT)
            continue;
        if (n++)
            put_text(b, sep->comma);
        json_key(b, s->headers[c], sep);
        cell_json(b, s, i, day, sep);
    }
    wbuf_byte(b, '}');
}

static void sheet_json_inline(struct wbuf *b, const struct spoor_sheet *s, const struct seps *sep)
{
    if (s->kind == SPOOR_SHEET_PROPS) {
        wbuf_byte(b, '{');
        json_members(b, s, sep->comma, "", sep);
        wbuf_byte(b, '}');
        return;
    }
    struct iso_day day = ISO_DAY_NONE;
    wbuf_byte(b, '[');
    for (size_t r = 0; r < s->nrows; r++) {
        if (r)
            put_text(b, sep->comma);
        if (s->kind == SPOOR_SHEET_LIST)
            cell_json(b, s, r, &day, sep);
        else
            row_object(b, s, r, &day, sep);
    }
    wbuf_byte(b, ']');
}

static void json_row(struct wbuf *b, const struct spoor_sheet *s, size_t r, size_t nth, struct iso_day *day)
{
    put_text(b, nth ? ",\n    " : "\n    ");
    row_object(b, s, r, day, &spaced);
}

void report_write_json(struct wbuf *b, const struct spoor_report *r, int threads)
{
    wbuf_byte(b, '{');
    const char *before = "\n  ";
    for (size_t i = 0; i < r->nsheets; i++) {
        const struct spoor_sheet *s = r->sheets[i];
        if (!report_shown(s, SPOOR_FORMAT_JSON))
            continue;
        if (s->kind == SPOOR_SHEET_PROPS && !s->key) {
            /* its lines are members of the report's object */
            if (json_members(b, s, ",\n  ", before, &spaced))
                before = ",\n  ";
            continue;
        }
        put_text(b, before);
        before = ",\n  ";
        json_key(b, s->key ? s->key : "", &spaced);
        if (s->kind != SPOOR_SHEET_ROWS) {
            sheet_json_inline(b, s, &spaced);
            continue;
        }
        wbuf_byte(b, '[');
        report_write_rows(b, s, json_row, threads);
        put_text(b, "\n  ]");
    }
    put_text(b, "\n}\n");
}

static void jsonl_row(struct wbuf *b, const struct spoor_sheet *s, size_t r, size_t nth, struct iso_day *day)
{
    (void)nth;
    row_object(b, s, r, day, &tight);
    wbuf_byte(b, '\n');
}

void report_write_jsonl(struct wbuf *b, const struct spoor_report *r, int threads)
{
    for (size_t i = 0; i < r->nsheets; i++) {
        const struct spoor_sheet *s = r->sheets[i];
        if (report_shown(s, SPOOR_FORMAT_JSONL) && s->kind == SPOOR_SHEET_ROWS)
            report_write_rows(b, s, jsonl_row, threads);
    }
}

void report_json_row_object(struct wbuf *b, const struct spoor_sheet *s, size_t r, struct iso_day *day)
{
    row_object(b, s, r, day, &tight);
}

void report_json_sheet_inline(struct wbuf *b, const struct spoor_sheet *s) { sheet_json_inline(b, s, &tight); }
