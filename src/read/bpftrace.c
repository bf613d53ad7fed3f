/* The bpftrace reader: the whitespace-aligned tables that bpftrace `printf`
 * scripts write, one traced call per line, no header:
 *
 *     1802565964177173  12:04:36  863  jbd2/sda1-8  0  swapper/6  sda  R 1870923768  4096  142333
 *
 * Which table (bio, open, vfs_rw; bpftrace_table.c) is told from the shape of
 * the head's rows, or given with --input-columns. Each row is one event: the
 * first column is `nsecs` taken when the call returned (the row is printed
 * then), so ts = TIMESTAMP - LAT and dur = LAT. LAT is printed as a signed
 * 32-bit number, so one of 2^31 ns or more comes out negative: it is read
 * back with & 0xFFFFFFFF, marked in the column lat_recovered and counted in
 * the input's "assumed" line. Rows are not sorted (bpftrace prints per-CPU
 * buffers); a row with too few fields (the tracer killed mid-line) is skipped. */
#include "read/bpftrace_table.h"
#include "read/field_map.h"
#include "read/mapped_reader.h"
#include "read/text_fields.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bpf_state {
    struct bpf_table table;
    uint64_t recovered;     /* negative latencies read back, over the batches reduced so far */
};

static const char recovered_column[] = "lat_recovered";

static int bpf_sniff(const char *head, size_t len)
{
    size_t rows, lines;
    return bpf_table_guess(head, len, &rows, &lines) ? 80 : 0;
}

/* The input's "assumed" line: the table, where ts comes from, the recoveries. */
static void describe(struct spoor_dialect *d, const struct bpf_state *st)
{
    const struct bpf_table *t = &st->table;
    bool ts_end = false, lat = false;
    for (size_t i = 0; i < t->ncols; i++) {
        ts_end |= t->col[i].role == BPF_TS_END;
        lat |= t->col[i].type == BPF_LAT;
    }
    d->assumed[0] = '\0';
    spoor_dialect_assume(d, "a bpftrace %s table of %zu columns", t->name, t->ncols);
    if (ts_end)
        spoor_dialect_assume(d, "its time stamp is taken when the call returns: ts = time stamp - latency");
    if (lat)
        spoor_dialect_assume(d, "%llu negative latencies (signed 32-bit overflow) read back with & 0xFFFFFFFF",
                             (unsigned long long)st->recovered);
}

static int bpf_detect(const char *head, size_t len, const struct spoor_read_opts *opts, struct spoor_dialect *d,
                      struct spoor_error *err)
{
    struct bpf_state *st = calloc(1, sizeof *st);
    if (!st)
        return spoor_fail(err, SPOOR_ENOMEM, "out of memory");
    if (opts->input_columns) {
        if (bpf_table_parse(opts->input_columns, &st->table, err) != SPOOR_OK) {
            free(st);
            return err->code;
        }
    } else {
        size_t rows, lines;
        const struct bpf_table *t = bpf_table_guess(head, len, &rows, &lines);
        if (!t && lines) {
            free(st);
            return spoor_fail(err, SPOOR_EFORMAT,
                              "not a bpftrace table this reader knows (bio, open, vfs_rw): describe its columns "
                              "with --input-columns NAME:TYPE,...");
        }
        st->table = t ? *t : *bpf_builtin[0];
    }
    d->format = &spoor_format_bpftrace;
    snprintf(d->name, sizeof d->name, "bpftrace-%s", st->table.name);
    d->ts_unit = d->dur_unit = SPOOR_UNIT_NS;
    d->state = st;
    describe(d, st);
    return SPOOR_OK;
}

struct bpf_parser {
    const struct bpf_table *tb;
    struct spoor_table *t;
    uint32_t src;
    int col[BPF_MAX_COLS];          /* column index per field, -1 until first stored */
    int recovered_col;
    uint32_t cat, read, write;      /* ids of the category and the op names */
    struct spoor_string_memo *memo; /* one per field */
};

static int column_index(struct bpf_parser *pp, int *slot, const char *name)
{
    if (*slot < 0)
        *slot = (int)(spoor_table_column(pp->t, spoor_table_intern(pp->t, name, strlen(name))) - pp->t->cols);
    return *slot;
}

/* The op an R/W field names: an rwbs with W is a write, with R a read (and
 * the older scripts' 1 / 0); anything else keeps its own text. */
static uint32_t op_name(struct bpf_parser *pp, struct spoor_string_memo *memo, const char *p, size_t n)
{
    if (n == 1 && (*p == '1' || *p == '0'))
        return *p == '1' ? pp->write : pp->read;
    if (memchr(p, 'W', n))
        return pp->write;
    if (memchr(p, 'R', n))
        return pp->read;
    return spoor_memo_intern(memo, pp->t, p, n);
}

/* Reads the numeric fields into num[]; NULL, or why the row is skipped. */
static const char *read_numbers(const struct bpf_table *tb, const char *const *start, const size_t *len, size_t n,
                                int64_t *num, bool *recovered)
{
    for (size_t i = 0; i < n; i++) {
        switch (tb->col[i].type) {
        case BPF_INT:
        case BPF_NS:
        case BPF_LAT:
            if (!spoor_text_int(start[i], len[i], &num[i]))
                return "text where the table has a number";
            if (tb->col[i].type == BPF_NS && num[i] < 0)
                return "negative time stamp";
            if (tb->col[i].type == BPF_LAT && num[i] < 0) {
                if (num[i] < INT32_MIN)
                    return "negative latency beyond 32 bits";
                num[i] &= 0xFFFFFFFF;
                *recovered = true;
            }
            break;
        case BPF_CLOCK:
            if (!spoor_text_clock(start[i], len[i], &num[i]))
                return "not an HH:MM:SS wall clock";
            break;
        case BPF_STR:
        case BPF_REST: break;
        }
    }
    return NULL;
}

/* Stores field i of a row whose numbers are read. */
static void put_field(struct bpf_parser *pp, size_t row, size_t i, const char *p, size_t n, int64_t num,
                      int64_t *ts_end)
{
    const struct bpf_col *c = &pp->tb->col[i];
    struct spoor_table *t = pp->t;
    bool text = c->type == BPF_STR || c->type == BPF_REST;
    uint32_t id = text ? spoor_memo_intern(&pp->memo[i], t, p, n) : 0;
    switch (c->role) {
    case BPF_TS: t->ts[row] = num; return;
    case BPF_TS_END: *ts_end = num; return;
    case BPF_DUR: t->dur[row] = num; return;
    case BPF_PID: t->pid[row] = num; return;
    case BPF_TID: t->tid[row] = num; return;
    case BPF_NAME: t->name[row] = id; return;
    case BPF_CAT: t->cat[row] = id; return;
    case BPF_OP_ONLY: t->name[row] = op_name(pp, &pp->memo[i], p, n); return;
    case BPF_OP: t->name[row] = op_name(pp, &pp->memo[i], p, n); break;
    case BPF_COLUMN: break;
    }
    int ci = column_index(pp, &pp->col[i], c->name);
    if (text) {
        struct spoor_value val = {.type = SPOOR_STR, .str = id, .text = p, .text_len = n};
        spoor_mapped_set(t, &t->cols[ci], row, &val);
    } else {
        spoor_mapped_set_i64(t, &t->cols[ci], row, num);
    }
}

static const char *bpf_line(void *ctx, const char *line, const char **line_end, uint64_t line_no)
{
    struct bpf_parser *pp = ctx;
    const struct bpf_table *tb = pp->tb;
    const char *end = *line_end;
    if (end > line && end[-1] == '\r')
        *line_end = --end;
    const char *start[BPF_MAX_COLS];
    size_t len[BPF_MAX_COLS];
    size_t n = spoor_text_split(line, end, tb->ncols, tb->rest_last, start, len);
    if (n == 0)
        return NULL;
    if (n > tb->ncols)
        return "more fields than the table has";
    if (n < tb->min_fields)
        return "fewer fields than the table has (a cut line)";
    int64_t num[BPF_MAX_COLS];
    bool recovered = false;
    const char *reason = read_numbers(tb, start, len, n, num, &recovered);
    if (reason)
        return reason;
    struct spoor_table *t = pp->t;
    size_t row = spoor_table_add_row(t);
    t->src[row] = pp->src;
    t->line[row] = line_no;
    int64_t ts_end = SPOOR_NULL;
    for (size_t i = 0; i < n; i++)
        if (len[i]) /* an empty rest column stays absent */
            put_field(pp, row, i, start[i], len[i], num[i], &ts_end);
    if (ts_end != SPOOR_NULL)
        t->ts[row] = t->dur[row] != SPOOR_NULL ? ts_end - t->dur[row] : ts_end;
    if (pp->tb->cat)
        t->cat[row] = pp->cat;
    if (recovered) {
        int ci = column_index(pp, &pp->recovered_col, recovered_column); /* may move t->cols */
        spoor_mapped_set_i64(t, &t->cols[ci], row, 1);
    }
    spoor_field_map_set_phase(t, row);
    return NULL;
}

static int bpf_parse(struct spoor_parse_job *job, const char *buf, size_t len, struct spoor_error *err)
{
    const struct bpf_state *st = job->dialect->state;
    struct bpf_parser pp = {.tb = &st->table, .t = job->out, .src = job->src, .recovered_col = -1};
    for (size_t i = 0; i < BPF_MAX_COLS; i++)
        pp.col[i] = -1;
    pp.memo = calloc(st->table.ncols, sizeof *pp.memo);
    if (!pp.memo)
        return spoor_fail(err, SPOOR_ENOMEM, "out of memory");
    if (st->table.cat)
        pp.cat = spoor_table_intern(job->out, st->table.cat, strlen(st->table.cat));
    pp.read = spoor_table_intern(job->out, "read", 4);
    pp.write = spoor_table_intern(job->out, "write", 5);
    int status = spoor_mapped_lines(job, buf, len, bpf_line, &pp, err);
    free(pp.memo);
    return status;
}

/* Counts the recovered latencies of a batch into the "assumed" line. */
static void bpf_reduced(struct spoor_dialect *d, const struct spoor_table *batch)
{
    struct bpf_state *st = d->state;
    const struct spoor_column *c = spoor_table_find_column(batch, recovered_column);
    if (!c)
        return;
    for (size_t r = 0; r < batch->nrows; r++)
        st->recovered += spoor_column_valid(c, r);
    describe(d, st);
}

static void bpf_release(struct spoor_dialect *d) { free(d->state); }

const struct spoor_format spoor_format_bpftrace = {
    .name = "bpftrace",
    .sniff = bpf_sniff,
    .detect = bpf_detect,
    .parse = bpf_parse,
    .reduced = bpf_reduced,
    .release = bpf_release,
};
