/* What comparisons, IN, LIKE and GLOB mean for single values. Every kernel,
 * fast or generic, agrees with these functions; the fast ones only avoid
 * calling them per row. */
#include "ops/expr_ctx.h"
#include "ops/strmatch.h"

#include <stdio.h>
#include <string.h>

const char *expr_dom_text(const struct strdom *d, uint32_t id, size_t *len, char phbuf[2])
{
    switch (d->kind) {
    case D_POOL:
        return spoor_strpool_get(d->pool, id, len);
    case D_PH:
        phbuf[0] = (char)id;
        phbuf[1] = '\0';
        *len = id ? 1 : 0;
        return phbuf;
    case D_SOURCE:
        if (id < d->nsources) {
            *len = strlen(d->sources[id]);
            return d->sources[id];
        }
        break;
    case D_LITERAL:
        *len = d->lit_len;
        return d->lit;
    }
    *len = 0;
    return "";
}

struct val expr_val_at(const struct vec *v, size_t k, char phbuf[2])
{
    struct val x = {.kind = VAL_NULL};
    if (v->kind == VK_NULL || v->null[k])
        return x;
    switch (v->kind) {
    case VK_INT:
        x.kind = VAL_NUM;
        x.num = num_int(v->i[k]);
        break;
    case VK_REAL:
        x.kind = VAL_NUM;
        x.num = num_real(v->f[k]);
        break;
    case VK_STR:
        x.kind = VAL_STR;
        x.s = expr_dom_text(&v->dom, v->s[k], &x.len, phbuf);
        break;
    case VK_NULL:
        break;
    }
    return x;
}

struct val expr_val_literal(const struct node *n)
{
    struct val x = {.kind = VAL_NULL};
    if (n->kind == N_NUM) {
        x.kind = VAL_NUM;
        x.num = n->num;
    } else if (n->kind == N_STR) {
        x.kind = VAL_STR;
        x.s = n->str;
        x.len = n->len;
    }
    return x;
}

static int str_vs_num(const struct val *s, const struct val *n)
{
    struct num parsed;
    if (num_parse(s->s, s->len, &parsed))
        return num_cmp(&parsed, &n->num);
    return 1;
}

int expr_val_cmp(const struct val *a, const struct val *b)
{
    if (a->kind == VAL_NUM && b->kind == VAL_NUM)
        return num_cmp(&a->num, &b->num);
    if (a->kind == VAL_STR && b->kind == VAL_STR) {
        size_t n = a->len < b->len ? a->len : b->len;
        int c = memcmp(a->s, b->s, n);
        if (c)
            return c < 0 ? -1 : 1;
        return (a->len > b->len) - (a->len < b->len);
    }
    return a->kind == VAL_STR ? str_vs_num(a, b) : -str_vs_num(b, a);
}

uint8_t expr_cmp_result(int op, int c)
{
    bool r = false;
    switch (op) {
    case CMP_EQ: r = c == 0; break;
    case CMP_NE: r = c != 0; break;
    case CMP_LT: r = c < 0; break;
    case CMP_LE: r = c <= 0; break;
    case CMP_GT: r = c > 0; break;
    case CMP_GE: r = c >= 0; break;
    }
    return r ? TRI_T : TRI_F;
}

/* The text LIKE and GLOB see: numbers as SQL would print them. */
static const char *text_of(const struct val *a, char *buf, size_t cap, size_t *len)
{
    if (a->kind == VAL_STR) {
        *len = a->len;
        return a->s;
    }
    int n = a->num.kind == NUM_INT ? snprintf(buf, cap, "%lld", (long long)a->num.i)
          : a->num.kind == NUM_BIG ? snprintf(buf, cap, "%s%.*s", a->num.neg ? "-" : "", (int)a->num.ndigits, a->num.digits)
                                   : snprintf(buf, cap, "%.17g", a->num.f);
    *len = n < 0 ? 0 : (size_t)n >= cap ? cap - 1 : (size_t)n;
    return buf;
}

static uint8_t in_list(const struct bnode *b, const struct node *n, const struct val *a)
{
    for (size_t i = 0; i < n->nlist; i++)
        if (b->list[i].kind != VAL_NULL && expr_val_cmp(a, &b->list[i]) == 0)
            return TRI_T;
    return b->list_has_null ? TRI_U : TRI_F;
}

uint8_t expr_pred_one(const struct bnode *b, const struct node *n, const struct val *a)
{
    if (a->kind == VAL_NULL)
        return TRI_U;
    uint8_t r;
    char buf[64];
    size_t len;
    const char *s;
    switch (n->kind) {
    case N_CMP:
        return b->kval.kind == VAL_NULL ? TRI_U : expr_cmp_result(b->op, expr_val_cmp(a, &b->kval));
    case N_IN:
        r = in_list(b, n, a);
        break;
    case N_LIKE:
        s = text_of(a, buf, sizeof buf, &len);
        r = strmatch_like(n->str, n->len, s, len, n->escape) ? TRI_T : TRI_F;
        break;
    case N_GLOB:
        s = text_of(a, buf, sizeof buf, &len);
        r = strmatch_glob(n->str, n->len, s, len) ? TRI_T : TRI_F;
        break;
    default:
        return TRI_U;
    }
    return n->negated ? (uint8_t)(TRI_T - r) : r;
}
