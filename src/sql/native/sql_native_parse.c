/* Recognising the native subset: a recursive descent over the tokens of one
 * statement, which SQLite has already prepared (so it is valid SQL and its
 * names resolve). Every rule only accepts forms whose meaning is plain:
 * result items are GROUP BY columns or aggregates of a column, names are
 * events columns (never aliases, which SQLite resolves by rules of its own),
 * and ORDER BY names an alias, an ordinal, a group key or an aggregate. */
#include "sql/native/internal.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct parser {
    struct ncursor c;
    struct spoor_sql *s;
    struct ntoks t;
    struct native_query *q;
    size_t item_col[NATIVE_MAX_ITEMS];  /* events column of a column item */
    const char *alias[NATIVE_MAX_ITEMS];
};

static const struct ntok *peek(const struct parser *p) { return ncur_peek(&p->c); }
static bool accept_word(struct parser *p, const char *word) { return ncur_word(&p->c, word); }
static bool accept_punct(struct parser *p, const char *op) { return ncur_punct(&p->c, op); }
static bool decline(struct parser *p, const char *why) { return ncur_decline(&p->c, why); }

bool native_column(const struct spoor_sql *s, const struct ntok *tok, size_t *col)
{
    if (tok->kind != NT_QIDENT && (tok->kind != NT_IDENT || sqlite3_keyword_check(tok->text, (int)tok->len)))
        return false;
    for (size_t i = 0; i < s->cols.n; i++)
        if (!sqlite3_stricmp(s->cols.v[i].label, tok->text)) {
            *col = i;
            return true;
        }
    return false;
}

static const char *const agg_names[] = {
    [AGG_COUNT] = "count", [AGG_SUM] = "sum", [AGG_TOTAL] = "total",
    [AGG_AVG] = "avg",     [AGG_MIN] = "min", [AGG_MAX] = "max",
};

/* What an aggregate may read: sums only integers (real sums depend on the
 * order SQLite adds in), nothing over a real key of a group. */
static bool agg_type_ok(const struct spoor_sql *s, enum native_agg_kind kind, size_t col)
{
    const char *type = s->cols.v[col].decl_type;
    switch (kind) {
    case AGG_SUM:
    case AGG_TOTAL:
    case AGG_AVG: return !strcmp(type, "INTEGER") || !*type;
    default: return true;
    }
}

/* name(*) or name(column) at the current token; the aggregate's index. */
static bool aggregate(struct parser *p, size_t *index)
{
    const struct ntok *name = peek(p);
    enum native_agg_kind kind = AGG_COUNT_STAR;
    size_t n = sizeof agg_names / sizeof agg_names[0], k = 0;
    while (name->kind == NT_IDENT && k < n && !(agg_names[k] && !strcasecmp(agg_names[k], name->text)))
        k++;
    if (name->kind != NT_IDENT || k == n)
        return decline(p, "a function other than count, sum, total, avg, min, max");
    p->c.pos += 2; /* name ( */
    size_t col = 0;
    if (k == AGG_COUNT && accept_punct(p, "*")) {
        kind = AGG_COUNT_STAR;
    } else if (native_column(p->s, peek(p), &col)) {
        kind = (enum native_agg_kind)k;
        p->c.pos++;
    } else {
        return decline(p, "an aggregate of other than a column");
    }
    if (!accept_punct(p, ")"))
        return decline(p, "an aggregate with more than one argument");
    if (!agg_type_ok(p->s, kind, col))
        return decline(p, "sum, total or avg of a REAL or TEXT column");
    struct native_query *q = p->q;
    for (*index = 0; *index < q->naggs; ++*index)
        if (q->aggs[*index].kind == kind && (kind == AGG_COUNT_STAR || q->aggs[*index].col == col))
            return true;
    if (q->naggs == NATIVE_MAX_AGGS)
        return decline(p, "too many aggregates");
    q->aggs[q->naggs++] = (struct native_agg){.kind = kind, .col = col};
    return true;
}

static bool is_call(const struct parser *p) { return ntok_is_punct(ncur_ahead(&p->c, 1), "("); }

static bool item(struct parser *p)
{
    struct native_query *q = p->q;
    if (q->nitems == NATIVE_MAX_ITEMS)
        return decline(p, "too many result columns");
    size_t i = q->nitems++;
    if (is_call(p)) {
        q->items[i].agg = true;
        if (!aggregate(p, &q->items[i].index))
            return false;
    } else if (native_column(p->s, peek(p), &p->item_col[i])) {
        p->c.pos++;
        q->items[i].agg = false;
    } else {
        return decline(p, "a result column other than a column or an aggregate");
    }
    if (accept_word(p, "as")) {
        const struct ntok *a = peek(p);
        if (a->kind != NT_IDENT && a->kind != NT_QIDENT && a->kind != NT_STRING)
            return decline(p, "an alias the native path does not read");
        p->alias[i] = a->text;
        p->c.pos++;
    }
    return true;
}

static bool key_of_column(struct parser *p, size_t col)
{
    struct native_query *q = p->q;
    if (q->nkeys == NATIVE_MAX_KEYS)
        return decline(p, "too many GROUP BY terms");
    if (!strcmp(p->s->cols.v[col].decl_type, "REAL"))
        return decline(p, "GROUP BY a REAL column");
    q->keys[q->nkeys++] = col;
    return true;
}

static bool group_by(struct parser *p)
{
    do {
        const struct ntok *tok = peek(p);
        size_t col;
        if (tok->kind == NT_INT) {
            if (tok->i < 1 || (size_t)tok->i > p->q->nitems || p->q->items[tok->i - 1].agg)
                return decline(p, "GROUP BY an ordinal that is not a column");
            col = p->item_col[tok->i - 1];
        } else if (!native_column(p->s, tok, &col)) {
            return decline(p, "GROUP BY other than columns and ordinals");
        }
        p->c.pos++;
        if (!key_of_column(p, col))
            return false;
    } while (accept_punct(p, ","));
    return true;
}

/* Column items must be group keys: SQLite gives any row's value otherwise. */
static bool bind_items(struct parser *p)
{
    struct native_query *q = p->q;
    for (size_t i = 0; i < q->nitems; i++) {
        if (q->items[i].agg)
            continue;
        size_t k = 0;
        while (k < q->nkeys && q->keys[k] != p->item_col[i])
            k++;
        if (k == q->nkeys)
            return decline(p, "a result column that is not a GROUP BY key");
        q->items[i].index = k;
    }
    return true;
}

static bool order_term(struct parser *p, struct native_ref *ref)
{
    struct native_query *q = p->q;
    const struct ntok *tok = peek(p);
    if (tok->kind == NT_INT) {
        if (tok->i < 1 || (size_t)tok->i > q->nitems)
            return decline(p, "ORDER BY an ordinal out of range");
        *ref = q->items[tok->i - 1];
        p->c.pos++;
        return true;
    }
    if ((tok->kind == NT_IDENT || tok->kind == NT_QIDENT) && is_call(p)) {
        ref->agg = true;
        return aggregate(p, &ref->index);
    }
    if (tok->kind == NT_IDENT || tok->kind == NT_QIDENT)
        for (size_t i = 0; i < q->nitems; i++)
            if (p->alias[i] && !sqlite3_stricmp(p->alias[i], tok->text)) {
                *ref = q->items[i];
                p->c.pos++;
                return true;
            }
    size_t col;
    if (!native_column(p->s, tok, &col))
        return decline(p, "ORDER BY other than an ordinal, alias, key or aggregate");
    for (size_t k = 0; k < q->nkeys; k++)
        if (q->keys[k] == col) {
            *ref = (struct native_ref){.agg = false, .index = k};
            p->c.pos++;
            return true;
        }
    return decline(p, "ORDER BY a column that is not a GROUP BY key");
}

static bool order_by(struct parser *p)
{
    struct native_query *q = p->q;
    do {
        if (q->norder == NATIVE_MAX_ORDER)
            return decline(p, "too many ORDER BY terms");
        struct native_order *o = &q->order[q->norder++];
        if (!order_term(p, &o->ref))
            return false;
        o->desc = accept_word(p, "desc");
        if (!o->desc)
            accept_word(p, "asc");
    } while (accept_punct(p, ","));
    return true;
}

/* SQLite sorts groups by GROUP BY with the directions of an ORDER BY of as
 * many terms, whatever they are; a sorter runs unless ORDER BY is exactly
 * that order. */
static void group_order(struct native_query *q)
{
    bool same = q->nkeys > 0 && q->norder == q->nkeys;
    for (size_t k = 0; same && k < q->nkeys; k++)
        q->key_desc[k] = q->order[k].desc;
    for (size_t k = 0; same && k < q->nkeys; k++)
        same = !q->order[k].ref.agg && q->keys[q->order[k].ref.index] == q->keys[k];
    q->sorter = q->norder > 0 && !same;
}

static bool integer(struct parser *p, int64_t *out)
{
    bool neg = accept_punct(p, "-");
    if (peek(p)->kind != NT_INT)
        return decline(p, "LIMIT or OFFSET other than an integer");
    *out = neg ? -peek(p)->i : peek(p)->i;
    p->c.pos++;
    return true;
}

static bool limit(struct parser *p)
{
    struct native_query *q = p->q;
    int64_t first = 0; /* gcc -O3 cannot see that integer() sets it */
    if (!integer(p, &first))
        return false;
    q->limit = first;
    if (accept_word(p, "offset"))
        return integer(p, &q->offset);
    if (accept_punct(p, ",")) { /* LIMIT offset, count */
        q->offset = first;
        return integer(p, &q->limit);
    }
    return true;
}

static bool statement(struct parser *p)
{
    struct native_query *q = p->q;
    if (!accept_word(p, "select"))
        return decline(p, "not a SELECT");
    if (ntok_is_word(peek(p), "distinct") || ntok_is_word(peek(p), "all"))
        return decline(p, "SELECT DISTINCT or ALL");
    do {
        if (!item(p))
            return false;
    } while (accept_punct(p, ","));
    if (!accept_word(p, "from"))
        return decline(p, "SELECT without FROM or with an implicit alias");
    const struct ntok *table = peek(p);
    if ((table->kind != NT_IDENT && table->kind != NT_QIDENT) || strcasecmp(table->text, "events"))
        return decline(p, "FROM other than events");
    p->c.pos++;
    if (accept_word(p, "where") && !native_where(p->s, &p->c, &q->where))
        return decline(p, "WHERE outside the subset");
    if (accept_word(p, "group")) {
        if (!accept_word(p, "by") || !group_by(p))
            return decline(p, "GROUP BY outside the subset");
    }
    if (!bind_items(p))
        return false;
    if (accept_word(p, "order")) {
        if (!accept_word(p, "by") || !order_by(p))
            return decline(p, "ORDER BY outside the subset");
    }
    group_order(q);
    if (accept_word(p, "limit") && !limit(p))
        return false;
    accept_punct(p, ";");
    if (peek(p)->kind != NT_END)
        return decline(p, "a clause the native path does not take");
    return true;
}

bool native_parse(struct spoor_sql *s, const char *text, size_t len, struct native_query *q, const char **why)
{
    memset(q, 0, sizeof *q);
    q->limit = -1;
    struct parser p = {.s = s, .q = q};
    native_lex(text, len, &p.t);
    p.c.t = &p.t;
    bool ok = statement(&p);
    native_toks_free(&p.t);
    if (!ok) {
        native_query_free(q);
        *why = p.c.why ? p.c.why : "outside the subset";
    }
    return ok;
}

void native_query_free(struct native_query *q)
{
    free(q->where);
    q->where = NULL;
}
