/* Sidecar layout (one JSON object; "calls" first so it can be streamed):
 *   {"format": "spoor-gen-truth/1", "trace": ..., "seed": ..., ...,
 *    "call_fields": [...], "kernel_fields": [...],
 *    "calls": [[call_id, line, "name", [[line, "cat.name", dur_ns, self_ns], ...]], ...],
 *    "lines": ..., "events": ..., "metadata_events": ..., ..., "groups": [...]}
 * Lines are 1-based lines of the trace ("[" is line 1). */
#include "gen/truth.h"

#include <stdlib.h>
#include <string.h>

enum { TRUTH_BUF = 1 << 20 };

static void put_cstr(struct gen_buf *b, const char *s) { gen_buf_put(b, s, strlen(s)); }

static int flush_if_full(struct gen_truth *t, struct spoor_error *err)
{
    if (t->buf.len + GEN_LINE_MAX <= t->buf.cap)
        return 0;
    int rc = gen_out_write(&t->out, t->buf.data, t->buf.len, err);
    t->buf.len = 0;
    return rc;
}

int gen_truth_open(struct gen_truth *t, const char *trace_path, const struct gen_model *m, bool write,
                   struct spoor_error *err)
{
    memset(t, 0, sizeof *t);
    t->write = write;
    if (!write)
        return 0;
    char path[4096];
    spoor_gen_truth_path(trace_path, path, sizeof path);
    int rc = gen_out_open(&t->out, path, 0, err);
    if (rc)
        return rc;
    t->buf.cap = TRUTH_BUF;
    t->buf.data = spoor_xmalloc(t->buf.cap);
    struct gen_buf *b = &t->buf;
    const char *base = strrchr(trace_path, '/');
    base = base ? base + 1 : trace_path;
    GEN_BUF_LIT(b, "{\"format\": \"spoor-gen-truth/1\", \"trace\": \"");
    gen_buf_put(b, base, strnlen(base, 512));
    GEN_BUF_LIT(b, "\", \"seed\": ");
    gen_buf_u64(b, m->opts.seed);
    GEN_BUF_LIT(b, ", \"procs\": ");
    gen_buf_i64(b, m->opts.procs);
    GEN_BUF_LIT(b, ", \"size_target\": ");
    gen_buf_u64(b, m->opts.size_bytes);
    if (m->opts.random_hashes)
        GEN_BUF_LIT(b, ", \"random_hashes\": true");
    else
        GEN_BUF_LIT(b, ", \"random_hashes\": false");
    GEN_BUF_LIT(b, ", \"units\": {\"ts\": \"us\", \"dur\": \"ns\"},\n"
                   " \"call_fields\": [\"call_id\", \"line\", \"name\", \"kernel\"],\n"
                   " \"kernel_fields\": [\"line\", \"cat.name\", \"dur_ns\", \"self_ns\"],\n"
                   " \"calls\": [\n");
    return 0;
}

/* One call's record: its nested events are m->ev[e->first_nested .. index). */
static int put_call(struct gen_truth *t, const struct gen_model *m, size_t index, uint64_t first_line,
                    struct spoor_error *err)
{
    const struct gen_event *e = &m->ev[index];
    struct gen_buf *b = &t->buf;
    if (t->calls > 1)
        GEN_BUF_LIT(b, ",\n");
    GEN_BUF_LIT(b, "[");
    gen_buf_u64(b, e->call_id);
    GEN_BUF_LIT(b, ", ");
    gen_buf_u64(b, first_line + index);
    GEN_BUF_LIT(b, ", \"");
    put_cstr(b, gen_kinds[e->kind].name);
    GEN_BUF_LIT(b, "\", [");
    for (size_t j = e->first_nested; j < index; j++) {
        const struct gen_event *k = &m->ev[j];
        int rc = flush_if_full(t, err);
        if (rc)
            return rc;
        if (j > e->first_nested)
            GEN_BUF_LIT(b, ", ");
        GEN_BUF_LIT(b, "[");
        gen_buf_u64(b, first_line + j);
        GEN_BUF_LIT(b, ", \"");
        put_cstr(b, gen_kinds[k->kind].cat);
        GEN_BUF_LIT(b, ".");
        put_cstr(b, gen_kinds[k->kind].name);
        GEN_BUF_LIT(b, "\", ");
        gen_buf_i64(b, k->dur_ns);
        GEN_BUF_LIT(b, ", ");
        gen_buf_i64(b, k->self_ns);
        GEN_BUF_LIT(b, "]");
    }
    GEN_BUF_LIT(b, "]]");
    return 0;
}

int gen_truth_add(struct gen_truth *t, const struct gen_model *m, uint64_t first_line, struct spoor_error *err)
{
    t->lines = first_line + m->nev - 1;
    for (size_t i = 0; i < m->nev; i++) {
        const struct gen_event *e = &m->ev[i];
        enum gen_class cls = gen_kinds[e->kind].cls;
        t->count[e->kind]++;
        if (cls == GEN_CLASS_META) {
            t->metadata++;
            continue;
        }
        t->events++;
        t->dur_sum[e->kind] += e->dur_ns;
        if (cls == GEN_CLASS_KERNEL) {
            if (e->call_id)
                t->kernel++;
            else
                t->background++;
        } else if (cls == GEN_CLASS_SYS) {
            t->calls++;
            if (t->write) {
                int rc = flush_if_full(t, err);
                if (!rc)
                    rc = put_call(t, m, i, first_line, err);
                if (rc)
                    return rc;
            }
        }
    }
    return t->write ? flush_if_full(t, err) : 0;
}

static void put_total(struct gen_buf *b, const char *key, uint64_t v)
{
    GEN_BUF_LIT(b, ", \"");
    put_cstr(b, key);
    GEN_BUF_LIT(b, "\": ");
    gen_buf_u64(b, v);
}

int gen_truth_finish(struct gen_truth *t, const struct gen_model *m, struct spoor_gen_result *r,
                     struct spoor_error *err)
{
    uint64_t threads, processes;
    gen_model_count_threads(m, &threads, &processes);
    r->lines = t->lines;
    r->events = t->events;
    r->metadata_events = t->metadata;
    r->calls = t->calls;
    r->kernel_events = t->kernel;
    r->background_events = t->background;
    if (!t->write)
        return 0;

    struct gen_buf *b = &t->buf;
    int rc = flush_if_full(t, err);
    if (rc)
        return rc;
    GEN_BUF_LIT(b, "\n ],\n \"lines\": ");
    gen_buf_u64(b, t->lines);
    put_total(b, "events", t->events);
    put_total(b, "metadata_events", t->metadata);
    put_total(b, "call_count", t->calls);
    put_total(b, "kernel_events", t->kernel);
    put_total(b, "background_events", t->background);
    put_total(b, "files", m->distinct_files);
    put_total(b, "hosts", 1);
    put_total(b, "processes", processes);
    put_total(b, "threads", threads);
    GEN_BUF_LIT(b, ",\n \"groups\": [");
    bool first = true;
    for (int k = 0; k < GEN_NKINDS; k++) {
        if (!t->count[k])
            continue;
        if ((rc = flush_if_full(t, err)))
            return rc;
        if (!first)
            GEN_BUF_LIT(b, ",");
        first = false;
        GEN_BUF_LIT(b, "\n  {\"cat\": \"");
        put_cstr(b, gen_kinds[k].cat);
        GEN_BUF_LIT(b, "\", \"name\": \"");
        put_cstr(b, gen_kinds[k].name);
        GEN_BUF_LIT(b, "\", \"count\": ");
        gen_buf_u64(b, t->count[k]);
        if (gen_kinds[k].cls != GEN_CLASS_META) {
            GEN_BUF_LIT(b, ", \"dur_sum\": ");
            gen_buf_i64(b, t->dur_sum[k]);
        }
        GEN_BUF_LIT(b, "}");
    }
    GEN_BUF_LIT(b, "\n ]}\n");
    rc = gen_out_write(&t->out, b->data, b->len, err);
    free(b->data);
    b->data = NULL;
    return rc ? rc : gen_out_commit(&t->out, NULL, err);
}

void gen_truth_abort(struct gen_truth *t)
{
    if (t->write)
        gen_out_abort(&t->out);
    free(t->buf.data);
    t->buf.data = NULL;
}
