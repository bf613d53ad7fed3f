/* The JSON lines reader: one object per line with fields the user names. The
 * mapped fields fill the fixed columns; every other member becomes a dynamic
 * column typed by what it holds (nested objects and arrays as their raw JSON
 * text, quoted numbers as strings). */
#include "read/mapped_reader.h"
#include "read/json_scan.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>

static const char *skip_blanks(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
        p++;
    return p;
}

/* Moderate confidence for objects; low for Chrome trace events, which the pfw
 * reader knows better (it scores them higher). */
static int jsonl_sniff(const char *head, size_t len)
{
    const char *p = head + spoor_bom_len(head, len), *end = head + len;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
        p++;
    if (p == end)
        return 0;
    if (*p == '[')
        return 10;
    if (*p != '{')
        return 0;
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
    bool chrome = memmem(p, n, "\"ph\"", 4) && (memmem(p, n, "\"ts\"", 4) || memmem(p, n, "\"name\"", 6));
    return chrome ? 25 : 60;
}

/* A key as text: the raw bytes, or its unescaped form in buf when it has
 * escapes (keys longer than buf are compared raw). */
static const char *key_text(const struct spoor_json_tok *key, char *buf, size_t cap, size_t *len)
{
    if (key->has_escape && key->n < cap) {
        *len = spoor_json_unescape(key->p, key->n, buf);
        return buf;
    }
    *len = key->n;
    return key->p;
}

/* Samples the ts field of the head's objects and checks that every field the
 * user named occurs in them. */
static int jsonl_detect(const char *head, size_t len, const struct spoor_read_opts *opts, struct spoor_dialect *d,
                        struct spoor_error *err)
{
    struct spoor_field_map *map = spoor_mapped_begin(d, &spoor_format_jsonl, opts);
    struct spoor_head_fields head_fields = {0};
    const char *p = head + spoor_bom_len(head, len), *line, *line_end;
    while (spoor_head_line(&p, head + len, &head_fields, &line, &line_end)) {
        const char *start = skip_blanks(line, line_end);
        if (start == line_end || *start != '{')
            continue;
        head_fields.records++;
        struct spoor_json_iter it;
        struct spoor_json_tok key, val;
        spoor_json_iter_init(&it, start, line_end);
        while (spoor_json_next(&it, &key, &val) == 1) {
            char buf[256];
            size_t n;
            const char *k = key_text(&key, buf, sizeof buf, &n);
            spoor_head_field(&head_fields, map, k, n, val.p, val.n, val.kind == SPOOR_JSON_NULL);
        }
    }
    return spoor_mapped_finish(&head_fields, d, opts, "JSON objects", err);
}

/* What a key does in this chunk, found once per distinct key spelling. */
struct key_info {
    const char *key;        /* raw bytes, in the chunk */
    size_t len;
    uint64_t hash;
    unsigned roles;         /* fixed columns it fills */
    int col;                /* dynamic column index, or -1 */
    struct spoor_string_memo memo; /* its last plain string value */
};

/* Keys by spelling. Objects of one log mostly list the same keys in the same
 * order, so the key last seen at each member position is tried first, which
 * costs one memcmp instead of a hash. */
enum { CACHED_POSITIONS = 64 };
struct key_cache {
    struct key_info *keys;  /* stable indices */
    size_t nkeys, cap;
    uint32_t *slots;        /* hash index: key index + 1 */
    size_t nslots;
    uint32_t at_position[CACHED_POSITIONS]; /* key index + 1 */
};

static void cache_init(struct key_cache *c)
{
    memset(c, 0, sizeof *c);
    c->nslots = 64;
    c->slots = spoor_xcalloc(c->nslots, sizeof *c->slots);
}

static void cache_free(struct key_cache *c)
{
    free(c->keys);
    free(c->slots);
}

static size_t cache_slot(const struct key_cache *c, const char *key, size_t len, uint64_t hash)
{
    size_t j = hash & (c->nslots - 1);
    for (; c->slots[j]; j = (j + 1) & (c->nslots - 1)) {
        const struct key_info *k = &c->keys[c->slots[j] - 1];
        if (k->hash == hash && k->len == len && memcmp(k->key, key, len) == 0)
            break;
    }
    return j;
}

static void cache_grow(struct key_cache *c)
{
    free(c->slots);
    c->nslots *= 2;
    c->slots = spoor_xcalloc(c->nslots, sizeof *c->slots);
    for (size_t i = 0; i < c->nkeys; i++)
        c->slots[cache_slot(c, c->keys[i].key, c->keys[i].len, c->keys[i].hash)] = (uint32_t)i + 1;
}

/* A new key: its roles and, if kept, its column (created now). */
static uint32_t cache_add(struct key_cache *c, size_t slot, const struct spoor_json_tok *key, uint64_t hash,
                          const struct spoor_field_map *map, struct spoor_table *t)
{
    char buf[256];
    size_t n;
    const char *k = key_text(key, buf, sizeof buf, &n);
    spoor_reserve((void **)&c->keys, &c->cap, c->nkeys + 1, sizeof *c->keys);
    struct key_info *info = &c->keys[c->nkeys];
    *info = (struct key_info){.key = key->p, .len = key->n, .hash = hash, .col = -1};
    info->roles = spoor_field_map_roles(map, k, n);
    if (spoor_field_map_keeps(map, k, n, info->roles))
        info->col = (int)(spoor_table_column(t, spoor_table_intern(t, k, n)) - t->cols);
    c->slots[slot] = (uint32_t)++c->nkeys;
    if (c->nkeys * 2 > c->nslots)
        cache_grow(c);
    return (uint32_t)c->nkeys;
}

static struct key_info *cache_lookup(struct key_cache *c, const struct spoor_json_tok *key, size_t position,
                                     const struct spoor_field_map *map, struct spoor_table *t)
{
    uint32_t *hint = position < CACHED_POSITIONS ? &c->at_position[position] : NULL;
    if (hint && *hint) {
        struct key_info *k = &c->keys[*hint - 1];
        if (k->len == key->n && memcmp(k->key, key->p, key->n) == 0)
            return k;
    }
    uint64_t hash = spoor_hash_bytes(key->p, key->n);
    size_t slot = cache_slot(c, key->p, key->n, hash);
    uint32_t index = c->slots[slot] ? c->slots[slot] : cache_add(c, slot, key, hash, map, t);
    if (hint)
        *hint = index;
    return &c->keys[index - 1];
}

/* Per-chunk working memory: the key cache and a buffer for unescaped strings. */
struct jsonl_parser {
    const struct spoor_field_map *map;
    struct spoor_table *t;
    uint32_t src;           /* the input the rows come from */
    struct key_cache keys;
    struct spoor_string_memo memo[SPOOR_FIXED_COUNT];
    char *scratch;
    size_t scratch_cap;
};

/* Fills fixed column f from a member's value; returns NULL or a skip reason. */
static const char *set_fixed(struct jsonl_parser *jp, size_t row, enum spoor_fixed f, const struct spoor_json_tok *val)
{
    if (val->kind == SPOOR_JSON_NULL)
        return NULL;
    const char *text = val->p;
    size_t n = val->n;
    struct spoor_string_memo *memo = &jp->memo[f];
    if (val->kind == SPOOR_JSON_STRING) {
        if (spoor_field_is_blank(text, n))
            return NULL;
        if (val->has_escape) {
            if (jp->scratch_cap < n) {
                jp->scratch_cap = n * 2;
                free(jp->scratch);
                jp->scratch = spoor_xmalloc(jp->scratch_cap);
            }
            n = spoor_json_unescape(val->p, val->n, jp->scratch);
            text = jp->scratch;
            memo = NULL;
        }
    }
    return spoor_field_map_set_fixed(jp->map, jp->t, row, f, text, n, memo);
}

/* Adds the row for one object line; returns NULL or the skip reason (row dropped). */
static const char *add_row(struct jsonl_parser *jp, const char *obj, const char *end, uint64_t line_no)
{
    struct spoor_table *t = jp->t;
    size_t row = spoor_table_add_row(t);
    t->src[row] = jp->src;
    t->line[row] = line_no;
    struct spoor_json_iter it;
    struct spoor_json_tok key, val;
    spoor_json_iter_init(&it, obj, end);
    int got;
    for (size_t position = 0; (got = spoor_json_next(&it, &key, &val)) == 1; position++) {
        struct key_info *info = cache_lookup(&jp->keys, &key, position, jp->map, t);
        for (unsigned roles = info->roles; roles; roles &= roles - 1) {
            const char *reason = set_fixed(jp, row, (enum spoor_fixed)__builtin_ctz(roles), &val);
            if (reason) {
                spoor_table_drop_last_row(t);
                return reason;
            }
        }
        if (info->col >= 0) {
            struct spoor_value v;
            if (val.kind == SPOOR_JSON_STRING && !val.has_escape)
                v = (struct spoor_value){.type = SPOOR_STR, .str = spoor_memo_intern(&info->memo, t, val.p, val.n),
                                         .text = val.p, .text_len = val.n};
            else
                spoor_json_to_value(t, &val, false, NULL, &v);
            spoor_mapped_set(t, &t->cols[info->col], row, &v);
        }
    }
    if (got < 0) {
        spoor_table_drop_last_row(t);
        return "malformed JSON object";
    }
    spoor_field_map_set_phase(t, row);
    return NULL;
}

static const char *jsonl_line(void *ctx, const char *line, const char **line_end, uint64_t line_no)
{
    struct jsonl_parser *jp = ctx;
    const char *start = skip_blanks(line, *line_end);
    if (start == *line_end)
        return NULL;
    return *start == '{' ? add_row(jp, start, *line_end, line_no) : "not a JSON object";
}

static int jsonl_parse(struct spoor_parse_job *job, const char *buf, size_t len, struct spoor_error *err)
{
    struct jsonl_parser jp = {.map = job->dialect->state, .t = job->out, .src = job->src};
    cache_init(&jp.keys);
    int status = spoor_mapped_lines(job, buf, len, jsonl_line, &jp, err);
    cache_free(&jp.keys);
    free(jp.scratch);
    return status;
}

const struct spoor_format spoor_format_jsonl = {
    .name = "jsonl",
    .sniff = jsonl_sniff,
    .detect = jsonl_detect,
    .parse = jsonl_parse,
    .release = spoor_mapped_release,
};
