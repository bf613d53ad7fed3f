/* Column names as users write them, and views that bind them to a batch. */
#include "spoor/table.h"

#include <string.h>

const char *const spoor_field_names[] = {
    "ts", "dur", "name", "cat", "pid", "tid", "ph", "line", "source", "file", "host", NULL,
};

enum spoor_field spoor_field_parse(const char *name, size_t len, const char **key, size_t *key_len)
{
    for (int f = 0; spoor_field_names[f]; f++)
        if (strlen(spoor_field_names[f]) == len && memcmp(spoor_field_names[f], name, len) == 0)
            return (enum spoor_field)f;
    if (len > 5 && memcmp(name, "args.", 5) == 0) {
        name += 5;
        len -= 5;
    }
    *key = name;
    *key_len = len;
    return SPOOR_FIELD_ARG;
}

bool spoor_field_arg_needs_prefix(const char *key, size_t len)
{
    const char *k;
    size_t klen;
    return spoor_field_parse(key, len, &k, &klen) != SPOOR_FIELD_ARG || (len > 5 && !memcmp(key, "args.", 5));
}

/* Optimal string alignment distance, capped: names are short. */
static size_t distance(const char *a, const char *b)
{
    enum { MAXLEN = 64 };
    size_t la = strlen(a), lb = strlen(b);
    if (la >= MAXLEN || lb >= MAXLEN)
        return MAXLEN;
    size_t d[MAXLEN + 1][MAXLEN + 1];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t cost = a[i - 1] != b[j - 1];
            size_t best = d[i - 1][j - 1] + cost;
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

static void consider(const char *name, const char *cand, const char **best, size_t *best_d)
{
    size_t d = distance(name, cand);
    if (d > 0 && (d < *best_d || (!*best && d == *best_d))) {
        *best = cand;
        *best_d = d;
    }
}

const char *spoor_field_suggest(const char *name, const char *const *extra, size_t nextra)
{
    const char *best = NULL;
    size_t best_d = strlen(name) <= 3 ? 1 : 2; /* farther than this is not a typo */
    for (size_t i = 0; spoor_field_names[i]; i++)
        consider(name, spoor_field_names[i], &best, &best_d);
    for (size_t i = 0; i < nextra; i++)
        consider(name, extra[i], &best, &best_d);
    return best;
}

bool spoor_view_bind(struct spoor_view *v, enum spoor_field field, const char *key, size_t key_len,
                     const struct spoor_table *t, const struct spoor_resolved *res)
{
    memset(v, 0, sizeof *v);
    v->pool = t->pool;
    switch (field) {
    case SPOOR_FIELD_TS: v->kind = SPOOR_VIEW_I64; v->i64 = t->ts; return true;
    case SPOOR_FIELD_DUR: v->kind = SPOOR_VIEW_I64; v->i64 = t->dur; return true;
    case SPOOR_FIELD_PID: v->kind = SPOOR_VIEW_I64; v->i64 = t->pid; return true;
    case SPOOR_FIELD_TID: v->kind = SPOOR_VIEW_I64; v->i64 = t->tid; return true;
    /* Line numbers are below 2^63; int64 and uint64 may alias. */
    case SPOOR_FIELD_LINE: v->kind = SPOOR_VIEW_I64; v->i64 = (const int64_t *)t->line; return true;
    case SPOOR_FIELD_NAME: v->kind = SPOOR_VIEW_STR; v->str = t->name; return true;
    case SPOOR_FIELD_CAT: v->kind = SPOOR_VIEW_STR; v->str = t->cat; return true;
    case SPOOR_FIELD_PH: v->kind = SPOOR_VIEW_PH; v->ph = t->ph; return true;
    case SPOOR_FIELD_SOURCE:
        v->kind = SPOOR_VIEW_SOURCE;
        v->src = t->src;
        v->sources = (const char *const *)t->sources;
        v->nsources = t->nsources;
        return true;
    case SPOOR_FIELD_FILE:
    case SPOOR_FIELD_HOST:
        if (!res || res->nrows != t->nrows)
            return true;
        v->kind = SPOOR_VIEW_STR;
        v->str = field == SPOOR_FIELD_FILE ? res->file : res->host;
        v->pool = res->pool;
        v->stable_ids = true;
        return true;
    case SPOOR_FIELD_ARG:
        break;
    }
    uint32_t id = spoor_strpool_find(t->pool, key, key_len);
    if (id == UINT32_MAX || id >= t->col_by_name_cap || !t->col_by_name[id])
        return false;
    const struct spoor_column *col = &t->cols[t->col_by_name[id] - 1];
    v->valid = col->valid;
    switch (col->type) {
    case SPOOR_I64: v->kind = SPOOR_VIEW_I64; v->i64 = col->i64; break;
    case SPOOR_F64: v->kind = SPOOR_VIEW_F64; v->f64 = col->f64; break;
    case SPOOR_STR: v->kind = SPOOR_VIEW_STR; v->str = col->str; break;
    }
    return true;
}

const char *spoor_view_text(const struct spoor_view *v, size_t row, char phbuf[2], size_t *len)
{
    switch (v->kind) {
    case SPOOR_VIEW_STR:
        return spoor_strpool_get(v->pool, v->str[row], len);
    case SPOOR_VIEW_PH:
        phbuf[0] = (char)v->ph[row];
        phbuf[1] = '\0';
        *len = phbuf[0] ? 1 : 0;
        return phbuf;
    case SPOOR_VIEW_SOURCE:
        if (v->src[row] < v->nsources) {
            *len = strlen(v->sources[v->src[row]]);
            return v->sources[v->src[row]];
        }
        break;
    default:
        break;
    }
    *len = 0;
    return "";
}
