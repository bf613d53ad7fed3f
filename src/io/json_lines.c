/* JSON lines with raw newlines inside strings. DFTracer 1.0 wrote a file
 * name holding an unescaped newline, so one event spans two lines. Such a
 * line is told from its end and the next line's start alone: an event line
 * ends with `}` (then maybe `,` or `]`), a structural line with a bracket
 * or ','; a line ending in anything else was cut short, and goes on in the
 * next line unless that one starts an object. Only the bytes around one
 * newline are looked at, so a chunk's end and a part's start decide alike,
 * and the parser joins exactly the lines the cursors keep together. */
#include <string.h>

#include "io/internal.h"
#include "io/input.h"

static inline bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

int spoor_json_line_joins(const char *line_start, const char *line_end, const char *next, const char *next_end)
{
    const char *p = line_end;
    while (p > line_start && blank(p[-1]))
        p--;
    if (p == line_start || strchr("}],[{", p[-1]))
        return 0;
    while (next < next_end && (blank(*next) || *next == '[' || *next == ','))
        next++;
    if (next == next_end)
        return -1;
    return *next != '{' && *next != '\n' && *next != ']';
}

const char *io_lines_cut(enum spoor_records records, const char *buf, const char *nl, const char *end, bool at_end)
{
    while (nl) {
        const char *start = memrchr(buf, '\n', (size_t)(nl - buf));
        int joins = spoor_record_line_joins(records, start ? start + 1 : buf, nl, nl + 1, end);
        if (joins == 0 || (joins < 0 && at_end))
            return nl;
        nl = start;
    }
    return NULL;
}
