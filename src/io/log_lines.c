/* Log records that span lines: a Python logging record whose message holds
 * newlines (a traceback, a pretty-printed dict) goes on in the lines after
 * it, which do not begin with the record's `YYYY-MM-DD HH:MM:SS` stamp. As
 * for JSON lines (json_lines.c), whether a line joins the next is told from
 * the bytes around one newline, so chunk ends and part starts agree with the
 * parser on where records begin. */
#include "io/internal.h"
#include "io/input.h"
#include "util/digits.h"

/* "dddd-dd-dd dd:dd:dd" ('T' for the blank allowed), three words at a time:
 * bytes 0-7, 8-15 and 11-18. */
bool spoor_log_record_start(const char *p, const char *end)
{
    if (end - p < 19 || (p[10] != ' ' && p[10] != 'T'))
        return false;
    const uint8_t *u = (const uint8_t *)p;
    uint64_t blank_colon = (uint64_t)u[10] << 16 | 0x00003A0000000000ULL; /* bytes 10 and 13 */
    return spoor_digits8_between(spoor_get64(u), 0xFF0000FF00000000ULL, 0x2D00002D00000000ULL) &&
           spoor_digits8_between(spoor_get64(u + 8), 0x0000FF0000FF0000ULL, blank_colon) &&
           spoor_digits8_between(spoor_get64(u + 11), 0x0000FF0000FF0000ULL, 0x00003A00003A0000ULL);
}

int spoor_log_line_joins(const char *next, const char *next_end)
{
    for (const char *p = next; p < next + 19; p++)
        if (p == next_end)
            return -1;
        else if (*p == '\n')
            return 1;
    return !spoor_log_record_start(next, next_end);
}

int spoor_record_line_joins(enum spoor_records records, const char *line_start, const char *line_end,
                            const char *next, const char *next_end)
{
    switch (records) {
    case SPOOR_RECORDS_JSON_LINES: return spoor_json_line_joins(line_start, line_end, next, next_end);
    case SPOOR_RECORDS_LOG_LINES: return spoor_log_line_joins(next, next_end);
    default: return 0;
    }
}
