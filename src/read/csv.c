/* The CSV reader's detection: the header row names the fields, the delimiter
 * is given or sniffed, and each column's type is inferred from the head, so
 * that every chunk (parsed on any thread) reads a column the same way. */
#include "read/csv.h"
#include "read/time_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_time(const struct csv_field *f)
{
    const char *p = f->p;
    size_t n = f->n;
    spoor_field_trim(&p, &n);
    int64_t ns;
    return n >= 10 && spoor_time_parse_iso(p, n, &ns);
}

/* Whether the first line of head is a record rather than a header: every
 * field a number or a time (a headerless numeric table), or a time in a
 * column that holds times below too (a log: `2022-03-31 12:05:09,054:INFO:
 * ...` splits on its one comma like a two-column table). A header names its
 * columns; a date heading a column of numbers (a pivot table) is a name. */
static bool first_line_is_record(const char *head, size_t len, char delim)
{
    enum { LOOK_LINES = 8 };
    struct csv_splitter s;
    csv_splitter_init(&s, delim);
    size_t nfields = 0;
    int compared = 0;
    bool *times = NULL, numeric = true, filled = false, record = false;
    const char *p = head + spoor_bom_len(head, len), *end = head + len;
    for (int lines = 0; p < end && lines <= LOOK_LINES && !record;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl && lines > 0)
            break;  /* the head may cut its last line short */
        const char *le = nl ? nl : end;
        size_t n = (size_t)(le - p);
        if (n > 0 && p[n - 1] == '\r')
            n--;
        bool split = n > 0 && csv_split(&s, p, n);
        if (n > 0 && !split && lines == 0)
            break;  /* a header with a line break: csv_detect says what is wrong */
        if (split) {
            if (lines == 0) {
                nfields = s.nfields;
                times = spoor_xcalloc(nfields, sizeof *times);
                for (size_t k = 0; k < nfields; k++) {
                    int64_t iv;
                    double dv;
                    times[k] = is_time(&s.fields[k]);
                    enum csv_kind kind = csv_classify(s.fields[k].p, s.fields[k].n, &iv, &dv);
                    numeric &= times[k] || kind <= CSV_FLOAT;
                    filled |= kind != CSV_EMPTY;
                }
                record = numeric && filled;
            } else if (s.nfields == nfields) {
                for (size_t k = 0; k < nfields; k++)
                    times[k] &= is_time(&s.fields[k]);
                compared++;
            }
            lines++;
        }
        p = nl ? nl + 1 : end;
    }
    for (size_t k = 0; k < nfields && compared > 0; k++)
        record |= times[k];
    free(times);
    csv_splitter_release(&s);
    return record;
}

/* Confident only when one delimiter is used consistently: it splits the
 * first line into fields, occurs in every sampled record and splits most of
 * them like the first; and the first line is a header, not a record. A table
 * aligned with blanks, a log or prose is not CSV (0), so detection says so
 * instead of taking the first record for a header. One column has no
 * delimiter to check: it needs a header of one plain name above single
 * values (csv_line.c). */
static int csv_sniff(const char *head, size_t len)
{
    size_t bom = spoor_bom_len(head, len);
    size_t i = bom;
    while (i < len && (head[i] == ' ' || head[i] == '\t'))
        i++;
    if (i == len || head[i] == '{' || head[i] == '[' || head[i] == '\n' || head[i] == '\r')
        return 0;
    struct csv_sniffed s;
    char delim = csv_sniff_delim(head, len, &s);
    if (s.agree == 0)
        return s.one_column ? 30 : 0;
    if (s.present < s.sampled || s.agree * 2 <= s.sampled || first_line_is_record(head, len, delim))
        return 0;
    return s.agree == s.sampled && s.sampled >= 2 ? 60 : 40;
}

static void csv_release(struct spoor_dialect *d)
{
    struct csv_state *st = d->state;
    if (!st)
        return;
    for (size_t i = 0; i < st->nfields; i++)
        free(st->names[i]);
    free(st->names);
    free(st->kind);
    free(st->keep);
    spoor_field_map_release(&st->map);
    free(st);
    d->state = NULL;
}

/* Header names, trimmed; empty ones become column_N and repeats get ".1",
 * ".2", ... (as pandas does), so every field has its own column. */
static void name_fields(struct csv_state *st, const struct csv_splitter *s)
{
    struct spoor_strpool *seen = spoor_strpool_new();
    char buf[64];
    for (size_t i = 0; i < st->nfields; i++) {
        const char *p = s->fields[i].p;
        size_t n = s->fields[i].n;
        spoor_field_trim(&p, &n);
        char *name;
        if (n == 0) {
            snprintf(buf, sizeof buf, "column_%zu", i + 1);
            name = spoor_xstrdup(buf);
        } else {
            name = spoor_xmalloc(n + 1);
            memcpy(name, p, n);
            name[n] = '\0';
        }
        for (unsigned k = 1; spoor_strpool_find(seen, name, strlen(name)) != UINT32_MAX; k++) {
            size_t base = strlen(name);
            char *next = spoor_xmalloc(base + 16);
            snprintf(next, base + 16, "%s.%u", name, k);
            if (spoor_strpool_find(seen, next, strlen(next)) == UINT32_MAX) {
                free(name);
                name = next;
                break;
            }
            free(next);
        }
        spoor_strpool_intern(seen, name, strlen(name));
        st->names[i] = name;
    }
    spoor_strpool_free(seen);
}

/* The message for a field the user named that the header lacks. */
static int missing_field(const struct csv_state *st, enum spoor_fixed f, struct spoor_error *err)
{
    char list[600] = "";
    size_t used = 0;
    for (size_t i = 0; i < st->nfields && used + 8 < sizeof list; i++) {
        int w = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", st->names[i]);
        used = w < 0 ? used : used + (size_t)w;
    }
    if (used >= sizeof list)
        memcpy(list + sizeof list - 4, "...", 4);
    return spoor_fail(err, SPOOR_EUSAGE, "no column '%s' (--%s) in the CSV header: %s", st->map.field[f],
                      st->map.option[f], list);
}

static int map_fields(struct csv_state *st, struct spoor_error *err)
{
    for (int f = 0; f < SPOOR_FIXED_COUNT; f++)
        st->fixed_pos[f] = -1;
    for (size_t i = 0; i < st->nfields; i++) {
        size_t n = strlen(st->names[i]);
        unsigned roles = spoor_field_map_roles(&st->map, st->names[i], n);
        for (int f = 0; f < SPOOR_FIXED_COUNT; f++)
            if ((roles & (1u << f)) && st->fixed_pos[f] < 0)
                st->fixed_pos[f] = (int)i;
        st->keep[i] = spoor_field_map_keeps(&st->map, st->names[i], n, roles);
    }
    for (int f = 0; f < SPOOR_FIXED_COUNT; f++)
        if (st->fixed_pos[f] < 0 && st->map.named[f])
            return missing_field(st, f, err);
    return SPOOR_OK;
}

/* Widens each column's kind by the rows of the head and samples the ts field. */
static void infer_kinds(struct csv_state *st, struct csv_splitter *s, const char *p, size_t len,
                        struct spoor_unit_guess *guess)
{
    bool open_quote = false, have_rows = false;
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(p + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - p) : len;
        const char *line = p + i;
        size_t n = end - i;
        i = end + 1;
        /* The head may cut the last line short: use it only when nothing else is there. */
        if (!nl && have_rows)
            break;
        if (n > 0 && line[n - 1] == '\r')
            n--;
        if (open_quote) {
            open_quote = csv_quote_open_at_end(line, n, st->delim, true);
            continue;
        }
        if (n == 0)
            continue;
        if (!csv_split(s, line, n)) {
            open_quote = true;
            continue;
        }
        if (s->nfields != st->nfields)
            continue;
        have_rows = true;
        for (size_t k = 0; k < st->nfields; k++) {
            int64_t iv;
            double dv;
            enum csv_kind kind = csv_classify(s->fields[k].p, s->fields[k].n, &iv, &dv);
            if (kind > st->kind[k])
                st->kind[k] = kind;
        }
        int ts = st->fixed_pos[SPOOR_FIXED_TS];
        if (ts >= 0 && s->fields[ts].n)
            spoor_unit_guess_add(guess, s->fields[ts].p, s->fields[ts].n);
    }
}

static int csv_detect(const char *head, size_t len, const struct spoor_read_opts *opts, struct spoor_dialect *d,
                      struct spoor_error *err)
{
    if (opts->csv_delim == '"' || opts->csv_delim == '\n' || opts->csv_delim == '\r')
        return spoor_fail(err, SPOOR_EUSAGE, "a quote or a line end cannot be the CSV delimiter");
    struct csv_state *st = spoor_xcalloc(1, sizeof *st);
    d->state = st;
    d->format = &spoor_format_csv;
    snprintf(d->name, sizeof d->name, "csv");
    spoor_field_map_init(&st->map, opts);
    size_t bom = spoor_bom_len(head, len);
    const char *p = head + bom;
    len -= bom;
    st->delim = opts->csv_delim ? opts->csv_delim : csv_sniff_delim(p, len, NULL);
    if (!opts->csv_delim && st->delim != ',') {
        char shown[3] = {st->delim, 0, 0};
        if (st->delim == '\t')
            memcpy(shown, "\\t", 3);
        spoor_dialect_assume(d, "delimiter '%s' (sniffed; use --delimiter)", shown);
    }
    struct spoor_unit_guess guess = {0};
    if (len == 0) {
        spoor_field_map_settle_units(&st->map, opts, &guess, 0, d);
        return SPOOR_OK;
    }
    const char *nl = memchr(p, '\n', len);
    size_t header_len = nl ? (size_t)(nl - p) : len;
    size_t body = nl ? header_len + 1 : len;
    if (header_len > 0 && p[header_len - 1] == '\r')
        header_len--;
    if (header_len == 0) {
        csv_release(d);
        return spoor_fail(err, SPOOR_EFORMAT, "the first line (the CSV header) is empty");
    }
    struct csv_splitter s;
    csv_splitter_init(&s, st->delim);
    int status = SPOOR_OK;
    if (!csv_split(&s, p, header_len)) {
        status = spoor_fail(err, SPOOR_EFORMAT, "the CSV header has a quoted field with a line break");
        goto out;
    }
    st->nfields = s.nfields;
    st->names = spoor_xcalloc(st->nfields, sizeof *st->names);
    st->kind = spoor_xcalloc(st->nfields, sizeof *st->kind);
    st->keep = spoor_xcalloc(st->nfields, sizeof *st->keep);
    name_fields(st, &s);
    status = map_fields(st, err);
    if (status != SPOOR_OK)
        goto out;
    infer_kinds(st, &s, p + body, len - body, &guess);
    unsigned present = 0;
    for (int f = 0; f < SPOOR_FIXED_COUNT; f++)
        present |= st->fixed_pos[f] >= 0 ? 1u << f : 0;
    spoor_field_map_settle_units(&st->map, opts, &guess, present, d);
out:
    csv_splitter_release(&s);
    if (status != SPOOR_OK)
        csv_release(d);
    return status;
}

const struct spoor_format spoor_format_csv = {
    .name = "csv",
    .sniff = csv_sniff,
    .detect = csv_detect,
    .parse = csv_parse,
    .release = csv_release,
};
