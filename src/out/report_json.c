/* A report as JSON: one object, a member per sheet: an array of row objects
 * ("key": [{...}, ...], a row on a line), a properties object ("key": {...})
 * or, for a properties sheet without a key, its lines as members. Absent
 * cells are left out of their object; null ones are null. JSON lines: each
 * row of the row sheets as an object on its own line. */
#include "out/report_rows.h"
#include "spoor/json_out.h"

#include <string.h>

static void json_key(FILE *out, const char *key, const char *colon)
{
    spoor_json_write_string(out, key, strlen(key));
    fputs(colon, out);
}

static void json_inline(FILE *out, const struct spoor_sheet *s, const char *sep, const char *colon);

static void json_value(FILE *out, const struct spoor_sheet *s, size_t i, struct iso_day *day, const char *colon)
{
    char buf[48];
    const char *text;
    size_t len;
    switch (report_spell_data(s, i, buf, day, &text, &len)) {
    case SPELLED_EMPTY:
        fputs("null", out);
        break;
    case SPELLED_NUMBER:
        fwrite(text, 1, len, out);
        break;
    case SPELLED_TEXT:
        spoor_json_write_string(out, text, len);
        break;
    case SPELLED_SHEET:
        json_inline(out, s->values[i].sheet, colon[1] ? ", " : ",", colon);
        break;
    }
}

/* The lines of a properties sheet as members, sep between, first_sep before
 * the first; whether there was one. */
static bool json_members(FILE *out, const struct spoor_sheet *s, const char *sep, const char *colon,
                         const char *first_sep)
{
    struct iso_day day = ISO_DAY_NONE;
    bool any = false;
    for (size_t r = 0; r < s->nrows; r++) {
        size_t at = r * PROP_NCOLS;
        if (s->types[at + PROP_VALUE] == SPOOR_CELL_ABSENT)
            continue;
        fputs(any ? sep : first_sep, out);
        any = true;
        json_key(out, s->text + s->values[at + PROP_KEY].text, colon);
        json_value(out, s, at + PROP_VALUE, &day, colon);
    }
    return any;
}

static void json_object(FILE *out, const struct spoor_sheet *props, const char *sep, const char *colon)
{
    fputc('{', out);
    json_members(out, props, sep, colon, "");
    fputc('}', out);
}

static void row_object(FILE *out, const struct spoor_sheet *s, size_t r, struct iso_day *day, const char *sep,
                       const char *colon)
{
    fputc('{', out);
    for (size_t c = 0, n = 0; c < s->ncols; c++) {
        size_t i = r * s->ncols + c;
        if (s->types[i] == SPOOR_CELL_ABSENT)
            continue;
        if (n++)
            fputs(sep, out);
        json_key(out, s->headers[c], colon);
        json_value(out, s, i, day, colon);
    }
    fputc('}', out);
}

/* A sheet on one line: an object of properties, an array of row objects or of values. */
static void json_inline(FILE *out, const struct spoor_sheet *s, const char *sep, const char *colon)
{
    if (s->kind == SPOOR_SHEET_PROPS) {
        json_object(out, s, sep, colon);
        return;
    }
    struct iso_day day = ISO_DAY_NONE;
    fputc('[', out);
    for (size_t r = 0; r < s->nrows; r++) {
        if (r)
            fputs(sep, out);
        if (s->kind == SPOOR_SHEET_LIST)
            json_value(out, s, r, &day, colon);
        else
            row_object(out, s, r, &day, sep, colon);
    }
    fputc(']', out);
}

static void json_row(FILE *out, const struct spoor_sheet *s, size_t r, struct iso_day *day)
{
    fputs(r ? ",\n    " : "\n    ", out);
    row_object(out, s, r, day, ", ", ": ");
}

void report_write_json(FILE *out, const struct spoor_report *r, int threads)
{
    fputs("{", out);
    const char *sep = "\n  ";
    for (size_t i = 0; i < r->nsheets; i++) {
        const struct spoor_sheet *s = r->sheets[i];
        if (!report_shown(s, SPOOR_FORMAT_JSON))
            continue;
        if (s->kind == SPOOR_SHEET_PROPS && !s->key) {
            /* its lines are members of the report's object */
            if (json_members(out, s, ",\n  ", ": ", sep))
                sep = ",\n  ";
            continue;
        }
        fputs(sep, out);
        sep = ",\n  ";
        json_key(out, s->key ? s->key : "", ": ");
        if (s->kind == SPOOR_SHEET_PROPS) {
            json_object(out, s, ", ", ": ");
            continue;
        }
        fputc('[', out);
        report_write_rows(out, s, json_row, threads);
        fputs("\n  ]", out);
    }
    fputs("\n}\n", out);
}

static void jsonl_row(FILE *out, const struct spoor_sheet *s, size_t r, struct iso_day *day)
{
    row_object(out, s, r, day, ",", ":");
    fputc('\n', out);
}

void report_write_jsonl(FILE *out, const struct spoor_report *r)
{
    for (size_t i = 0; i < r->nsheets; i++) {
        const struct spoor_sheet *s = r->sheets[i];
        if (report_shown(s, SPOOR_FORMAT_JSONL) && s->kind == SPOOR_SHEET_ROWS)
            report_write_rows(out, s, jsonl_row, 1);
    }
}
