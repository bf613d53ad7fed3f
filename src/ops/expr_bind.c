/* Binding a compiled expression to one table: each node gets the fastest
 * kernel the bound columns' types allow, literals are looked up in the
 * table's string pool, and per-string-id caches are reset. */
#include "ops/expr_ctx.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>

static const char ph_cache_owner; /* the ph cache is valid forever: letters mean the same everywhere */

static void fill_literal(struct bnode *b, const struct node *n)
{
    struct vec *v = &b->out;
    v->null = b->null;
    switch (n->kind) {
    case N_NUM:
        if (n->num.kind == NUM_INT) {
            v->kind = VK_INT;
            v->i = b->i;
            for (size_t k = 0; k < BLOCK; k++)
                b->i[k] = n->num.i;
        } else {
            v->kind = VK_REAL;
            v->f = b->f;
            for (size_t k = 0; k < BLOCK; k++)
                b->f[k] = n->num.f;
        }
        break;
    case N_STR:
        v->kind = VK_STR;
        v->s = b->s;
        v->dom = (struct strdom){.kind = D_LITERAL, .lit = n->str, .lit_len = n->len};
        break;
    default:
        v->kind = VK_NULL;
        break;
    }
}

static void init_list(struct bnode *b, const struct spoor_expr *e, const struct node *n)
{
    b->list = spoor_xcalloc(n->nlist, sizeof *b->list);
    b->ints = spoor_xcalloc(n->nlist, sizeof *b->ints);
    bool all_ints = true;
    for (size_t i = 0; i < n->nlist; i++) {
        const struct node *item = &e->nodes[n->list[i]];
        b->list[i] = expr_val_literal(item);
        if (item->kind == N_NULL)
            b->list_has_null = true;
        else if (item->kind == N_NUM && item->num.kind == NUM_INT)
            b->ints[b->nints++] = item->num.i;
        else
            all_ints = false;
    }
    if (!all_ints) {
        free(b->ints);
        b->ints = NULL;
        b->nints = 0;
    }
}

struct spoor_expr_ctx *spoor_expr_ctx_new(const struct spoor_expr *e)
{
    struct spoor_expr_ctx *c = spoor_xcalloc(1, sizeof *c);
    c->e = e;
    c->b = spoor_xcalloc(e->nnodes, sizeof *c->b);
    c->views = spoor_xcalloc(e->nrefs ? e->nrefs : 1, sizeof *c->views);
    c->found = spoor_xcalloc(e->nrefs ? e->nrefs : 1, sizeof *c->found);
    for (size_t i = 0; i < e->nnodes; i++) {
        const struct node *n = &e->nodes[i];
        struct bnode *b = &c->b[i];
        if (node_is_predicate(n)) {
            b->tri = spoor_xmalloc(BLOCK);
        } else {
            b->kernel = K_VALUE;
            b->i = spoor_xmalloc(BLOCK * sizeof *b->i);
            b->f = spoor_xmalloc(BLOCK * sizeof *b->f);
            b->s = spoor_xcalloc(BLOCK, sizeof *b->s);
            b->null = spoor_xcalloc(BLOCK, 1);
            if (n->kind == N_ARITH || n->kind == N_NEG) {
                b->fa = spoor_xmalloc(BLOCK * sizeof *b->fa);
                b->fb = spoor_xmalloc(BLOCK * sizeof *b->fb);
                b->na = spoor_xmalloc(BLOCK);
                b->nb = spoor_xmalloc(BLOCK);
            }
            fill_literal(b, n);
        }
        if (n->kind == N_IN)
            init_list(b, e, n);
    }
    return c;
}

void spoor_expr_ctx_free(struct spoor_expr_ctx *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->e->nnodes; i++) {
        struct bnode *b = &c->b[i];
        free(b->tri);
        free(b->i);
        free(b->f);
        free(b->fa);
        free(b->fb);
        free(b->s);
        free(b->null);
        free(b->na);
        free(b->nb);
        free(b->list);
        free(b->ints);
        free(b->cache);
    }
    free(c->b);
    free(c->views);
    free(c->found);
    free(c);
}

bool spoor_expr_ctx_found(const struct spoor_expr_ctx *c, size_t i)
{
    return i < c->e->nrefs && c->found[i];
}

static bool is_literal(const struct node *n) { return n->kind == N_NUM || n->kind == N_STR || n->kind == N_NULL; }

static int flip(int op)
{
    switch (op) {
    case CMP_LT: return CMP_GT;
    case CMP_LE: return CMP_GE;
    case CMP_GT: return CMP_LT;
    case CMP_GE: return CMP_LE;
    default: return op;
    }
}

/* Sizes and resets the per-id answer cache for a column with `count` ids. A
 * cache keeps its answers across binds while `owner` stays the same. */
static void prepare_cache(struct bnode *b, size_t count, const void *owner, bool id0_null)
{
    spoor_reserve((void **)&b->cache, &b->cache_cap, count, 1);
    bool keep = owner && owner == b->cache_owner;
    size_t from = keep ? b->cache_n : 0;
    if (count > from)
        memset(b->cache + from, 0, count - from);
    if (id0_null && count)
        b->cache[0] = TRI_U + 1;
    b->cache_n = count;
    b->cache_owner = owner;
}

/* A column kernel for a predicate whose other operands are constants. */
static void bind_cached(struct bnode *b)
{
    const struct spoor_view *v = &b->view;
    switch (v->kind) {
    case SPOOR_VIEW_STR:
        b->kernel = K_ID_CACHED;
        prepare_cache(b, spoor_strpool_count(v->pool), v->stable_ids ? (const void *)v->pool : NULL, !v->valid);
        break;
    case SPOOR_VIEW_PH:
        b->kernel = K_PH_CACHED;
        prepare_cache(b, 256, &ph_cache_owner, true);
        break;
    case SPOOR_VIEW_SOURCE:
        b->kernel = K_SRC_CACHED;
        prepare_cache(b, v->nsources, NULL, false);
        break;
    default:
        b->kernel = K_GENERIC;
        break;
    }
}

/* A number column against a constant. */
static void bind_number_cmp(struct bnode *b)
{
    struct num k;
    const struct val *kv = &b->kval;
    bool numeric = kv->kind == VAL_NUM || (kv->kind == VAL_STR && num_parse(kv->s, kv->len, &k));
    if (kv->kind == VAL_NUM)
        k = kv->num;
    if (!numeric) { /* a number sorts before a string that is not one */
        b->kernel = K_NUM_CONST;
        b->kconst = expr_cmp_result(b->op, -1);
    } else if (b->view.kind == SPOOR_VIEW_F64) {
        b->kernel = K_F64_CMP;
        b->kf = k.f;
    } else if (k.kind == NUM_INT) {
        b->kernel = K_I64_CMP;
        b->ki = k.i;
    } else if (k.kind == NUM_REAL) {
        b->kernel = K_I64_CMP_REAL;
        b->kf = k.f;
    } else {
        struct num any = num_int(0); /* every int64 is on the same side of a wider integer */
        b->kernel = K_NUM_CONST;
        b->kconst = expr_cmp_result(b->op, num_cmp(&any, &k));
    }
}

static void bind_cmp(struct spoor_expr_ctx *c, struct bnode *b, const struct node *n)
{
    const struct node *a = &c->e->nodes[n->a], *k = &c->e->nodes[n->b];
    b->op = n->op;
    if (!(a->kind == N_COL && is_literal(k))) {
        if (!(k->kind == N_COL && is_literal(a))) {
            b->kernel = K_GENERIC;
            return;
        }
        const struct node *t = a;
        a = k;
        k = t;
        b->op = flip(n->op);
    }
    b->view = c->views[a->ref];
    b->kval = expr_val_literal(k);
    if (b->kval.kind == VAL_NULL || b->view.kind == SPOOR_VIEW_NULL) {
        b->kernel = K_CONST;
        b->kconst = TRI_U;
        return;
    }
    bool eq = b->op == CMP_EQ || b->op == CMP_NE;
    switch (b->view.kind) {
    case SPOOR_VIEW_I64:
    case SPOOR_VIEW_F64:
        bind_number_cmp(b);
        return;
    case SPOOR_VIEW_STR:
        if (eq && b->kval.kind == VAL_STR) {
            b->kernel = K_ID_EQ;
            b->kid = spoor_strpool_find(b->view.pool, b->kval.s, b->kval.len);
            return;
        }
        break;
    case SPOOR_VIEW_PH:
        if (eq && b->kval.kind == VAL_STR && b->kval.len == 1 && b->kval.s[0]) {
            b->kernel = K_PH_EQ;
            b->kbyte = (uint8_t)b->kval.s[0];
            return;
        }
        break;
    default:
        break;
    }
    bind_cached(b);
}

/* IN, LIKE, GLOB and IS NULL on a column. */
static void bind_column_predicate(struct spoor_expr_ctx *c, struct bnode *b, const struct node *n)
{
    const struct node *a = &c->e->nodes[n->a];
    if (a->kind != N_COL) {
        b->kernel = K_GENERIC;
        return;
    }
    b->view = c->views[a->ref];
    if (n->kind == N_ISNULL) {
        b->kernel = K_ISNULL;
        return;
    }
    if (b->view.kind == SPOOR_VIEW_NULL) {
        b->kernel = K_CONST;
        b->kconst = TRI_U;
    } else if (n->kind == N_IN && b->view.kind == SPOOR_VIEW_I64 && b->ints) {
        b->kernel = K_I64_IN;
    } else {
        bind_cached(b);
    }
}

void spoor_expr_bind(struct spoor_expr_ctx *c, const struct spoor_table *t, const struct spoor_resolved *res)
{
    const struct spoor_expr *e = c->e;
    c->nrows = t->nrows;
    for (size_t i = 0; i < e->nrefs; i++) {
        const struct spoor_expr_ref *r = &e->refs[i];
        if (spoor_view_bind(&c->views[i], r->field, r->key, r->key_len, t, res))
            c->found[i] = true;
    }
    for (size_t i = 0; i < e->nnodes; i++) {
        const struct node *n = &e->nodes[i];
        struct bnode *b = &c->b[i];
        switch (n->kind) {
        case N_AND: b->kernel = K_AND; break;
        case N_OR: b->kernel = K_OR; break;
        case N_NOT: b->kernel = K_NOT; break;
        case N_CMP: bind_cmp(c, b, n); break;
        case N_IN:
        case N_LIKE:
        case N_GLOB:
        case N_ISNULL: bind_column_predicate(c, b, n); break;
        default: break; /* values are read through views at evaluation */
        }
    }
}
