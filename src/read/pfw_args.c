/* Args to dynamic columns: which keys are kept (all, none, or the listed
 * ones) and how a value is typed. Hashes stay text at any width. */
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

uint32_t pfw_args_column(struct pfw_args *a, const struct spoor_json_tok *key)
{
    if (a->mode == SPOOR_ARGS_ALL)
        return pfw_cache_intern(&a->keys, a->t, key);
    if (a->mode == SPOOR_ARGS_NONE)
        return UINT32_MAX;
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

static bool is_hash_key(const struct spoor_json_tok *key)
{
    return key->n >= 4 && memcmp(key->p + key->n - 4, "hash", 4) == 0;
}

void pfw_args_set(struct pfw_args *a, uint32_t name_id, const struct spoor_json_tok *key,
                  const struct spoor_json_tok *val, size_t row)
{
    struct spoor_table *t = a->t;
    struct spoor_value v;
    if (val->kind == SPOOR_JSON_NUMBER && is_hash_key(key)) {
        v = (struct spoor_value){.type = SPOOR_STR, .str = spoor_table_intern(t, val->p, val->n),
                                 .text = val->p, .text_len = val->n};
    } else {
        spoor_json_to_value(t, val, a->quoted_numbers && !is_hash_key(key), &v);
    }
    spoor_table_set(t, spoor_table_column(t, name_id), row, &v);
}
