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
#include "read/wall_fit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bpf_state {
    struct bpf_table table;
    uint64_t recovered;     /* negative latencies read back, over the batches reduced so far */
    int64_t shift;          /* boot ns to UTC ns (--align), or 0 */
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
    if (opts->boot.known) {
        st->shift = opts->boot.offset_ns;
        snprintf(d->clock, sizeof d->clock, "%s", opts->boot.how);
        snprintf(d->unit_warning, sizeof d->unit_warning, "%s", opts->boot.warning);
    } else {
        snprintf(d->clock, sizeof d->clock, "ns since boot (--align auto puts them on UTC)");
    }
    return SPOOR_OK;
}

/* What to do with each field of a row, worked out once per chunk from the
 * table and the columns the command reads, as lists of field positions: a
 * switch on each field's type and role per row costs more than the parsing
 * (the branch cannot be predicted). */
struct bpf_plan {
    uint8_t ints[BPF_MAX_COLS], ns[BPF_MAX_COLS], lats[BPF_MAX_COLS], clocks[BPF_MAX_COLS];
    size_t nints, nns, nlats, nclocks; /* ns fields are ints too, checked not to be negative */
    uint8_t int_cols[BPF_MAX_COLS], str_cols[BPF_MAX_COLS]; /* fields kept as columns */
    size_t nint_cols, nstr_cols;
    int ts, ts_end, dur, pid, tid, name, cat, op; /* field of each role, or -1 */
};

struct bpf_parser {
    const struct bpf_table *tb;
    int64_t shift;                  /* added to ts: the boot clock on UTC, or 0 */
    struct bpf_plan plan;
    struct spoor_table *t;
    uint32_t src;
    int col[BPF_MAX_COLS];          /* column index per field, -1 until first stored */
    int recovered_col;
    uint32_t cat, read, write;      /* ids of the category and the op names */
    struct spoor_string_memo *memo; /* one per field */
};

/* Whether a column is read: all are, none, or those the command lists. */
static bool wanted(const struct spoor_read_opts *opts, const char *name)
{
    if (opts->args != SPOOR_ARGS_LISTED)
        return opts->args == SPOOR_ARGS_ALL;
    for (size_t i = 0; i < opts->n_arg_keys; i++)
        if (strcmp(opts->arg_keys[i], name) == 0)
            return true;
    return false;
}

static void plan_fields(struct bpf_parser *pp, const struct spoor_read_opts *opts)
{
    struct bpf_plan *pl = &pp->plan;
    *pl = (struct bpf_plan){.ts = -1, .ts_end = -1, .dur = -1, .pid = -1, .tid = -1, .name = -1, .cat = -1,
                            .op = -1};
    int *role_field[] = {[BPF_TS] = &pl->ts,   [BPF_TS_END] = &pl->ts_end, [BPF_DUR] = &pl->dur,
                         [BPF_PID] = &pl->pid, [BPF_TID] = &pl->tid,       [BPF_NAME] = &pl->name,
                         [BPF_CAT] = &pl->cat, [BPF_OP] = &pl->op,         [BPF_OP_ONLY] = &pl->op};
    for (size_t i = 0; i < pp->tb->ncols; i++) {
        const struct bpf_col *c = &pp->tb->col[i];
        bool text = c->type == BPF_STR || c->type == BPF_REST;
        if (c->type == BPF_INT || c->type == BPF_NS)
            pl->ints[pl->nints++] = (uint8_t)i;
        if (c->type == BPF_NS)
            pl->ns[pl->nns++] = (uint8_t)i;
        if (c->type == BPF_LAT)
            pl->lats[pl->nlats++] = (uint8_t)i;
        if (c->type == BPF_CLOCK)
            pl->clocks[pl->nclocks++] = (uint8_t)i;
        if (c->role != BPF_COLUMN)
            *role_field[c->role] = (int)i;
        if ((c->role == BPF_COLUMN || c->role == BPF_OP) && wanted(opts, c->name)) {
            if (text)
                pl->str_cols[pl->nstr_cols++] = (uint8_t)i;
            else
                pl->int_cols[pl->nint_cols++] = (uint8_t)i;
        }
        pp->col[i] = -1;
    }
}

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
static const char *read_numbers(const struct bpf_parser *pp, const char *const *start, const size_t *len,
                                int64_t *num, bool *recovered)
{
    const struct bpf_plan *pl = &pp->plan;
    for (size_t k = 0; k < pl->nints; k++) {
        size_t i = pl->ints[k];
        if (!spoor_text_int(start[i], len[i], &num[i]))
            return "text where the table has a number";
    }
    for (size_t k = 0; k < pl->nns; k++)
        if (num[pl->ns[k]] < 0)
            return "negative time stamp";
    for (size_t k = 0; k < pl->nlats; k++) {
        size_t i = pl->lats[k];
        if (!spoor_text_int(start[i], len[i], &num[i]))
            return "text where the table has a number";
        if (num[i] < 0) {
            if (num[i] < INT32_MIN)
                return "negative latency beyond 32 bits";
            num[i] &= 0xFFFFFFFF;
            *recovered = true;
        }
    }
    for (size_t k = 0; k < pl->nclocks; k++) {
        size_t i = pl->clocks[k];
        if (!spoor_text_clock(start[i], len[i], &num[i]))
            return "not an HH:MM:SS wall clock";
    }
    return NULL;
}

/* Fills the row's fixed columns and the kept ones. Field n and on (an empty
 * rest column) stay absent. */
static void put_fields(struct bpf_parser *pp, size_t row, const char *const *start, const size_t *len, size_t n,
                       const int64_t *num)
{
    const struct bpf_plan *pl = &pp->plan;
    struct spoor_table *t = pp->t;
    if (pl->dur >= 0)
        t->dur[row] = num[pl->dur];
    if (pl->ts >= 0)
        t->ts[row] = num[pl->ts] + pp->shift;
    if (pl->ts_end >= 0) /* ts_end needs dur (bpf_table_parse) */
        t->ts[row] = num[pl->ts_end] - num[pl->dur] + pp->shift;
    if (pl->pid >= 0)
        t->pid[row] = num[pl->pid];
    if (pl->tid >= 0)
        t->tid[row] = num[pl->tid];
    if (pl->name >= 0 && (size_t)pl->name < n)
        t->name[row] = spoor_memo_intern(&pp->memo[pl->name], t, start[pl->name], len[pl->name]);
    if (pl->op >= 0)
        t->name[row] = op_name(pp, &pp->memo[pl->op], start[pl->op], len[pl->op]);
    if (pl->cat >= 0 && (size_t)pl->cat < n)
        t->cat[row] = spoor_memo_intern(&pp->memo[pl->cat], t, start[pl->cat], len[pl->cat]);
    else if (pp->tb->cat)
        t->cat[row] = pp->cat;
    for (size_t k = 0; k < pl->nint_cols; k++) {
        size_t i = pl->int_cols[k];
        int ci = column_index(pp, &pp->col[i], pp->tb->col[i].name);
        spoor_mapped_set_i64(t, &t->cols[ci], row, num[i]);
    }
    for (size_t k = 0; k < pl->nstr_cols; k++) {
        size_t i = pl->str_cols[k];
        if (i >= n)
            continue;
        int ci = column_index(pp, &pp->col[i], pp->tb->col[i].name);
        struct spoor_value val = {.type = SPOOR_STR, .str = spoor_memo_intern(&pp->memo[i], t, start[i], len[i]),
                                  .text = start[i], .text_len = len[i]};
        spoor_mapped_set(t, &t->cols[ci], row, &val);
    }
}

static const char *bpf_line(void *ctx, const char *line, const char **line_end, uint64_t line_no)
{
    struct bpf_parser *pp = ctx;
    const struct bpf_table *tb = pp->tb;
    const char *end = *line_end = spoor_text_cut_cr(line, *line_end);
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
    const char *reason = read_numbers(pp, start, len, num, &recovered);
    if (reason)
        return reason;
    struct spoor_table *t = pp->t;
    size_t row = spoor_table_add_row(t);
    t->src[row] = pp->src;
    t->line[row] = line_no;
    put_fields(pp, row, start, len, n, num);
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
    struct bpf_parser pp = {.tb = &st->table, .shift = st->shift, .t = job->out, .src = job->src,
                            .recovered_col = -1};
    plan_fields(&pp, job->opts);
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

/* The stamp and the wall clock of each whole row, for --align: the first
 * ns column (ts or ts_end: the instant the row was printed) and the first
 * clock column. */
static void bpf_wall_pairs(const struct spoor_dialect *d, const char *buf, size_t len, struct spoor_wall_fit *fit)
{
    const struct bpf_table *tb = &((const struct bpf_state *)d->state)->table;
    int stamp = -1, clock = -1;
    for (size_t i = 0; i < tb->ncols; i++) {
        if (stamp < 0 && tb->col[i].type == BPF_NS && (tb->col[i].role == BPF_TS || tb->col[i].role == BPF_TS_END))
            stamp = (int)i;
        if (clock < 0 && tb->col[i].type == BPF_CLOCK)
            clock = (int)i;
    }
    if (stamp < 0 || clock < 0)
        return;
    for (const char *p = buf, *end = buf + len; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p)), *line_end = nl ? nl : end;
        const char *start[BPF_MAX_COLS];
        size_t n[BPF_MAX_COLS];
        int64_t at, tod;
        size_t fields = spoor_text_split(p, spoor_text_cut_cr(p, line_end), tb->ncols, tb->rest_last, start, n);
        if (fields >= tb->min_fields && fields <= tb->ncols && spoor_text_int(start[stamp], n[stamp], &at) &&
            at >= 0 && spoor_text_clock(start[clock], n[clock], &tod))
            spoor_wall_fit_add(fit, at, tod);
        p = line_end + 1;
    }
}

const struct spoor_format spoor_format_bpftrace = {
    .name = "bpftrace",
    .sniff = bpf_sniff,
    .detect = bpf_detect,
    .parse = bpf_parse,
    .reduced = bpf_reduced,
    .release = bpf_release,
    .clock = SPOOR_CLOCK_BOOT,
    .wall_pairs = bpf_wall_pairs,
};
