/* Perfetto output: Chrome trace events, one JSON object per line inside one
 * array ("[", events separated by ",\n", "]"), which both ui.perfetto.dev and
 * spoor's own pfw reader take. Times go out in µs with the ns as exact
 * decimals, so nothing is lost on the way back. Keys are written in the order
 * ph, name, cat, pid, tid, ts, dur, args: never the DataCrumbs C++ order
 * (id first), so spoor reads the file back as plain Chrome JSON. */
#include "out/perfetto_counters.h"
#include "out/write_internal.h"
#include "spoor/error.h"
#include "spoor/write.h"
#include "util/grow.h"

#include <stdlib.h>

enum { BUF_CAP = 1 << 18 };

/* An args column of the current batch. */
struct arg_out {
    struct spoor_view view;
    size_t label_off, label_len;    /* "key": in labels */
};

struct spoor_perfetto_writer {
    struct wbuf out;
    bool wrote_event;

    struct out_col *cols;           /* explicit columns, or NULL for every arg */
    size_t ncols;

    /* The current batch. */
    struct arg_out *args;
    size_t nargs, args_cap;
    struct wbuf labels;
    struct spoor_view name, cat, file, host;
    bool want_file, want_host;      /* resolved, and no args column of that name */

    /* Process and thread names already written, by pid/tid text. */
    struct spoor_strpool *named[2];

    struct perfetto_counters *counters; /* NULL: none */

    uint8_t *batch_plain, *resolved_plain;
    size_t batch_plain_cap, resolved_plain_n, resolved_plain_cap;
};

struct spoor_perfetto_writer *spoor_perfetto_writer_new(FILE *out, const char *name, const char *const *columns,
                                                        size_t ncolumns)
{
    struct spoor_perfetto_writer *w = spoor_xcalloc(1, sizeof *w);
    wbuf_init(&w->out, out, BUF_CAP);
    w->out.name = name;
    wbuf_init(&w->labels, NULL, 1024);
    if (columns) {
        w->cols = spoor_xcalloc(ncolumns ? ncolumns : 1, sizeof *w->cols);
        for (size_t i = 0; i < ncolumns; i++)
            out_col_init(&w->cols[w->ncols++], columns[i]);
    }
    for (int k = 0; k < 2; k++)
        w->named[k] = spoor_strpool_new();
    wbuf_put(&w->out, "[", 1);
    return w;
}

void spoor_perfetto_writer_free(struct spoor_perfetto_writer *w)
{
    if (!w)
        return;
    for (size_t i = 0; i < w->ncols; i++)
        label_free(&w->cols[i].label);
    free(w->cols);
    free(w->args);
    free(w->batch_plain);
    free(w->resolved_plain);
    perfetto_counters_free(w->counters);
    for (int k = 0; k < 2; k++)
        spoor_strpool_free(w->named[k]);
    wbuf_release(&w->labels);
    wbuf_release(&w->out);
    free(w);
}

void spoor_perfetto_writer_counters(struct spoor_perfetto_writer *w, int64_t every)
{
    perfetto_counters_free(w->counters);
    w->counters = perfetto_counters_new(every);
}

size_t spoor_perfetto_writer_missing(const struct spoor_perfetto_writer *w, const char **names, size_t max)
{
    return out_cols_missing(w->cols, w->ncols, names, max);
}

static void add_arg(struct spoor_perfetto_writer *w, const struct spoor_view *v, const char *key, size_t len)
{
    spoor_reserve((void **)&w->args, &w->args_cap, w->nargs + 1, sizeof *w->args);
    struct arg_out *a = &w->args[w->nargs++];
    a->view = *v;
    a->label_off = w->labels.len;
    json_text(&w->labels, key, len);
    wbuf_byte(&w->labels, ':');
    a->label_len = w->labels.len - a->label_off;
}

/* The args to write for this batch, and whether file and host go too. */
static void bind_batch(struct spoor_perfetto_writer *w, const struct spoor_table *t, const struct spoor_resolved *res)
{
    w->batch_plain = plain_flags(w->batch_plain, &w->batch_plain_cap, 0, spoor_strpool_count(t->pool));
    if (res) {
        size_t n = spoor_strpool_count(res->pool);
        w->resolved_plain = plain_flags(w->resolved_plain, &w->resolved_plain_cap, w->resolved_plain_n, n);
        w->resolved_plain_n = n;
    }
    w->nargs = 0;
    w->labels.len = 0;
    w->want_file = w->want_host = !w->cols;
    struct spoor_view v;
    for (size_t i = 0; i < w->ncols; i++) {
        struct out_col *c = &w->cols[i];
        out_col_bind(c, &v, t, res);
        if (c->field == SPOOR_FIELD_ARG && v.kind != SPOOR_VIEW_NULL)
            add_arg(w, &v, c->key, c->key_len);
        w->want_file |= c->field == SPOOR_FIELD_FILE;
        w->want_host |= c->field == SPOOR_FIELD_HOST;
    }
    for (size_t i = 0; i < t->ncols && !w->cols; i++) {
        size_t len;
        const char *key = spoor_strpool_get(t->pool, t->cols[i].name, &len);
        spoor_view_bind(&v, SPOOR_FIELD_ARG, key, len, t, NULL);
        add_arg(w, &v, key, len);
    }
    /* An args column called file or host wins over the resolved name. */
    w->want_file &= res && !spoor_table_find_column(t, "file");
    w->want_host &= res && !spoor_table_find_column(t, "host");
    spoor_view_bind(&w->name, SPOOR_FIELD_NAME, NULL, 0, t, NULL);
    spoor_view_bind(&w->cat, SPOOR_FIELD_CAT, NULL, 0, t, NULL);
    spoor_view_bind(&w->file, SPOOR_FIELD_FILE, NULL, 0, t, res);
    spoor_view_bind(&w->host, SPOOR_FIELD_HOST, NULL, 0, t, res);
}

static void begin_event(void *writer)
{
    struct spoor_perfetto_writer *w = writer;
    wbuf_put(&w->out, w->wrote_event ? ",\n{" : "\n{", w->wrote_event ? 3 : 2);
    w->wrote_event = true;
}

static void put_args(struct spoor_perfetto_writer *w, size_t row)
{
    struct wbuf *b = &w->out;
    bool any = false;
    for (size_t i = 0; i < w->nargs; i++) {
        const struct arg_out *a = &w->args[i];
        if (spoor_view_is_null(&a->view, row))
            continue;
        wbuf_put(b, any ? "," : ",\"args\":{", any ? 1 : 9);
        any = true;
        wbuf_put(b, w->labels.data + a->label_off, a->label_len);
        json_value(b, &a->view, row, w->batch_plain);
    }
    const struct spoor_view *resolved[2] = {w->want_file ? &w->file : NULL, w->want_host ? &w->host : NULL};
    static const char *const keys[2] = {"\"file\":", "\"host\":"};
    for (int k = 0; k < 2; k++) {
        if (!resolved[k] || spoor_view_is_null(resolved[k], row))
            continue;
        wbuf_put(b, any ? "," : ",\"args\":{", any ? 1 : 9);
        any = true;
        wbuf_put(b, keys[k], 7);
        json_value(b, resolved[k], row, w->resolved_plain);
    }
    if (any)
        wbuf_byte(b, '}');
}

static void put_event(struct spoor_perfetto_writer *w, const struct spoor_table *t, size_t row)
{
    struct wbuf *b = &w->out;
    begin_event(w);
    char ph = (char)t->ph[row];
    if (!ph)
        ph = t->dur[row] != SPOOR_NULL ? 'X' : 'i';
    char ph_text[10] = {'"', 'p', 'h', '"', ':', '"', ph, '"'};
    wbuf_put(b, ph_text, 8);
    if (!spoor_view_is_null(&w->name, row)) {
        wbuf_put(b, ",\"name\":", 8);
        json_value(b, &w->name, row, w->batch_plain);
    }
    if (!spoor_view_is_null(&w->cat, row)) {
        wbuf_put(b, ",\"cat\":", 7);
        json_value(b, &w->cat, row, w->batch_plain);
    }
    if (t->pid[row] != SPOOR_NULL) {
        wbuf_put(b, ",\"pid\":", 7);
        wbuf_i64(b, t->pid[row]);
    }
    if (t->tid[row] != SPOOR_NULL) {
        wbuf_put(b, ",\"tid\":", 7);
        wbuf_i64(b, t->tid[row]);
    }
    if (t->ts[row] != SPOOR_NULL) {
        wbuf_put(b, ",\"ts\":", 6);
        wbuf_us(b, t->ts[row]);
    }
    if (t->dur[row] != SPOOR_NULL) {
        wbuf_put(b, ",\"dur\":", 7);
        wbuf_us(b, t->dur[row]);
    }
    put_args(w, row);
    wbuf_byte(b, '}');
}

/* The pid of the thread_name metadata row of tid in t, or SPOOR_NULL. */
static int64_t pid_of_thread(const struct spoor_table *t, int64_t tid)
{
    for (size_t r = 0; r < t->nrows; r++)
        if (t->ph[r] == 'M' && t->tid[r] == tid && t->pid[r] != SPOOR_NULL)
            return t->pid[r];
    return SPOOR_NULL;
}

/* process_name / thread_name events for each name an input defined, once per
 * (input, pid or tid, name): a pid of another input, or a rename later in the
 * same input, gets its own event. */
static void put_names(struct spoor_perfetto_writer *w, const struct spoor_table *t)
{
    static const enum spoor_lookup_kind kinds[2] = {SPOOR_LOOKUP_PROCESS, SPOOR_LOOKUP_THREAD};
    for (int k = 0; k < 2; k++) {
        const struct spoor_lookup *l = &t->lookups[kinds[k]];
        for (size_t i = 0; i < l->n; i++) {
            size_t klen, vlen;
            const char *key = spoor_strpool_get(t->pool, l->keys[i], &klen);
            const char *value = spoor_strpool_get(t->pool, l->values[i], &vlen);
            const char *src = l->srcs[i] < t->nsources ? t->sources[l->srcs[i]] : "";
            size_t slen = strlen(src);
            char *seen = spoor_xmalloc(slen + klen + vlen + 2);
            memcpy(seen, src, slen + 1);
            memcpy(seen + slen + 1, key, klen + 1);
            memcpy(seen + slen + klen + 2, value, vlen);
            size_t before = spoor_strpool_count(w->named[k]);
            bool known = spoor_strpool_intern(w->named[k], seen, slen + klen + vlen + 2) < before;
            free(seen);
            if (known)
                continue;
            char *end;
            long long id = strtoll(key, &end, 10);
            if (end == key || *end)
                continue;
            int64_t pid = k == 0 ? id : pid_of_thread(t, id);
            begin_event(w);
            wbuf_put(&w->out, k == 0 ? "\"ph\":\"M\",\"name\":\"process_name\"" : "\"ph\":\"M\",\"name\":\"thread_name\"",
                     k == 0 ? 30 : 29);
            if (pid != SPOOR_NULL) {
                wbuf_put(&w->out, ",\"pid\":", 7);
                wbuf_i64(&w->out, pid);
            }
            if (k == 1) {
                wbuf_put(&w->out, ",\"tid\":", 7);
                wbuf_i64(&w->out, id);
            }
            wbuf_put(&w->out, ",\"args\":{\"name\":", 16);
            json_text(&w->out, value, vlen);
            wbuf_put(&w->out, "}}", 2);
        }
    }
}

int spoor_perfetto_writer_write(struct spoor_perfetto_writer *w, const struct spoor_table *t,
                                const struct spoor_resolved *res, const uint32_t *sel, size_t n,
                                struct spoor_error *err)
{
    if (!sel)
        n = t->nrows;
    bind_batch(w, t, res);
    for (size_t i = 0; i < n; i++)
        put_event(w, t, sel ? sel[i] : i);
    put_names(w, t);
    if (w->counters) {
        int st = perfetto_counters_add(w->counters, t, sel, n, err);
        if (st != SPOOR_OK)
            return st;
    }
    return wbuf_status(&w->out, err);
}

int spoor_perfetto_writer_finish(struct spoor_perfetto_writer *w, struct spoor_error *err)
{
    if (w->counters)
        perfetto_counters_write(w->counters, &w->out, begin_event, w);
    wbuf_put(&w->out, "\n]\n", 3);
    return wbuf_finish(&w->out, err);
}
