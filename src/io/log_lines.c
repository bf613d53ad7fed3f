/* Log records that span lines: a Python logging record whose message holds
 * newlines (a traceback, a pretty-printed dict) goes on in the lines after
 * it, which do not begin with the record's `YYYY-MM-DD HH:MM:SS` stamp. As
 * for JSON lines (json_lines.c), whether a line joins the next is told from
 * the bytes around one newline, so chunk ends and part starts agree with the
 * parser on where records begin. */
#include "io/internal.h"
#include "io/input.h"

static bool digit(char c) { return c >= '0' && c <= '9'; }

bool spoor_log_record_start(const char *p, const char *end)
{
    static const char shape[] = "dddd-dd-dd dd:dd:dd";
    if (end - p < 19)
        return false;
    for (int i = 0; i < 19; i++)
        if (shape[i] == 'd' ? !digit(p[i]) : p[i] != shape[i] && !(i == 10 && p[i] == 'T'))
            return false;
    return true;
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
