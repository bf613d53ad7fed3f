#include "gen/emit.h"

static void put_str(struct gen_buf *b, const char *s)
{
    gen_buf_put(b, s, strlen(s));
}

static void put_hex(struct gen_buf *b, const uint64_t *words, int n)
{
    static const char hex[] = "0123456789abcdef";
    char *p = b->data + b->len;
    for (int i = 0; i < n; i++)
        for (int shift = 60; shift >= 0; shift -= 4)
            *p++ = hex[(words[i] >> shift) & 15];
    b->len += (size_t)n * 16;
}

static void put_pid_tid(struct gen_buf *b, const struct gen_event *e)
{
    GEN_BUF_LIT(b, "{\"pid\": ");
    gen_buf_i64(b, e->pid);
    GEN_BUF_LIT(b, ", \"tid\": ");
    gen_buf_i64(b, e->tid);
    GEN_BUF_LIT(b, ", ");
}

/* HH (host) and FH (file) name a hash: {"name": ..., "value": <hash>}. */
static void emit_metadata(struct gen_buf *b, const struct gen_model *m, const struct gen_event *e)
{
    const char *name, *value;
    size_t name_len, value_len;
    if (e->kind == K_HH) {
        GEN_BUF_LIT(b, "{\"name\": \"HH\", \"cat\": \"dftracer\", \"ph\": \"M\", \"args\": {\"name\": \"");
        name = m->host_name;
        name_len = strlen(m->host_name);
        value = m->host_hash;
        value_len = m->host_hash_len;
    } else {
        put_pid_tid(b, e);
        GEN_BUF_LIT(b, "\"name\": \"FH\", \"cat\": \"dftracer\", \"ph\": \"M\", \"args\": {\"name\": \"");
        name = e->file->path;
        name_len = e->file->path_len;
        value = e->file->hash;
        value_len = e->file->hash_len;
    }
    gen_buf_put(b, name, name_len);
    GEN_BUF_LIT(b, "\", \"value\": ");
    gen_buf_put(b, value, value_len);
    GEN_BUF_LIT(b, "}}\n");
}

void gen_emit_event(struct gen_buf *b, const struct gen_model *m, const struct gen_event *e)
{
    const struct gen_kind *k = &gen_kinds[e->kind];
    if (k->cls == GEN_CLASS_META) {
        emit_metadata(b, m, e);
        return;
    }
    put_pid_tid(b, e);
    GEN_BUF_LIT(b, "\"name\": \"");
    put_str(b, k->name);
    GEN_BUF_LIT(b, "\", \"cat\": \"");
    put_str(b, k->cat);
    GEN_BUF_LIT(b, "\", \"ph\": \"X\", \"ts\": ");
    gen_buf_i64(b, e->start_ns / 1000);
    GEN_BUF_LIT(b, ", \"dur\": ");
    gen_buf_i64(b, e->dur_ns);
    GEN_BUF_LIT(b, ", \"args\": {\"hhash\": ");
    gen_buf_put(b, m->host_hash, m->host_hash_len);
    if (e->size >= 0) {
        GEN_BUF_LIT(b, ", \"size_sum\": ");
        gen_buf_i64(b, e->size);
    }
    if (e->file) {
        GEN_BUF_LIT(b, ", \"fhash\": ");
        gen_buf_put(b, e->file->hash, e->file->hash_len);
    }
    if (k->cls == GEN_CLASS_SYS) {
        GEN_BUF_LIT(b, ", \"call_id\": ");
        gen_buf_u64(b, e->call_id);
    }
    if (e->random_args) {
        GEN_BUF_LIT(b, ", \"rid\": ");
        b->len += gen_fmt_u128(b->data + b->len, e->rid_hi, e->rid_lo);
        GEN_BUF_LIT(b, ", \"digest\": \"");
        put_hex(b, e->digest, GEN_DIGEST_WORDS);
        GEN_BUF_LIT(b, "\"");
    }
    GEN_BUF_LIT(b, "}}\n");
}
