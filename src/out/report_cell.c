/* How a cell is spelled: plainly for CSV and JSON (integers as they are,
 * floats to their digits or the shortest that reads back, times ISO-8601),
 * for a reader in a text table (by its unit: "1,234", "2.25 ms", "12.5%"). */
#include "out/report_rows.h"
#include "out/write_internal.h"
#include "out/format_g.h"
#include "spoor/report.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

bool report_numeric_type(unsigned char type)
{
    return type == SPOOR_CELL_INT || type == SPOOR_CELL_COUNT || type == SPOOR_CELL_FLOAT;
}

size_t report_parts(const struct spoor_sheet *s, int threads)
{
    size_t n = s->nrows / REPORT_ROWS_PER_THREAD, most = threads > 1 ? (size_t)threads : 1;
    return n < 1 ? 1 : n > most ? most : n;
}

/* v in width digits, zeros in front; the end. */
static char *put_digits(char *p, unsigned v, int width)
{
    for (int k = width - 1; k >= 0; k--, v /= 10)
        p[k] = (char)('0' + v % 10);
    return p + width;
}

/* ISO-8601 of a UTC time as seen at the offset ("Z" for UTC) in buf (48
 * bytes); returns its length. Written digit by digit: a resample sheet has
 * one per row, too many for snprintf. */
static size_t iso_text(char *buf, int64_t utc_ns, int64_t offset_ns, struct iso_day *date)
{
    int64_t local_s = (utc_ns + offset_ns) / 1000000000LL - ((utc_ns + offset_ns) % 1000000000LL < 0);
    int64_t frac = (utc_ns + offset_ns) - local_s * 1000000000LL;
    int64_t day = local_s / 86400 - (local_s % 86400 < 0), second = local_s - day * 86400;
    if (day != date->day) {
        time_t t = (time_t)local_s;
        struct tm tm;
        gmtime_r(&t, &tm);
        *date = (struct iso_day){day, tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday};
    }
    char *p = buf;
    if (date->year >= 0 && date->year <= 9999)
        p = put_digits(p, (unsigned)date->year, 4);
    else
        p += snprintf(p, 16, "%04d", date->year);
    const struct {
        char sep;
        int value;
    } parts[] = {{'-', date->mon},
                 {'-', date->mday},
                 {'T', (int)(second / 3600)},
                 {':', (int)(second / 60 % 60)},
                 {':', (int)(second % 60)}};
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
        *p++ = parts[i].sep;
        p = put_digits(p, (unsigned)parts[i].value, 2);
    }
    if (frac) {
        *p++ = '.';
        p = put_digits(p, (unsigned)frac, 9);
    }
    if (offset_ns) {
        int64_t min = (offset_ns < 0 ? -offset_ns : offset_ns) / 60000000000LL;
        *p++ = offset_ns < 0 ? '-' : '+';
        p = put_digits(p, (unsigned)(min / 60), 2);
        *p++ = ':';
        p = put_digits(p, (unsigned)(min % 60), 2);
    } else {
        *p++ = 'Z';
    }
    *p = '\0';
    return (size_t)(p - buf);
}

/* A text, name or time cell's text. */
const char *report_cell_text(const struct spoor_sheet *s, union report_value v, unsigned char type, char *buf,
                             struct iso_day *day, size_t *len)
{
    if (type == SPOOR_CELL_TIME) {
        *len = iso_text(buf, v.i, s->time_offset_ns, day);
        return buf;
    }
    const char *text = type == SPOOR_CELL_TEXT ? s->text + v.text : v.name;
    *len = strlen(text);
    return text;
}

/* Doubles as "%.*f", "%.*g", or the shortest of 15 to 17 significant digits
 * that reads back the same. */
size_t report_float_text(char *buf, double v, int digits)
{
    if (digits >= 0)
        return (size_t)snprintf(buf, 48, "%.*f", digits, v);
    if (digits < SPOOR_DIGITS_SHORTEST)
        return (size_t)snprintf(buf, 48, "%.*g", -1 - digits, v);
    int n = 0;
    for (int d = 15; d <= 17; d++) {
        n = snprintf(buf, 48, "%.*g", d, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return (size_t)n;
}

bool report_put_number(struct wbuf *b, union report_value v, unsigned char type, int digits)
{
    char buf[48];
    switch ((enum spoor_cell_type)type) {
    case SPOOR_CELL_INT:
        wbuf_i64(b, v.i);
        return true;
    case SPOOR_CELL_COUNT:
        wbuf_reserve(b, 20);
        b->len += spoor_format_u64(b->data + b->len, v.u);
        return true;
    case SPOOR_CELL_BOOL:
        wbuf_put(b, v.b ? "true" : "false", v.b ? 4 : 5);
        return true;
    case SPOOR_CELL_FLOAT:
        if (v.f != v.f) /* NaN: null */
            return false;
        if (digits == SPOOR_DIGITS_SHORTEST)
            wbuf_f64(b, v.f);
        else
            wbuf_put(b, buf, report_float_text(buf, v.f, digits));
        return true;
    default:
        return false;
    }
}

/* A number as a reader wants it, by its unit. */
static size_t number_for_table(char *buf, double v, bool integer, enum spoor_cell_unit unit)
{
    switch (unit) {
    case SPOOR_CU_COUNT:
    case SPOOR_CU_BYTES:
        if (integer && v >= 0) {
            spoor_fmt_count(buf, 64, (unsigned long long)v);
            return strlen(buf);
        }
        break;
    case SPOOR_CU_NS:
        spoor_fmt_duration(buf, 64, v);
        return strlen(buf);
    case SPOOR_CU_PER_S:
        return (size_t)snprintf(buf, 64, "%.0f", v);
    case SPOOR_CU_MIB_PER_S:
        return (size_t)snprintf(buf, 64, "%.1f", v);
    case SPOOR_CU_RATIO:
        return (size_t)snprintf(buf, 64, "%.2f", v);
    case SPOOR_CU_SHARE:
        return (size_t)snprintf(buf, 64, "%.1f%%", 100 * v);
    case SPOOR_CU_CHANGE:
        return (size_t)snprintf(buf, 64, "%+.1f%%", 100 * v);
    case SPOOR_CU_NONE:
    case SPOOR_CU_BYTES_PER_S:
        break;
    }
    return spoor_format_g6(buf, 64, v);
}

const char *report_spell_table(const struct spoor_sheet *s, size_t i, char *buf, struct iso_day *day, size_t *len)
{
    union report_value v = s->values[i];
    enum spoor_cell_unit unit = report_unit(s, i);
    switch ((enum spoor_cell_type)s->types[i]) {
    case SPOOR_CELL_TEXT:
    case SPOOR_CELL_NAME:
    case SPOOR_CELL_TIME: {
        const char *text = report_cell_text(s, v, s->types[i], buf, day, len);
        if (*len)
            return text;
        *len = 6; /* an empty text shows as "(none)" */
        return "(none)";
    }
    case SPOOR_CELL_COUNT:
        if (unit == SPOOR_CU_NONE || unit == SPOOR_CU_COUNT || unit == SPOOR_CU_BYTES) {
            *len = unit == SPOOR_CU_NONE ? spoor_format_u64(buf, v.u) : strlen(spoor_fmt_count(buf, 64, v.u));
            return buf;
        }
        *len = number_for_table(buf, (double)v.u, true, unit);
        return buf;
    case SPOOR_CELL_INT:
        if (unit == SPOOR_CU_NONE) {
            *len = (size_t)snprintf(buf, 64, "%" PRId64, v.i);
            return buf;
        }
        if ((unit == SPOOR_CU_COUNT || unit == SPOOR_CU_BYTES) && v.i >= 0) {
            *len = strlen(spoor_fmt_count(buf, 64, (unsigned long long)v.i));
            return buf;
        }
        *len = number_for_table(buf, (double)v.i, true, unit);
        return buf;
    case SPOOR_CELL_FLOAT:
        if (isnan(v.f))
            break;
        /* digits asked for hold in a table too, unless the unit has its own */
        *len = unit == SPOOR_CU_NONE && report_digits(s, i) != SPOOR_DIGITS_SHORTEST
                   ? report_float_text(buf, v.f, report_digits(s, i))
                   : number_for_table(buf, v.f, false, unit);
        return buf;
    case SPOOR_CELL_BOOL:
        *len = v.b ? 4 : 5;
        return v.b ? "true" : "false";
    case SPOOR_CELL_ABSENT:
        *len = 0;
        return "";
    case SPOOR_CELL_NULL:
    case SPOOR_CELL_SHEET:
        break;
    }
    *len = 1;
    return "-";
}
