/* The MLPerf logging reader: `:::MLLOG {json}` lines, alone or inside other
 * log lines (mlperf_logging prints them through Python logging, so a prefix
 * may come before the marker):
 *
 *     :::MLLOG {"namespace": "", "time_ms": 1648728309054, "event_type": "INTERVAL_START",
 *               "key": "epoch_start", "value": 1, "metadata": {"epoch_num": 1, "file": "main.py"}}
 *
 * Every MLLOG line is an event (ph 'i'): ts = time_ms (Unix ms, UTC: no zone
 * to apply), name = key, cat "mllog", columns value, event_type, namespace and
 * each member of metadata (epoch_num, file, lineno, ...). In input order
 * (in_order), each `X_stop` is joined with the open `X_start` of the same X
 * and the same metadata.epoch_num (or first_epoch_num, for blocks): the stop's
 * row becomes the interval, name X ("init", "epoch", "eval", "run", "block"),
 * ph 'X', ts of the start, dur up to the stop (in place, so rows keep their
 * order whatever the chunks); the start stays an event of its own. A stop
 * with no open start, and a start never stopped (or started again before its
 * stop), are counted as skipped records and never completed by guesswork.
 * Lines without the marker are no MLLOG records: they give no rows (read the
 * file with --input-format pytext for them). */
#include "read/field_map.h"
#include "read/json_scan.h"
#include "read/mapped_reader.h"
#include "read/wall_clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char MARKER[] = ":::MLLOG ";

struct open_start {
    char kind[48];
    int64_t num;            /* SPOOR_NULL: none */
    int64_t ts;
    uint64_t line;
};

struct mllog_state {        /* touched by in_order only */
    struct open_start *open;
    size_t nopen, cap;
};

static const char *marker_in(const char *p, const char *end)
{
    if (end - p >= (ptrdiff_t)sizeof MARKER - 1 && !memcmp(p, MARKER, sizeof MARKER - 1)) /* most lines: no prefix */
        return p + sizeof MARKER - 1;
    const char *m = memmem(p, (size_t)(end - p), MARKER, sizeof MARKER - 1);
    return m ? m + sizeof MARKER - 1 : NULL;
}

static int mllog_sniff(const char *head, size_t len)
{
    const char *p = head, *end = head + len;
    for (int lines = 0; p < end && lines < 64; lines++) {
        const char *e = spoor_line_end(p, end), *m = marker_in(p, e);
        while (m && m < e && *m == ' ')
            m++;
        if (m && m < e && *m == '{')
            return 90;
        p = e + 1;
    }
    return 0;
}

static void mllog_release(struct spoor_dialect *d)
{
    struct mllog_state *s = d->state;
    if (s)
        free(s->open);
    free(s);
    d->state = NULL;
}

static int mllog_detect(const char *head, size_t len, const struct spoor_read_opts *opts, struct spoor_dialect *d,
                        struct spoor_error *err)
{
    (void)head;
    (void)len;
    (void)opts;
    d->state = calloc(1, sizeof(struct mllog_state));
    if (!d->state)
        return spoor_fail(err, SPOOR_ENOMEM, "out of memory");
    d->format = &spoor_format_mllog;
    d->ts_unit = d->dur_unit = SPOOR_UNIT_MS;
    snprintf(d->name, sizeof d->name, "mllog");
    return SPOOR_OK;
}

/* A chunk's parse: the memos of member names and of string values, which
 * repeat from record to record, and the columns of the last record's
 * members by their place in it: records of one shape name theirs alike. */
enum { MLLOG_PLACES = 16 };
struct mllog_parser {
    struct spoor_table *t;
    uint32_t cat;
    struct spoor_string_memo names, values;
    struct {
        const char *name; /* in the chunk */
        size_t n;
        size_t col;       /* an index: t->cols moves as columns are made */
    } place[MLLOG_PLACES];
};

/* A value token into row's column `name`, the record's member number `place`. */
static void set_member(struct mllog_parser *pp, size_t place, size_t row, const char *name, size_t n,
                       const struct spoor_json_tok *v)
{
    struct spoor_table *t = pp->t;
    struct spoor_value val;
    spoor_json_to_value(t, v, false, &pp->values, &val);
    if (val.is_null)
        return;
    if (place >= MLLOG_PLACES) {
        spoor_table_set(t, spoor_table_column(t, spoor_memo_intern(&pp->names, t, name, n)), row, &val);
        return;
    }
    if (pp->place[place].n != n || !spoor_same_bytes(pp->place[place].name, name, n)) {
        pp->place[place].name = name;
        pp->place[place].n = n;
        pp->place[place].col = (size_t)(spoor_table_column(t, spoor_memo_intern(&pp->names, t, name, n)) - t->cols);
    }
    spoor_table_set(t, &t->cols[pp->place[place].col], row, &val);
}

static const char *mllog_row(struct mllog_parser *pp, const char *obj, const char *end, uint64_t line_no)
{
    struct spoor_table *t = pp->t;
    struct spoor_json_iter it;
    struct spoor_json_tok k, v;
    spoor_json_iter_init(&it, obj, end);
    size_t row = spoor_table_add_row(t);
    t->line[row] = line_no;
    t->src[row] = 0;
    t->cat[row] = pp->cat;
    t->ph[row] = 'i';
    int got;
    size_t place = 0;
    for (; (got = spoor_json_next(&it, &k, &v)) == 1; place++) {
        if (k.n == 3 && !memcmp(k.p, "key", 3) && v.kind == SPOOR_JSON_STRING && !v.has_escape) {
            t->name[row] = spoor_memo_intern(&pp->values, t, v.p, v.n);
        } else if (k.n == 7 && !memcmp(k.p, "time_ms", 7) && v.kind == SPOOR_JSON_NUMBER) {
            int64_t ms;
            double x;
            /* within +-4e12 ms (1843-2096), so that any dur fits in int64 ns */
            if (spoor_json_int64(v.p, v.n, &ms) && ms > -4000000000000 && ms < 4000000000000)
                t->ts[row] = ms * 1000000;
            else if (spoor_json_double(v.p, v.n, &x) && x > -4e12 && x < 4e12)
                t->ts[row] = (int64_t)(x * 1e6);
        } else if (k.n == 8 && !memcmp(k.p, "metadata", 8) && v.kind == SPOOR_JSON_OBJECT) {
            struct spoor_json_iter mi;
            struct spoor_json_tok mk, mv;
            spoor_json_iter_init(&mi, v.p, v.p + v.n);
            int m;
            for (; (m = spoor_json_next(&mi, &mk, &mv)) == 1; place++)
                if (!mk.has_escape && mk.n)
                    set_member(pp, place, row, mk.p, mk.n, &mv);
            if (m < 0) {
                spoor_table_drop_last_row(t);
                return "MLLOG metadata is not a JSON object";
            }
        } else if (!k.has_escape && k.n) {
            set_member(pp, place, row, k.p, k.n, &v);
        }
    }
    if (got < 0 || !t->name[row] || t->ts[row] == SPOOR_NULL) {
        spoor_table_drop_last_row(t);
        return got < 0 ? "MLLOG text is not a JSON object" : "MLLOG record without a key or time_ms";
    }
    return NULL;
}

static int mllog_parse(struct spoor_parse_job *job, const char *buf, size_t len, struct spoor_error *err)
{
    struct mllog_parser *pp = calloc(1, sizeof *pp); /* its memos are kilobytes */
    if (!pp)
        return spoor_fail(err, SPOOR_ENOMEM, "out of memory");
    pp->t = job->out;
    pp->cat = spoor_table_intern(pp->t, "mllog", 5);
    const char *p = buf, *end = buf + len;
    uint64_t line_no = 0;
    int st = SPOOR_OK;
    while (p < end && st == SPOOR_OK) {
        const char *e = spoor_line_end(p, end), *line = p, *m = marker_in(p, e);
        p = e + 1;
        line_no++;
        if (!m)
            continue;
        const char *reason = mllog_row(pp, m, e, line_no);
        if (reason)
            st = spoor_generic_skip(job, line_no, reason, line, (size_t)(e - line), err);
    }
    free(pp);
    job->lines = line_no;
    return st;
}

/* The pairing number of row r: metadata.epoch_num, else first_epoch_num. */
static int64_t pair_number(const struct spoor_table *b, size_t r)
{
    static const char *const names[] = {"epoch_num", "first_epoch_num"};
    for (size_t i = 0; i < 2; i++) {
        const struct spoor_column *c = spoor_table_find_column(b, names[i]);
        if (c && spoor_column_valid(c, r) && c->type == SPOOR_I64)
            return c->i64[r];
    }
    return SPOOR_NULL;
}

static struct open_start *find_open(struct mllog_state *s, const char *kind, size_t n, int64_t num)
{
    for (size_t i = 0; i < s->nopen; i++)
        if (strlen(s->open[i].kind) == n && !memcmp(s->open[i].kind, kind, n) && s->open[i].num == num)
            return &s->open[i];
    return NULL;
}

/* Row `stop` becomes the interval from its start: in place, so that rows
 * keep their input order whatever the chunks were. */
static void make_interval(struct spoor_table *b, size_t stop, const struct open_start *o)
{
    b->dur[stop] = b->ts[stop] - o->ts;
    b->ts[stop] = o->ts;
    b->name[stop] = spoor_table_intern(b, o->kind, strlen(o->kind));
    b->ph[stop] = 'X';
}

static int by_line(const void *a, const void *b)
{
    uint64_t x = ((const struct open_start *)a)->line, y = ((const struct open_start *)b)->line;
    return (x > y) - (x < y);
}

static int mllog_in_order(struct spoor_dialect *d, struct spoor_table *b, struct spoor_skips *skips,
                          const char *path, bool strict, struct spoor_table **view, struct spoor_error *err)
{
    (void)view; /* rows are rewritten and added in place */
    struct mllog_state *s = d->state;
    int st = SPOOR_OK;
    if (!b) {   /* the end: what is still open was never stopped */
        if (s->nopen)
            qsort(s->open, s->nopen, sizeof *s->open, by_line);
        for (size_t i = 0; i < s->nopen && st == SPOOR_OK; i++)
            st = spoor_skip_or_fail(skips, path, SPOOR_RECORDS_LINES, strict,
                                    s->open[i].line, "MLLOG start without stop", err);
        s->nopen = 0;
        return st;
    }
    for (size_t r = 0; r < b->nrows && st == SPOOR_OK; r++) {
        const char *key = spoor_table_str(b, b->name[r]);
        size_t n = strlen(key);
        bool start = n > 6 && !strcmp(key + n - 6, "_start"), stop = n > 5 && !strcmp(key + n - 5, "_stop");
        if (b->ph[r] != 'i' || (!start && !stop))
            continue;
        size_t kind_len = n - (start ? 6 : 5);
        if (kind_len >= sizeof s->open->kind)
            continue;
        int64_t num = pair_number(b, r);
        struct open_start *o = find_open(s, key, kind_len, num);
        if (start) {
            if (o) {
                st = spoor_skip_or_fail(skips, path, SPOOR_RECORDS_LINES, strict,
                                        o->line, "MLLOG start without stop", err);
                *o = s->open[--s->nopen];
            }
            if (s->nopen == s->cap) {
                s->cap = s->cap ? 2 * s->cap : 8;
                s->open = spoor_xrealloc(s->open, s->cap * sizeof *s->open);
            }
            o = &s->open[s->nopen++];
            memcpy(o->kind, key, kind_len);
            o->kind[kind_len] = '\0';
            o->num = num;
            o->ts = b->ts[r];
            o->line = b->line[r];
        } else if (!o) {
            st = spoor_skip_or_fail(skips, path, SPOOR_RECORDS_LINES, strict,
                                    b->line[r], "MLLOG stop without start", err);
        } else if (b->ts[r] < o->ts) {
            /* both go: which of them is wrong cannot be told */
            st = spoor_skip_or_fail(skips, path, SPOOR_RECORDS_LINES, strict,
                                    o->line, "MLLOG stop before its start", err);
            if (st == SPOOR_OK)
                st = spoor_skip_or_fail(skips, path, SPOOR_RECORDS_LINES, strict,
                                        b->line[r], "MLLOG stop before its start", err);
            *o = s->open[--s->nopen];
        } else {
            make_interval(b, r, o);
            *o = s->open[--s->nopen];
        }
    }
    return st;
}

const struct spoor_format spoor_format_mllog = {
    .name = "mllog",
    .sniff = mllog_sniff,
    .detect = mllog_detect,
    .parse = mllog_parse,
    .in_order = mllog_in_order,
    .release = mllog_release,
    .clock = SPOOR_CLOCK_DATED,
};
