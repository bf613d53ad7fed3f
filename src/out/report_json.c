/* A report as JSON: one object, a member per sheet: an array of row objects
 * ("key": [{...}, ...], a row on a line), a properties object ("key": {...})
 * or, for a properties sheet without a key, its lines as members. Absent
 * cells are left out of their object; null ones are null. A sheet in a cell
 * is one line: an object, an array of objects or of values. JSON lines: each
 * row of the row sheets as an object on its own line, without spaces. Texts
 * are escaped as the row writers escape them (write_jsonl.c). */
#include "out/report_rows.h"

#include <stdio.h>
#include <string.h>

static void put_text(struct wbuf *b, const char *s) { wbuf_put(b, s, strlen(s)); }

static void json_key(struct report_spell *w, const char *key)
{
    json_text(w->b, key, strlen(key));
    put_text(w->b, w->colon);
}

static void sheet_json_inline(struct report_spell *w, const struct spoor_sheet *s);

/* A cell's value; w's comma and colon join the cells of a sheet in it. */
static void cell_json(struct report_spell *w, const struct spoor_sheet *s, union report_value v, unsigned char type,
                      int digits)
{
    if (report_put_common(w->b, v, type, digits) || report_put_number(w->b, v, type, digits)) {
        return;
    } else if (report_is_text(type)) {
        char buf[48];
        size_t len;
        const char *text = report_cell_text(s, v, type, buf, &w->day, &len);
        json_text(w->b, text, len);
    } else if (type == SPOOR_CELL_SHEET) {
        sheet_json_inline(w, v.sheet);
    } else {
        wbuf_put(w->b, "null", 4);
    }
}

/* A cell of a row object; the joint before the first cell closes the row
 * before and opens this one. */
static void row_cell(struct report_spell *w, const struct spoor_sheet *s, size_t c, union report_value v,
                     unsigned char type, int digits)
{
    if (c == 0) {
        report_row_begin(w);
        w->shown = 0;
    }
    if (type == SPOOR_CELL_ABSENT)
        return;
    if (w->shown++)
        put_text(w->b, w->comma);
    json_key(w, s->headers[c]);
    cell_json(w, s, v, type, digits);
}

/* The lines of a properties sheet as members, `between` between them and
 * `before` before the first; whether there was one. */
static bool json_members(struct report_spell *w, const struct spoor_sheet *s, const char *between, const char *before)
{
    bool any = false;
    for (size_t r = 0; r < s->nrows; r++) {
        size_t at = r * PROP_NCOLS;
        if (s->types[at + PROP_VALUE] == SPOOR_CELL_ABSENT)
            continue;
        put_text(w->b, any ? between : before);
        any = true;
        json_key(w, s->text + s->values[at + PROP_KEY].text);
        cell_json(w, s, s->values[at + PROP_VALUE], s->types[at + PROP_VALUE], report_digits(s, at + PROP_VALUE));
    }
    return any;
}

static void sheet_json_inline(struct report_spell *w, const struct spoor_sheet *s)
{
    /* its own writer: the cell holding it is in the middle of a row of w's */
    char next_row[8];
    snprintf(next_row, sizeof next_row, "}%s{", w->comma);
    struct report_spell in = {.b = w->b, .cell = row_cell, .day = ISO_DAY_NONE, .first_row = "{",
                              .next_row = next_row, .rows_end = "}", .comma = w->comma, .colon = w->colon};
    if (s->kind == SPOOR_SHEET_PROPS) {
        wbuf_byte(w->b, '{');
        json_members(&in, s, w->comma, "");
        wbuf_byte(w->b, '}');
        return;
    }
    wbuf_byte(w->b, '[');
    if (s->kind == SPOOR_SHEET_LIST) {
        for (size_t r = 0; r < s->nrows; r++) {
            if (r)
                put_text(w->b, w->comma);
            cell_json(&in, s, s->values[r], s->types[r], report_digits(s, r));
        }
    } else {
        report_write_rows(s, &in, 1);
    }
    wbuf_byte(w->b, ']');
}

void report_write_json(struct wbuf *b, const struct spoor_report *r, int threads)
{
    struct report_spell w = {.b = b, .cell = row_cell, .day = ISO_DAY_NONE, .first_row = "\n    {",
                             .next_row = "},\n    {", .rows_end = "}", .comma = ", ", .colon = ": "};
    wbuf_byte(b, '{');
    const char *before = "\n  ";
    for (size_t i = 0; i < r->nsheets; i++) {
        const struct spoor_sheet *s = r->sheets[i];
        if (!report_shown(s, SPOOR_FORMAT_JSON))
            continue;
        w.day = ISO_DAY_NONE;
        if (s->kind == SPOOR_SHEET_PROPS && !s->key) {
            /* its lines are members of the report's object */
            if (json_members(&w, s, ",\n  ", before))
                before = ",\n  ";
            continue;
        }
        put_text(b, before);
        before = ",\n  ";
        json_key(&w, s->key ? s->key : "");
        if (s->kind != SPOOR_SHEET_ROWS) {
            sheet_json_inline(&w, s);
            continue;
        }
        wbuf_byte(b, '[');
        report_write_rows(s, &w, threads);
        put_text(b, "\n  ]");
    }
    put_text(b, "\n}\n");
}

void report_write_jsonl(struct wbuf *b, const struct spoor_report *r, int threads)
{
    struct report_spell w = {.b = b, .cell = row_cell, .first_row = "{", .next_row = "}\n{", .rows_end = "}\n",
                             .comma = ",", .colon = ":"};
    for (size_t i = 0; i < r->nsheets; i++) {
        const struct spoor_sheet *s = r->sheets[i];
        if (report_shown(s, SPOOR_FORMAT_JSONL) && s->kind == SPOOR_SHEET_ROWS)
            report_write_rows(s, &w, threads);
    }
}

void report_json_row_object(struct wbuf *b, const struct spoor_sheet *s, size_t r, struct iso_day *day)
{
    struct report_spell w = {.b = b, .cell = row_cell, .day = *day, .first_row = "{", .comma = ",", .colon = ":"};
    for (size_t c = 0, i = r * s->ncols; c < s->ncols; c++, i++)
        row_cell(&w, s, c, s->values[i], s->types[i], report_digits(s, i));
    wbuf_byte(b, '}');
    *day = w.day;
}

void report_json_sheet_inline(struct wbuf *b, const struct spoor_sheet *s)
{
    struct report_spell w = {.b = b, .cell = row_cell, .day = ISO_DAY_NONE, .comma = ",", .colon = ":"};
    sheet_json_inline(&w, s);
}
