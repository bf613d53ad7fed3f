/* Evaluating a bound expression a block of rows at a time. Column kernels
 * run tight loops over the table's own arrays; string predicates are decided
 * once per distinct string id; everything else goes through value vectors
 * and the single-value semantics of expr_value.c. */
#include "ops/expr_ctx.h"

#include <string.h>

static bool bit(const uint64_t *valid, size_t row) { return (valid[row >> 6] >> (row & 63)) & 1; }

/* Rows whose validity bit is clear are unknown. */
static void mask_invalid(uint8_t *out, const uint64_t *valid, size_t row0, size_t n)
{
    for (size_t j = 0; j < n; j++)
        out[j] = bit(valid, row0 + j) ? out[j] : TRI_U;
}

static void mask_i64_nulls(uint8_t *out, const struct spoor_view *v, size_t row0, size_t n)
{
    if (v->valid) {
        mask_invalid(out, v->valid, row0, n);
        return;
    }
    const int64_t *x = v->i64 + row0;
    for (size_t j = 0; j < n; j++)
        out[j] = x[j] == SPOOR_NULL ? TRI_U : out[j];
}

/* out[j] = LOAD(j) <op> k as TRI_T / TRI_F, or TRI_U where NULLJ(j): one
 * branch-free pass per block. */
#define COMPARE_BLOCK(out, n, LOAD, NULLJ, k, op)                                                   \
    do {                                                                                           \
        switch (op) {                                                                              \
        case CMP_EQ: COMPARE_LOOP(out, n, LOAD, NULLJ, ==, k); break;                               \
        case CMP_NE: COMPARE_LOOP(out, n, LOAD, NULLJ, !=, k); break;                               \
        case CMP_LT: COMPARE_LOOP(out, n, LOAD, NULLJ, <, k); break;                                \
        case CMP_LE: COMPARE_LOOP(out, n, LOAD, NULLJ, <=, k); break;                               \
        case CMP_GT: COMPARE_LOOP(out, n, LOAD, NULLJ, >, k); break;                                \
        case CMP_GE: COMPARE_LOOP(out, n, LOAD, NULLJ, >=, k); break;                               \
        }                                                                                          \
    } while (0)
#define COMPARE_LOOP(out, n, LOAD, NULLJ, OP, k)                                                    \
    for (size_t j = 0; j < (n); j++)                                                               \
        (out)[j] = (uint8_t)(NULLJ(j) ? TRI_U : ((LOAD(j) OP (k)) << 1))

static void k_i64_cmp(const struct bnode *b, size_t row0, size_t n, uint8_t *out)
{
    const int64_t *x = b->view.i64 + row0;
    const int64_t k = b->ki;
#define LOAD(j) x[j]
#define SENTINEL(j) (x[j] == SPOOR_NULL)
#define NEVER(j) 0
    if (b->view.valid) {
        COMPARE_BLOCK(out, n, LOAD, NEVER, k, b->op);
        mask_invalid(out, b->view.valid, row0, n);
    } else {
        COMPARE_BLOCK(out, n, LOAD, SENTINEL, k, b->op);
    }
#undef LOAD
}

static void k_i64_cmp_real(const struct bnode *b, size_t row0, size_t n, uint8_t *out)
{
    const int64_t *x = b->view.i64 + row0;
    const double k = b->kf;
#define LOAD(j) ((double)x[j])
    if (b->view.valid) {
        COMPARE_BLOCK(out, n, LOAD, NEVER, k, b->op);
        mask_invalid(out, b->view.valid, row0, n);
    } else {
        COMPARE_BLOCK(out, n, LOAD, SENTINEL, k, b->op);
    }
#undef LOAD
#undef SENTINEL
}

static void k_f64_cmp(const struct bnode *b, size_t row0, size_t n, uint8_t *out)
{
    const double *x = b->view.f64 + row0;
    const double k = b->kf;
#define LOAD(j) x[j]
    COMPARE_BLOCK(out, n, LOAD, NEVER, k, b->op);
#undef LOAD
#undef NEVER
    mask_invalid(out, b->view.valid, row0, n);
}

static void mask_view_nulls(uint8_t *out, const struct spoor_view *v, size_t row0, size_t n)
{
    if (v->kind == SPOOR_VIEW_I64)
        mask_i64_nulls(out, v, row0, n);
    else if (v->valid)
        mask_invalid(out, v->valid, row0, n);
}

static void k_i64_in(const struct bnode *b, bool negated, size_t row0, size_t n, uint8_t *out)
{
    const int64_t *x = b->view.i64 + row0;
    uint8_t miss = b->list_has_null ? TRI_U : TRI_F;
    for (size_t j = 0; j < n; j++) {
        uint8_t r = miss;
        for (size_t i = 0; i < b->nints; i++)
            if (x[j] == b->ints[i])
                r = TRI_T;
        out[j] = negated ? (uint8_t)(TRI_T - r) : r;
    }
    mask_i64_nulls(out, &b->view, row0, n);
}

static void k_id_eq(const struct bnode *b, size_t row0, size_t n, uint8_t *out)
{
    const uint32_t *s = b->view.str + row0;
    const uint32_t k = b->kid;
    const uint8_t hit = b->op == CMP_EQ ? TRI_T : TRI_F, miss = TRI_T - hit;
    if (b->view.valid) {
        for (size_t j = 0; j < n; j++)
            out[j] = s[j] == k ? hit : miss;
        mask_invalid(out, b->view.valid, row0, n);
    } else {
        for (size_t j = 0; j < n; j++)
            out[j] = s[j] == 0 ? TRI_U : s[j] == k ? hit : miss;
    }
}

static void k_ph_eq(const struct bnode *b, size_t row0, size_t n, uint8_t *out)
{
    const uint8_t *p = b->view.ph + row0;
    const uint8_t k = b->kbyte;
    const uint8_t hit = b->op == CMP_EQ ? TRI_T : TRI_F, miss = TRI_T - hit;
    for (size_t j = 0; j < n; j++)
        out[j] = p[j] == 0 ? TRI_U : p[j] == k ? hit : miss;
}

/* The answer for one string id, computed from its text. */
static uint8_t answer(const struct bnode *b, const struct node *nd, const struct strdom *dom, uint32_t id)
{
    char phbuf[2];
    struct val v = {.kind = VAL_STR};
    v.s = expr_dom_text(dom, id, &v.len, phbuf);
    return expr_pred_one(b, nd, &v);
}

static uint8_t cached(struct bnode *b, const struct node *nd, const struct strdom *dom, uint32_t id)
{
    if (id >= b->cache_n)
        return answer(b, nd, dom, id);
    uint8_t a = b->cache[id];
    if (!a)
        a = b->cache[id] = (uint8_t)(answer(b, nd, dom, id) + 1);
    return (uint8_t)(a - 1);
}

static void k_cached(struct bnode *b, const struct node *nd, size_t row0, size_t n, uint8_t *out)
{
    const struct spoor_view *v = &b->view;
    struct strdom dom = {.kind = D_POOL, .pool = v->pool};
    switch (b->kernel) {
    case K_ID_CACHED:
        /* Ids of invalid rows are garbage: never look them up. */
        if (v->valid)
            for (size_t j = 0; j < n; j++)
                out[j] = bit(v->valid, row0 + j) ? cached(b, nd, &dom, v->str[row0 + j]) : TRI_U;
        else
            for (size_t j = 0; j < n; j++)
                out[j] = cached(b, nd, &dom, v->str[row0 + j]);
        break;
    case K_PH_CACHED:
        dom.kind = D_PH;
        for (size_t j = 0; j < n; j++)
            out[j] = cached(b, nd, &dom, v->ph[row0 + j]);
        break;
    default:
        dom = (struct strdom){.kind = D_SOURCE, .sources = v->sources, .nsources = v->nsources};
        for (size_t j = 0; j < n; j++)
            out[j] = cached(b, nd, &dom, v->src[row0 + j]);
        break;
    }
}

static const struct vec *eval_value(struct spoor_expr_ctx *c, int ni, size_t row0, size_t n);

static void column_vec(struct bnode *b, const struct spoor_view *v, size_t row0, size_t n)
{
    struct vec *out = &b->out;
    out->null = b->null;
    switch (v->kind) {
    case SPOOR_VIEW_NULL:
        out->kind = VK_NULL;
        return;
    case SPOOR_VIEW_I64:
        out->kind = VK_INT;
        out->i = v->i64 + row0;
        break;
    case SPOOR_VIEW_F64:
        out->kind = VK_REAL;
        out->f = v->f64 + row0;
        break;
    case SPOOR_VIEW_STR:
        out->kind = VK_STR;
        out->s = v->str + row0;
        out->dom = (struct strdom){.kind = D_POOL, .pool = v->pool};
        break;
    case SPOOR_VIEW_PH:
        out->kind = VK_STR;
        for (size_t j = 0; j < n; j++)
            b->s[j] = v->ph[row0 + j];
        out->s = b->s;
        out->dom = (struct strdom){.kind = D_PH};
        break;
    case SPOOR_VIEW_SOURCE:
        out->kind = VK_STR;
        out->s = v->src + row0;
        out->dom = (struct strdom){.kind = D_SOURCE, .sources = v->sources, .nsources = v->nsources};
        break;
    }
    for (size_t j = 0; j < n; j++)
        b->null[j] = spoor_view_is_null(v, row0 + j);
}

/* A block as reals; strings that do not spell a number are null. */
static void to_real(const struct vec *v, size_t n, double *f, uint8_t *null)
{
    char phbuf[2];
    for (size_t j = 0; j < n; j++) {
        struct val x = expr_val_at(v, j, phbuf);
        struct num k;
        null[j] = 1;
        if (x.kind == VAL_NUM) {
            f[j] = x.num.f;
            null[j] = 0;
        } else if (x.kind == VAL_STR && num_parse(x.s, x.len, &k)) {
            f[j] = k.f;
            null[j] = 0;
        }
    }
}

static void arith_vec(struct spoor_expr_ctx *c, struct bnode *b, const struct node *nd, size_t row0, size_t n)
{
    const struct vec *x = eval_value(c, nd->a, row0, n);
    const struct vec *y = nd->kind == N_ARITH ? eval_value(c, nd->b, row0, n) : NULL;
    struct vec *out = &b->out;
    out->null = b->null;
    if (x->kind == VK_INT && (!y || y->kind == VK_INT)) {
        out->kind = VK_INT;
        out->i = b->i;
        for (size_t j = 0; j < n; j++) {
            bool ok = y ? num_arith_int(nd->op, x->i[j], y->i[j], &b->i[j])
                        : num_arith_int('-', 0, x->i[j], &b->i[j]);
            b->null[j] = x->null[j] || (y && y->null[j]) || !ok;
        }
        return;
    }
    out->kind = VK_REAL;
    out->f = b->f;
    to_real(x, n, b->fa, b->na);
    if (y)
        to_real(y, n, b->fb, b->nb);
    for (size_t j = 0; j < n; j++) {
        bool ok = y ? num_arith_real(nd->op, b->fa[j], b->fb[j], &b->f[j]) : (b->f[j] = -b->fa[j], true);
        b->null[j] = b->na[j] || (y && b->nb[j]) || !ok;
    }
}

static const struct vec *eval_value(struct spoor_expr_ctx *c, int ni, size_t row0, size_t n)
{
    const struct node *nd = &c->e->nodes[ni];
    struct bnode *b = &c->b[ni];
    if (nd->kind == N_COL)
        column_vec(b, &c->views[nd->ref], row0, n);
    else if (nd->kind == N_ARITH || nd->kind == N_NEG)
        arith_vec(c, b, nd, row0, n);
    return &b->out;
}

/* Two number vectors (arithmetic results, number columns) compared without
 * going through single values. */
static bool compare_numbers(const struct vec *x, const struct vec *y, int op, size_t n, uint8_t *out)
{
    if ((x->kind != VK_INT && x->kind != VK_REAL) || (y->kind != VK_INT && y->kind != VK_REAL))
        return false;
    const uint8_t *xn = x->null, *yn = y->null;
#define EITHER_NULL(j) (xn[j] | yn[j])
    if (x->kind == VK_INT && y->kind == VK_INT) {
        const int64_t *xi = x->i, *yi = y->i;
#define LOAD(j) xi[j]
#define K yi[j]
        COMPARE_BLOCK(out, n, LOAD, EITHER_NULL, K, op);
#undef LOAD
#undef K
        return true;
    }
    const int64_t *xi = x->i, *yi = y->i;
    const double *xf = x->f, *yf = y->f;
    bool xr = x->kind == VK_REAL, yr = y->kind == VK_REAL;
#define LOAD(j) (xr ? xf[j] : (double)xi[j])
#define K (yr ? yf[j] : (double)yi[j])
    COMPARE_BLOCK(out, n, LOAD, EITHER_NULL, K, op);
#undef LOAD
#undef K
#undef EITHER_NULL
    return true;
}

static void k_generic(struct spoor_expr_ctx *c, struct bnode *b, const struct node *nd, size_t row0, size_t n,
                      uint8_t *out)
{
    char bufa[2], bufb[2];
    const struct vec *x = eval_value(c, nd->a, row0, n);
    if (nd->kind == N_CMP) {
        const struct vec *y = eval_value(c, nd->b, row0, n);
        if (compare_numbers(x, y, nd->op, n, out))
            return;
        for (size_t j = 0; j < n; j++) {
            struct val va = expr_val_at(x, j, bufa), vb = expr_val_at(y, j, bufb);
            out[j] = va.kind == VAL_NULL || vb.kind == VAL_NULL ? TRI_U
                                                                : expr_cmp_result(nd->op, expr_val_cmp(&va, &vb));
        }
    } else if (nd->kind == N_ISNULL) {
        for (size_t j = 0; j < n; j++)
            out[j] = ((x->kind == VK_NULL || x->null[j]) != nd->negated) ? TRI_T : TRI_F;
    } else {
        for (size_t j = 0; j < n; j++) {
            struct val va = expr_val_at(x, j, bufa);
            out[j] = expr_pred_one(b, nd, &va);
        }
    }
}

static void k_isnull(const struct bnode *b, bool negated, size_t row0, size_t n, uint8_t *out)
{
    for (size_t j = 0; j < n; j++)
        out[j] = (spoor_view_is_null(&b->view, row0 + j) != negated) ? TRI_T : TRI_F;
}

static bool all_equal(const uint8_t *t, size_t n, uint8_t v)
{
    for (size_t j = 0; j < n; j++)
        if (t[j] != v)
            return false;
    return true;
}

const uint8_t *expr_eval_predicate(struct spoor_expr_ctx *c, int ni, size_t row0, size_t n)
{
    const struct node *nd = &c->e->nodes[ni];
    struct bnode *b = &c->b[ni];
    uint8_t *out = b->tri;
    switch (b->kernel) {
    case K_AND:
    case K_OR: {
        /* The right side is skipped when the left already decides the block. */
        const uint8_t *l = expr_eval_predicate(c, nd->a, row0, n);
        uint8_t decided = b->kernel == K_AND ? TRI_F : TRI_T;
        if (all_equal(l, n, decided))
            return l;
        const uint8_t *r = expr_eval_predicate(c, nd->b, row0, n);
        if (b->kernel == K_AND)
            for (size_t j = 0; j < n; j++)
                out[j] = l[j] < r[j] ? l[j] : r[j];
        else
            for (size_t j = 0; j < n; j++)
                out[j] = l[j] > r[j] ? l[j] : r[j];
        break;
    }
    case K_NOT: {
        const uint8_t *a = expr_eval_predicate(c, nd->a, row0, n);
        for (size_t j = 0; j < n; j++)
            out[j] = (uint8_t)(TRI_T - a[j]);
        break;
    }
    case K_CONST: memset(out, b->kconst, n); break;
    case K_NUM_CONST:
        memset(out, b->kconst, n);
        mask_view_nulls(out, &b->view, row0, n);
        break;
    case K_I64_CMP: k_i64_cmp(b, row0, n, out); break;
    case K_I64_CMP_REAL: k_i64_cmp_real(b, row0, n, out); break;
    case K_F64_CMP: k_f64_cmp(b, row0, n, out); break;
    case K_I64_IN: k_i64_in(b, nd->negated, row0, n, out); break;
    case K_ID_EQ: k_id_eq(b, row0, n, out); break;
    case K_PH_EQ: k_ph_eq(b, row0, n, out); break;
    case K_ID_CACHED:
    case K_PH_CACHED:
    case K_SRC_CACHED: k_cached(b, nd, row0, n, out); break;
    case K_ISNULL: k_isnull(b, nd->negated, row0, n, out); break;
    case K_GENERIC: k_generic(c, b, nd, row0, n, out); break;
    case K_VALUE: memset(out, TRI_U, n); break;
    }
    return out;
}

size_t spoor_expr_select(struct spoor_expr_ctx *c, uint32_t *sel)
{
    size_t count = 0;
    for (size_t row0 = 0; row0 < c->nrows; row0 += BLOCK) {
        size_t n = c->nrows - row0 < BLOCK ? c->nrows - row0 : BLOCK;
        const uint8_t *t = expr_eval_predicate(c, c->e->root, row0, n);
        size_t j = 0;
        /* Eight answers at a time: a run of non-matches costs one test. */
        for (; j + 8 <= n; j += 8) {
            uint64_t w;
            memcpy(&w, t + j, 8);
            if (!(w & 0x0202020202020202ull))
                continue;
            for (size_t q = j; q < j + 8; q++) {
                sel[count] = (uint32_t)(row0 + q);
                count += t[q] == TRI_T;
            }
        }
        for (; j < n; j++) {
            sel[count] = (uint32_t)(row0 + j);
            count += t[j] == TRI_T;
        }
    }
    return count;
}
