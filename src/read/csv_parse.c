/* The CSV reader's chunk parser: splits each line, fills the fixed columns from
 * the mapped fields and one dynamic column per kept field, read as the kind the
 * head showed (a later value of a wider kind promotes the column). */
#include "read/csv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

enum { NO_COLUMN = -1 };

/* Per-chunk working memory. */
struct csv_parser {
    const struct csv_state *st;
    struct spoor_parse_job *job;
    struct csv_splitter split;
    int *cols;                          /* dynamic column per field, or NO_COLUMN */
    struct csv_number_field *numbers;   /* the kept fields the head showed as numbers */
    size_t nnumbers;
    uint32_t *texts;                    /* the other kept fields */
    size_t ntexts;
    uint32_t *left;                     /* numbers csv_store_numbers left to set_dynamic */
    struct spoor_string_memo *memo;     /* per field */
    const char *buf, *buf_end;          /* the chunk: text there stays put */
    struct {                            /* the last time read: rows often share it */
        const char *p;
        size_t n;
        int64_t ns;
    } last_time;
};

/* The memo for field k, when its text lies in the chunk (not in the splitter's
 * scratch, which the next line overwrites). */
static struct spoor_string_memo *memo_for(struct csv_parser *cp, size_t k)
{
    const char *p = cp->split.fields[k].p;
    return p >= cp->buf && p < cp->buf_end ? &cp->memo[k] : NULL;
}

enum { BLOCK = 16 };

static void marks_of(const char *p, char delim, unsigned *delims, unsigned *quotes)
{
#if defined(__SSE2__)
    __m128i v = _mm_loadu_si128((const __m128i *)p);
    *delims = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(delim)));
    *quotes = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
#else
    *delims = *quotes = 0;
    for (unsigned i = 0; i < BLOCK; i++) {
        *delims |= (unsigned)(p[i] == delim) << i;
        *quotes |= (unsigned)(p[i] == '"') << i;
    }
#endif
}

/* The last bytes of the buffer, then zeros. Out of line: the usual block
 * neither zeroes nor copies. */
static __attribute__((noinline)) void padded_marks(const char *p, size_t avail, char delim, unsigned *delims,
                                                   unsigned *quotes)
{
    char padded[BLOCK] = {0};
    memcpy(padded, p, avail);
    marks_of(padded, delim, delims, quotes);
}

/* Bit i set where block[i] is the delimiter, and where it is a quote, for the
 * 16 bytes at p (bytes past avail read as zero). */
static void block_marks(const char *p, size_t avail, char delim, unsigned *delims, unsigned *quotes)
{
    if (avail < BLOCK)
        padded_marks(p, avail, delim, delims, quotes);
    else
        marks_of(p, delim, delims, quotes);
}

/* Splits a line without quotes: the delimiters 16 bytes at a time. The
 * splitter has room for a block's worth of fields past nfields, so the count
 * is checked once a block. False when the line holds a quote or too many
 * fields: csv_split decides. */
static bool split_simple(struct csv_parser *cp, const char *line, size_t n)
{
    struct csv_splitter *s = &cp->split;
    size_t nfields = cp->st->nfields, k = 0, start = 0;
    if (nfields == 0)
        return false;
    for (size_t off = 0; off < n; off += BLOCK) {
        unsigned delims, quotes, live = n - off >= BLOCK ? 0xffffu : (1u << (n - off)) - 1;
        block_marks(line + off, (size_t)(cp->buf_end - (line + off)), s->delim, &delims, &quotes);
        if (quotes & live)
            return false;
        for (delims &= live; delims; delims &= delims - 1) {
            size_t end = off + (size_t)__builtin_ctz(delims);
            s->fields[k++] = (struct csv_field){line + start, end - start};
            start = end + 1;
        }
        if (k >= nfields)
            return false;
    }
    s->fields[k++] = (struct csv_field){line + start, n - start};
    s->nfields = k;
    return true;
}

/* Stores a number in its numeric column: straight into the array when the
 * column already has that type (the usual case), else through the table. */
static void set_number(struct spoor_table *t, struct spoor_column *col, size_t row, const struct spoor_value *v)
{
    if (col->typed && col->type == v->type) {
        if (v->type == SPOOR_F64)
            col->f64[row] = v->f64;
        else
            col->i64[row] = v->i64;
        col->valid[row / 64] |= 1ULL << (row % 64);
        return;
    }
    spoor_table_set(t, col, row, v);
}

/* Stores one field in its dynamic column. A column that held text in the head
 * keeps every value as text ("007" stays "007"); a float column stores integers
 * as floats so that every batch gives the column the same type. */
static void set_dynamic(struct spoor_table *t, struct spoor_column *col, size_t row, enum csv_kind head_kind,
                        const char *p, size_t n, struct spoor_string_memo *memo)
{
    struct spoor_value v = {.text = p, .text_len = n};
    enum csv_kind kind = head_kind == CSV_TEXT ? (spoor_field_is_blank(p, n) ? CSV_EMPTY : CSV_TEXT)
                                               : csv_classify(p, n, &v.i64, &v.f64);
    switch (kind) {
    case CSV_EMPTY:
        return;
    case CSV_INT:
        v.type = SPOOR_I64;
        if (head_kind == CSV_FLOAT) {
            v.type = SPOOR_F64;
            v.f64 = (double)v.i64;
        }
        break;
    case CSV_FLOAT:
        v.type = SPOOR_F64;
        break;
    case CSV_TEXT:
        v.type = SPOOR_STR;
        v.str = memo ? spoor_memo_intern(memo, t, p, n) : spoor_table_intern(t, p, n);
        spoor_table_set(t, col, row, &v);
        return;
    }
    set_number(t, col, row, &v);
}

/* Whether a time field repeats the last time read, byte for byte. */
static bool same_time_text(const struct csv_parser *cp, const struct csv_field *f)
{
    return cp->last_time.p && f->n == cp->last_time.n && memcmp(f->p, cp->last_time.p, f->n) == 0;
}

/* Fills the name or cat column from field pos. A string its memo holds is not
 * blank (a blank field leaves the column absent and never reaches the memo), so
 * a hit, the usual row, skips the blank test and spoor_field_map_set_fixed. */
static void set_name_field(struct csv_parser *cp, struct spoor_table *t, size_t row, enum spoor_fixed f, size_t pos)
{
    const char *p = cp->split.fields[pos].p;
    size_t n = cp->split.fields[pos].n;
    uint32_t *column = f == SPOOR_FIXED_NAME ? t->name : t->cat;
    struct spoor_string_memo *memo = memo_for(cp, pos);
    if (memo && n <= UINT32_MAX) {
        struct spoor_memo_key k = spoor_memo_key(p, n);
        if (spoor_memo_hit(memo, k, p, n)) {
            column[row] = memo->way[k.way].id;
            return;
        }
    }
    if (!spoor_field_is_blank(p, n))
        column[row] = memo ? spoor_memo_intern(memo, t, p, n) : spoor_table_intern(t, p, n);
}

/* Adds the row for a split line; returns NULL or the skip reason (row dropped). */
static const char *add_row(struct csv_parser *cp, uint64_t line_no)
{
    const struct csv_state *st = cp->st;
    const struct csv_field *fields = cp->split.fields;
    struct spoor_table *t = cp->job->out;
    size_t row = spoor_table_add_row(t);
    t->src[row] = cp->job->src;
    t->line[row] = line_no;
    for (int f = 0; f < SPOOR_FIXED_COUNT; f++) {
        int pos = st->fixed_pos[f];
        if (pos < 0)
            continue;
        if (f == SPOOR_FIXED_NAME || f == SPOOR_FIXED_CAT) {
            set_name_field(cp, t, row, (enum spoor_fixed)f, (size_t)pos);
            continue;
        }
        if (spoor_field_is_blank(fields[pos].p, fields[pos].n))
            continue;
        if (f == SPOOR_FIXED_TS && same_time_text(cp, &fields[pos])) {
            t->ts[row] = cp->last_time.ns;
            continue;
        }
        const char *reason = spoor_field_map_set_fixed(&st->map, t, row, f, fields[pos].p, fields[pos].n,
                                                       memo_for(cp, (size_t)pos));
        if (reason) {
            spoor_table_drop_last_row(t);
            return reason;
        }
        if (f == SPOOR_FIXED_TS && memo_for(cp, (size_t)pos)) {
            cp->last_time.p = fields[pos].p;
            cp->last_time.n = fields[pos].n;
            cp->last_time.ns = t->ts[row];
        }
    }
    size_t nleft = csv_store_numbers(t, row, cp->numbers, cp->nnumbers, fields, cp->buf_end, cp->left);
    for (size_t i = 0; i < nleft; i++) {
        uint32_t k = cp->numbers[cp->left[i]].field;
        set_dynamic(t, &t->cols[cp->cols[k]], row, st->kind[k], fields[k].p, fields[k].n, NULL);
    }
    for (size_t i = 0; i < cp->ntexts; i++) {
        uint32_t k = cp->texts[i];
        set_dynamic(t, &t->cols[cp->cols[k]], row, st->kind[k], fields[k].p, fields[k].n,
                    st->kind[k] == CSV_TEXT ? memo_for(cp, k) : NULL);
    }
    spoor_field_map_set_phase(t, row);
    return NULL;
}

/* Creates the dynamic columns in header order, so the table lists them as the file does. */
static int *make_columns(const struct csv_state *st, struct spoor_table *t)
{
    int *cols = spoor_xmalloc((st->nfields ? st->nfields : 1) * sizeof *cols);
    for (size_t k = 0; k < st->nfields; k++) {
        cols[k] = NO_COLUMN;
        if (st->keep[k]) {
            uint32_t id = spoor_table_intern(t, st->names[k], strlen(st->names[k]));
            cols[k] = (int)(spoor_table_column(t, id) - t->cols);
        }
    }
    return cols;
}

/* The kept fields in two lists: those the head showed as numbers, which
 * csv_store_numbers reads, and the others. */
static void split_kept_fields(struct csv_parser *cp)
{
    const struct csv_state *st = cp->st;
    size_t nf = st->nfields ? st->nfields : 1;
    cp->numbers = spoor_xmalloc(nf * sizeof *cp->numbers);
    cp->texts = spoor_xmalloc(nf * sizeof *cp->texts);
    cp->left = spoor_xmalloc(nf * sizeof *cp->left);
    for (size_t k = 0; k < st->nfields; k++) {
        if (cp->cols[k] == NO_COLUMN)
            continue;
        if (st->kind[k] == CSV_INT || st->kind[k] == CSV_FLOAT)
            cp->numbers[cp->nnumbers++] = (struct csv_number_field){(uint32_t)k, (uint32_t)cp->cols[k]};
        else
            cp->texts[cp->ntexts++] = (uint32_t)k;
    }
}

int csv_parse(struct spoor_parse_job *job, const char *buf, size_t len, struct spoor_error *err)
{
    const struct csv_state *st = job->dialect->state;
    struct csv_parser cp = {.st = st, .job = job, .buf = buf, .buf_end = buf + len};
    size_t nf = st->nfields ? st->nfields : 1;
    cp.cols = make_columns(st, job->out);
    cp.memo = spoor_xcalloc(nf, sizeof *cp.memo);
    split_kept_fields(&cp);
    struct csv_splitter *s = &cp.split;
    csv_splitter_init(s, st->delim);
    csv_splitter_reserve(s, nf + BLOCK);
    uint64_t line_no = 0;
    bool open_quote = false;
    int status = SPOOR_OK;
    size_t i = job->at_file_start ? spoor_bom_len(buf, len) : 0;
    while (i < len && status == SPOOR_OK) {
        const char *nl = memchr(buf + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - buf) : len;
        const char *line = buf + i;
        size_t n = end - i;
        i = end + 1;
        line_no++;
        if (n > 0 && line[n - 1] == '\r')
            n--;
        if (job->at_file_start && line_no == 1)
            continue; /* the header, read by detect */
        /* A line break inside a quoted field cannot be told apart from a line end
         * when chunks are cut at line ends, so such records are reported, not guessed. */
        if (open_quote) {
            open_quote = csv_quote_open_at_end(line, n, st->delim, true);
            status = spoor_generic_skip(job, line_no, "continues a quoted field with a line break (unsupported)",
                                        line, n, err);
            continue;
        }
        if (n == 0)
            continue;
        if (!split_simple(&cp, line, n)) {
            if (!csv_split(s, line, n)) {
                open_quote = true;
                status = spoor_generic_skip(job, line_no, "quoted field with a line break (unsupported)", line, n, err);
                continue;
            }
        }
        if (s->nfields != st->nfields) {
            char detail[96];
            int w = snprintf(detail, sizeof detail, "expected %zu fields, found %zu: %.*s", st->nfields, s->nfields,
                             (int)(n < 80 ? n : 80), line);
            status = spoor_generic_skip(job, line_no, "wrong number of fields", detail,
                                        w < 0 ? 0 : (size_t)w < sizeof detail ? (size_t)w : sizeof detail - 1, err);
            continue;
        }
        const char *reason = add_row(&cp, line_no);
        if (reason)
            status = spoor_generic_skip(job, line_no, reason, line, n, err);
    }
    job->lines = line_no;
    csv_splitter_release(s);
    free(cp.cols);
    free(cp.memo);
    free(cp.numbers);
    free(cp.texts);
    free(cp.left);
    return status;
}
