/* A report as one HTML page that needs no network: its sheets as data (JSON
 * in a <script> element, cells spelled as report_json.c spells them, so the
 * numbers on the page are those of --format json), the chart library and
 * spoor's script inline (web_assets.h). The script (web/report.js) draws each
 * sheet as the chart its columns' hints ask for, above a table of its cells.
 *
 * Shown: the sheets shown in JSON, and those a command meant for HTML. A sheet
 * of more than HTML_MAX_ROWS rows is sampled evenly (every k-th row, k said
 * in the data and on the page): a million-call sheet must not make a page
 * that no browser opens. Timeline sheets (columns of SPOOR_HINT_TIMELINE) are
 * never sampled: their view reads them whole (web/timeline.js), and they are
 * bounded by design (cells and kept events within budgets, timeline.h). */
#include "out/report_internal.h"
#include "out/web_assets.h"
#include "out/write_internal.h"

#include <string.h>

enum { HTML_MAX_ROWS = 2000 };

static const char *const kind_names[] = {"rows", "props", "list"};
static const char *const unit_names[] = {"",      "count", "bytes", "ns",     "per_s",
                                         "MiB/s", "bytes/s", "ratio", "share", "change"};
/* By enum spoor_col_hint, every hint named (a timeline sheet is drawn by its own view). */
static const char *const hint_names[] = {[SPOOR_HINT_NONE] = "",           [SPOOR_HINT_TIME] = "time",
                                         [SPOOR_HINT_SERIES] = "series",   [SPOOR_HINT_CATEGORY] = "category",
                                         [SPOOR_HINT_STACKED] = "stacked", [SPOOR_HINT_PIVOT] = "pivot",
                                         [SPOOR_HINT_TIMELINE] = "timeline", [SPOOR_HINT_BOX] = "box"};
_Static_assert(sizeof hint_names / sizeof *hint_names == SPOOR_HINT_BOX + 1, "a hint without a name");

static void put_text(struct wbuf *b, const char *s) { wbuf_put(b, s, strlen(s)); }

/* text as HTML element content. */
static void html_text(struct wbuf *b, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': put_text(b, "&amp;"); break;
        case '<': put_text(b, "&lt;"); break;
        case '>': put_text(b, "&gt;"); break;
        default: wbuf_byte(b, *s);
        }
    }
}

static void json_member(struct wbuf *b, const char *key, const char *text)
{
    json_text(b, key, strlen(key));
    wbuf_byte(b, ':');
    if (text)
        json_text(b, text, strlen(text));
    else
        put_text(b, "null");
    wbuf_byte(b, ',');
}

static bool is_timeline(const struct spoor_sheet *s)
{
    return s->ncols && s->col_hint[0] == SPOOR_HINT_TIMELINE;
}

static bool html_shown(const struct spoor_sheet *s)
{
    return report_shown(s, SPOOR_FORMAT_JSON) || report_shown(s, SPOOR_FORMAT_HTML);
}

/* The rows of a rows sheet, every `every`-th one, as JSON objects. */
static void sheet_rows(struct wbuf *b, const struct spoor_sheet *s, size_t every)
{
    struct spoor_sheet *scratch = s->fill ? report_scratch(s) : NULL;
    struct iso_day day = ISO_DAY_NONE;
    wbuf_byte(b, '[');
    for (size_t r = 0; r < report_nrows(s); r += every) {
        if (r)
            wbuf_byte(b, ',');
        if (scratch) {
            report_refill(scratch, s, r, 1, NULL);
            report_json_row_object(b, scratch, 0, &day);
        } else {
            report_json_row_object(b, s, r, &day);
        }
    }
    wbuf_byte(b, ']');
    report_sheet_free(scratch);
}

/* {"key", "title", "footer", "kind", "json": shown in JSON, "columns":
 * [{"name", "unit", "hint"}], "rows": all of them, "every": the sampling
 * step, "data": the rows or the properties}. */
static void sheet_data(struct wbuf *b, const struct spoor_sheet *s)
{
    wbuf_byte(b, '{');
    json_member(b, "key", s->key);
    json_member(b, "title", s->title);
    json_member(b, "footer", s->footer);
    json_member(b, "kind", kind_names[s->kind]);
    put_text(b, report_shown(s, SPOOR_FORMAT_JSON) ? "\"json\":true," : "\"json\":false,");
    put_text(b, "\"columns\":[");
    for (size_t c = 0; c < s->ncols; c++) {
        put_text(b, c ? ",{" : "{");
        json_member(b, "name", s->headers[c]);
        json_member(b, "unit", unit_names[s->col_unit[c]]);
        put_text(b, "\"hint\":");
        json_text(b, hint_names[s->col_hint[c]], strlen(hint_names[s->col_hint[c]]));
        wbuf_byte(b, '}');
    }
    size_t rows = report_nrows(s), every = 1;
    if (s->kind == SPOOR_SHEET_ROWS && rows > HTML_MAX_ROWS && !is_timeline(s))
        every = (rows + HTML_MAX_ROWS - 1) / HTML_MAX_ROWS;
    wbuf_reserve(b, 64);
    b->len += (size_t)snprintf(b->data + b->len, 64, "],\"rows\":%zu,\"every\":%zu,\"data\":", rows, every);
    if (s->kind == SPOOR_SHEET_ROWS)
        sheet_rows(b, s, every);
    else
        report_json_sheet_inline(b, s);
    wbuf_byte(b, '}');
}

/* Bytes into an HTML <script> element: '<' as \u003c (JSON has it only
 * inside strings), so no text in a cell can close the element. */
static void put_script_json(struct wbuf *out, const struct wbuf *json)
{
    const char *p = json->data, *end = json->data + json->len;
    while (p < end) {
        const char *lt = memchr(p, '<', (size_t)(end - p));
        const char *stop = lt ? lt : end;
        wbuf_put(out, p, (size_t)(stop - p));
        if (lt)
            put_text(out, "\\u003c");
        p = lt ? lt + 1 : end;
    }
}

static void put_asset(struct wbuf *b, const unsigned char *bytes, size_t len)
{
    wbuf_put(b, (const char *)bytes, len);
}

void report_write_html(struct wbuf *b, const struct spoor_report *r)
{
    struct wbuf data;
    wbuf_init(&data, NULL, 1 << 16);
    put_text(&data, "{\"title\":");
    json_text(&data, r->title, strlen(r->title));
    put_text(&data, ",\"sheets\":[");
    size_t n = 0;
    for (size_t i = 0; i < r->nsheets; i++) {
        if (!html_shown(r->sheets[i]))
            continue;
        if (n++)
            wbuf_byte(&data, ',');
        sheet_data(&data, r->sheets[i]);
    }
    put_text(&data, "]}");

    put_text(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
    html_text(b, r->title);
    put_text(b, "</title>\n<style>\n");
    put_asset(b, spoor_asset_report_css, spoor_asset_report_css_len);
    put_text(b, "</style>\n</head>\n<body>\n<h1>");
    html_text(b, r->title);
    put_text(b, "</h1>\n<main id=\"spoor-report\"><noscript>This report draws its charts with JavaScript.</noscript>"
                "</main>\n<script type=\"application/json\" id=\"spoor-data\">");
    put_script_json(b, &data);
    put_text(b, "</script>\n<script>\n");
    put_asset(b, spoor_asset_echarts, spoor_asset_echarts_len);
    put_text(b, "\n</script>\n<script>\n");
    put_asset(b, spoor_asset_timeline_js, spoor_asset_timeline_js_len);
    put_text(b, "\n</script>\n<script>\n");
    put_asset(b, spoor_asset_report_js, spoor_asset_report_js_len);
    put_text(b, "</script>\n</body>\n</html>\n");
    wbuf_release(&data);
}
