/* Args to dynamic columns: which keys are kept (all, none, or the listed
 * ones) and how a value is typed. Hashes stay text at any width.
 *
 * Keys and text values repeat from line to line (the same hhash on every
 * event, the same file for a run of reads), so both go through small caches
 * and a repeated one costs a compare instead of a hash-table probe. */
#include "read/pfw.h"

#include <stdlib.h>
#include <string.h>

void pfw_args_init(struct pfw_args *a, const struct spoor_read_opts *opts, bool quoted_numbers,
                   struct spoor_table *t)
{
    memset(a, 0, sizeof *a);
    a->mode = opts->args;
    a->quoted_numbers = quoted_numbers;
    a->t = t;
    if (a->mode != SPOOR_ARGS_LISTED || opts->n_arg_keys == 0)
        return;
    a->nlisted = opts->n_arg_keys;
    a->listed_keys = opts->arg_keys;
    a->listed = spoor_xmalloc(a->nlisted * sizeof *a->listed);
    a->listed_len = spoor_xmalloc(a->nlisted * sizeof *a->listed_len);
    for (size_t i = 0; i < a->nlisted; i++) {
        a->listed_len[i] = strlen(opts->arg_keys[i]);
        a->listed[i] = spoor_table_intern(t, opts->arg_keys[i], a->listed_len[i]);
    }
}

void pfw_args_release(struct pfw_args *a)
{
    free(a->listed);
    free(a->listed_len);
}

static uint32_t listed_column(const struct pfw_args *a, const struct spoor_json_tok *key)
{
    const char *p = key->p;
    size_t n = key->n;
    char buf[256];
    if (key->has_escape && n <= sizeof buf) {
        n = spoor_json_unescape(key->p, key->n, buf);
        p = buf;
    }
    for (size_t i = 0; i < a->nlisted; i++)
        if (a->listed_len[i] == n && memcmp(a->listed_keys[i], p, n) == 0)
            return a->listed[i];
    return UINT32_MAX;
}

uint32_t pfw_args_column(struct pfw_args *a, const struct spoor_json_tok *key, bool padded)
{
    if (a->mode == SPOOR_ARGS_NONE)
        return UINT32_MAX;
    uint32_t id;
    if (pfw_cache_find(&a->keys, key, padded, &id))
        return id;
    id = a->mode == SPOOR_ARGS_ALL ? pfw_intern_tok(a->t, key) : listed_column(a, key);
    pfw_cache_store(&a->keys, key, id);
    return id;
}

static bool is_hash_key(const struct spoor_json_tok *key)
{
    return key->n >= 4 && memcmp(key->p + key->n - 4, "hash", 4) == 0;
}

void pfw_args_set(struct pfw_args *a, uint32_t name_id, const struct spoor_json_tok *key,
                  const struct spoor_json_tok *val, size_t row, bool padded)
{
    struct spoor_table *t = a->t;
    struct spoor_value v;
    bool hash = is_hash_key(key);
    /* Values that end up as interned text: hashes of any kind, and strings
     * that cannot be read as quoted numbers. */
    bool text = val->kind == SPOOR_JSON_STRING
                    ? hash || !a->quoted_numbers || val->n == 0 || (val->p[0] != '-' && (val->p[0] < '0' || val->p[0] > '9'))
                    : hash && val->kind == SPOOR_JSON_NUMBER;
    if (text) {
        uint32_t id = pfw_cache_intern(&a->values, t, val, padded);
        struct spoor_column *col = spoor_table_column(t, name_id);
        if (col->typed && col->type == SPOOR_STR) {
            /* the common case, without the type checks of spoor_table_set */
            col->str[row] = id;
            col->valid[row / 64] |= 1ULL << (row % 64);
            return;
        }
        v = (struct spoor_value){.type = SPOOR_STR, .str = id, .text = val->p, .text_len = val->n};
    } else {
        spoor_json_to_value(t, val, a->quoted_numbers, NULL, &v);
    }
    spoor_table_set(t, spoor_table_column(t, name_id), row, &v);
}
