/* CSV lines: RFC 4180 splitting ("" escapes a quote inside a quoted field,
 * quoted fields may hold delimiters), value classification and delimiter
 * sniffing. Tolerant where RFC 4180 is strict: a quote inside an unquoted field
 * is a literal, and text after a closing quote is kept as part of the field. */
#include "read/csv.h"

#include <stdlib.h>
#include <string.h>

void csv_splitter_init(struct csv_splitter *s, char delim)
{
    memset(s, 0, sizeof *s);
    s->delim = delim;
}

void csv_splitter_release(struct csv_splitter *s)
{
    free(s->fields);
    free(s->scratch);
    memset(s, 0, sizeof *s);
}

void csv_splitter_reserve(struct csv_splitter *s, size_t nfields)
{
    if (s->cap >= nfields)
        return;
    s->cap = nfields;
    s->fields = spoor_xrealloc(s->fields, s->cap * sizeof *s->fields);
}

static void push(struct csv_splitter *s, const char *p, size_t n)
{
    if (s->nfields == s->cap)
        csv_splitter_reserve(s, s->cap ? s->cap * 2 : 64);
    s->fields[s->nfields++] = (struct csv_field){p, n};
}

/* A quoted field starting after its opening quote at line[*i]: copies the
 * unescaped text into scratch at *used. False when the line ends inside it. */
static bool quoted_field(struct csv_splitter *s, const char *line, size_t len, size_t *i, size_t *used)
{
    char *out = s->scratch + *used;
    size_t n = 0;
    for (;;) {
        const char *q = memchr(line + *i, '"', len - *i);
        if (!q)
            return false;
        size_t piece = (size_t)(q - (line + *i));
        memcpy(out + n, line + *i, piece);
        n += piece;
        *i += piece + 1;
        if (*i < len && line[*i] == '"') {
            out[n++] = '"';
            (*i)++;
            continue;
        }
        break;
    }
    /* Text between the closing quote and the delimiter is kept. */
    const char *d = memchr(line + *i, s->delim, len - *i);
    size_t rest = d ? (size_t)(d - (line + *i)) : len - *i;
    memcpy(out + n, line + *i, rest);
    n += rest;
    *i += rest;
    push(s, out, n);
    *used += n;
    return true;
}

bool csv_split(struct csv_splitter *s, const char *line, size_t len)
{
    if (s->scratch_cap < len + 1) {
        s->scratch_cap = len + 1 > 256 ? len + 1 : 256;
        free(s->scratch);
        s->scratch = spoor_xmalloc(s->scratch_cap);
    }
    s->nfields = 0;
    size_t i = 0, used = 0;
    for (;;) {
        if (i < len && line[i] == '"') {
            i++;
            if (!quoted_field(s, line, len, &i, &used))
                return false;
        } else {
            const char *d = memchr(line + i, s->delim, len - i);
            size_t n = d ? (size_t)(d - (line + i)) : len - i;
            push(s, line + i, n);
            i += n;
        }
        if (i >= len)
            return true;
        i++; /* the delimiter; a field (maybe empty) always follows it */
    }
}

bool csv_quote_open_at_end(const char *line, size_t len, char delim, bool starts_inside)
{
    bool inside = starts_inside, field_start = !starts_inside;
    for (size_t i = 0; i < len; i++) {
        char c = line[i];
        if (inside) {
            if (c == '"') {
                if (i + 1 < len && line[i + 1] == '"')
                    i++;
                else
                    inside = false;
            }
        } else if (c == '"' && field_start) {
            inside = true;
        }
        field_start = !inside && c == delim;
    }
    return inside;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Exact when the digits fit a double's mantissa and the power of ten is itself
 * exact (10^22 is the largest); otherwise strtod decides. */
static double decimal_to_double(const char *p, size_t n, uint64_t mantissa, int digits, int exp10)
{
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    if (digits <= 15 && exp10 >= -22 && exp10 <= 22) {
        double m = (double)mantissa;
        double v = exp10 < 0 ? m / pow10[-exp10] : m * pow10[exp10];
        return p[0] == '-' ? -v : v;
    }
    char buf[128]; /* csv_classify passes at most 100 bytes */
    memcpy(buf, p, n);
    buf[n] = '\0';
    return strtod(buf, NULL);
}

enum csv_kind csv_classify(const char *p, size_t n, int64_t *iv, double *dv)
{
    spoor_field_trim(&p, &n);
    if (n == 0)
        return CSV_EMPTY;
    if (n > 100)
        return CSV_TEXT;
    enum csv_kind plain;
    if (csv_plain_number(p, n, n, iv, dv, &plain))
        return plain;
    size_t i = 0;
    bool negative = p[0] == '-';
    if (p[0] == '-' || p[0] == '+')
        i++;
    uint64_t mantissa = 0;
    int digits = 0, significant = 0, exp10 = 0;
    bool overflow = false;
    for (; i < n && is_digit(p[i]); i++, digits++) {
        if (significant < 19) {
            mantissa = mantissa * 10 + (uint64_t)(p[i] - '0');
            significant += mantissa != 0;
        } else {
            overflow = true;
            exp10++;
        }
    }
    bool is_int = i == n && digits > 0;
    if (is_int && !overflow && mantissa <= (uint64_t)INT64_MAX + negative) {
        *iv = negative ? (int64_t)(0 - mantissa) : (int64_t)mantissa;
        return CSV_INT;
    }
    if (is_int)
        return CSV_TEXT; /* wider than int64: a hash or an id */
    if (i < n && p[i] == '.') {
        for (i++; i < n && is_digit(p[i]); i++, digits++)
            if (significant < 19) {
                mantissa = mantissa * 10 + (uint64_t)(p[i] - '0');
                significant += mantissa != 0;
                exp10--;
            } else {
                overflow = true;
            }
    }
    if (digits == 0)
        return CSV_TEXT;
    if (i < n && (p[i] == 'e' || p[i] == 'E')) {
        i++;
        bool exp_negative = i < n && p[i] == '-';
        if (i < n && (p[i] == '-' || p[i] == '+'))
            i++;
        int e = 0, exp_digits = 0;
        for (; i < n && is_digit(p[i]); i++, exp_digits++)
            if (e < 10000)
                e = e * 10 + (p[i] - '0');
        if (exp_digits == 0)
            return CSV_TEXT;
        exp10 += exp_negative ? -e : e;
    }
    if (i != n)
        return CSV_TEXT;
    *dv = decimal_to_double(p, n, mantissa, overflow ? 99 : significant, exp10);
    return CSV_FLOAT;
}

/* Delimiters outside quotes; a "" escape toggles twice and so changes nothing.
 * *inside carries an open quote from one line to the next. */
static int count_outside_quotes(const char *line, size_t len, char delim, bool *inside)
{
    int count = 0;
    for (size_t i = 0; i < len; i++) {
        if (line[i] == '"')
            *inside = !*inside;
        else if (line[i] == delim && !*inside)
            count++;
    }
    return count;
}

/* The first lines of head (an unterminated last line may be cut short: it is
 * used only when it is the only one); empty lines are passed over. */
static int sample_lines(const char *head, size_t len, struct csv_field *lines, int max)
{
    int nlines = 0;
    for (size_t i = spoor_bom_len(head, len); i < len && nlines < max;) {
        const char *nl = memchr(head + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - head) : len;
        if (!nl && nlines > 0)
            break;
        size_t n = end - i;
        if (n > 0 && head[end - 1] == '\r')
            n--;
        if (n > 0 || nlines == 0)
            lines[nlines++] = (struct csv_field){head + i, n};
        i = end + 1;
    }
    return nlines;
}

/* A header a one-column CSV can have: one plain name, no blanks. */
static bool plain_name(const char *p, size_t n)
{
    if (n == 0 || n > 64 || !(p[0] == '_' || ((p[0] | 0x20) >= 'a' && (p[0] | 0x20) <= 'z')))
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = p[i], l = (char)(c | 0x20);
        if (!(c == '_' || c == '.' || c == '-' || (c >= '0' && c <= '9') || (l >= 'a' && l <= 'z')))
            return false;
    }
    return true;
}

/* A value of a one-column CSV: quoted whole, or one token without blanks
 * (a number, a time, a word), so that text tables and prose are not taken
 * for a column. */
static bool single_value(const char *p, size_t n)
{
    if (n >= 2 && p[0] == '"' && p[n - 1] == '"')
        return true;
    return memchr(p, ' ', n) == NULL && memchr(p, '\t', n) == NULL;
}

/* Whether the lines look like a header of one plain name above values. */
static bool one_column(const struct csv_field *lines, int n)
{
    if (n < 2 || !plain_name(lines[0].p, lines[0].n))
        return false;
    for (int k = 1; k < n; k++)
        if (!single_value(lines[k].p, lines[k].n))
            return false;
    return true;
}

char csv_sniff_delim(const char *head, size_t len, struct csv_sniffed *out)
{
    enum { SAMPLE_LINES = 20 };
    static const char candidates[] = {',', ';', '\t', '|'};
    struct csv_field lines[SAMPLE_LINES];
    int nlines = sample_lines(head, len, lines, SAMPLE_LINES);
    char best = ',';
    int best_agree = 0, best_count = 0, best_present = 0, records = nlines;
    for (size_t c = 0; c < sizeof candidates && nlines > 0; c++) {
        bool inside = false;
        int first = count_outside_quotes(lines[0].p, lines[0].n, candidates[c], &inside);
        if (first == 0)
            continue;
        /* per record: a quoted field may hold line breaks */
        int agree = 0, present = 0, count = 0;
        records = 0;
        inside = false;
        for (int k = 0; k < nlines; k++) {
            count += count_outside_quotes(lines[k].p, lines[k].n, candidates[c], &inside);
            if (inside)
                continue;
            records++;
            agree += count == first;
            present += count > 0;
            count = 0;
        }
        if (agree > best_agree || (agree == best_agree && first > best_count)) {
            best = candidates[c];
            best_agree = agree;
            best_count = first;
            best_present = present;
        }
    }
    if (out)
        *out = (struct csv_sniffed){.agree = best_agree, .present = best_present, .sampled = records,
                                    .one_column = best_agree == 0 && one_column(lines, nlines)};
    return best;
}
