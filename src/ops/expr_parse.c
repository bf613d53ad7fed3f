/* Recursive descent from tokens to a checked tree: every operand is a value
 * or a condition as its operator needs, constants are folded, and columns are
 * collected as refs. Errors name the 1-based position of the offending token. */
#include "ops/expr_internal.h"
#include "util/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_NODES = 4096, MAX_DEPTH = 200 };

struct parser {
    struct spoor_expr *e;
    const char *text;
    size_t i;               /* current token */
    int depth;
    struct spoor_error *err;
};

static const struct token *peek(const struct parser *p) { return &p->e->tokens.v[p->i]; }
static const struct token *next(struct parser *p) { return &p->e->tokens.v[p->i++]; }

/* What a token looks like in a message. */
/* The token as the message quotes it: at most 40 bytes, control characters
 * shown as '?' so the error stays one line. */
static void describe(const struct parser *p, const struct token *t, char *buf, size_t cap)
{
    if (t->kind == T_END) {
        snprintf(buf, cap, "end of expression");
        return;
    }
    char text[41];
    size_t n = t->len > 40 ? 40 : t->len;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p->text[t->pos + i];
        text[i] = c < 0x20 || c == 0x7F ? '?' : (char)c;
    }
    text[n] = '\0';
    snprintf(buf, cap, "'%s'", text);
}

static int expected(struct parser *p, const char *what)
{
    char found[64];
    describe(p, peek(p), found, sizeof found);
    return spoor_fail(p->err, SPOOR_EUSAGE, "expected %s at position %zu, found %s", what, peek(p)->pos + 1, found);
}

static int new_node(struct parser *p, enum node_kind kind, size_t pos, int a, int b)
{
    struct spoor_expr *e = p->e;
    if (e->nnodes >= MAX_NODES) {
        spoor_fail(p->err, SPOOR_EUSAGE, "expression too long at position %zu (more than %d terms)", pos + 1, MAX_NODES);
        return -1;
    }
    spoor_reserve((void **)&e->nodes, &e->cap, e->nnodes + 1, sizeof *e->nodes);
    e->nodes[e->nnodes] = (struct node){.kind = kind, .pos = pos, .a = a, .b = b, .ref = -1};
    return (int)e->nnodes++;
}

static struct node *N(struct parser *p, int i) { return &p->e->nodes[i]; }

static int need_value(struct parser *p, int n)
{
    if (n >= 0 && node_is_predicate(N(p, n))) {
        spoor_fail(p->err, SPOOR_EUSAGE, "expected a value at position %zu, found a condition", N(p, n)->pos + 1);
        return -1;
    }
    return n;
}

static int need_condition(struct parser *p, int n)
{
    if (n >= 0 && !node_is_predicate(N(p, n))) {
        spoor_fail(p->err, SPOOR_EUSAGE,
                   "expected a condition at position %zu, found a value (compare it, e.g. with = or IS NOT NULL)",
                   N(p, n)->pos + 1);
        return -1;
    }
    return n;
}

static int add_ref(struct parser *p, const struct token *t)
{
    struct spoor_expr *e = p->e;
    for (size_t i = 0; i < e->nrefs; i++)
        if (strcmp(e->refs[i].name, t->str) == 0)
            return (int)i;
    e->refs = spoor_xrealloc(e->refs, (e->nrefs + 1) * sizeof *e->refs);
    struct spoor_expr_ref *r = &e->refs[e->nrefs];
    r->name = t->str;
    r->pos = t->pos + 1;
    r->key = NULL;
    r->key_len = 0;
    r->field = spoor_field_parse(t->str, t->str_len, &r->key, &r->key_len);
    if (r->field == SPOOR_FIELD_FILE || r->field == SPOOR_FIELD_HOST || r->field == SPOOR_FIELD_LINE)
        e->needs_order = true;
    return (int)e->nrefs++;
}

static int parse_or(struct parser *p);
static int parse_additive(struct parser *p);

static int parse_primary(struct parser *p)
{
    const struct token *t = peek(p);
    int n;
    switch (t->kind) {
    case T_NUM:
        n = new_node(p, N_NUM, t->pos, -1, -1);
        if (n >= 0)
            N(p, n)->num = t->num;
        break;
    case T_STR:
        n = new_node(p, N_STR, t->pos, -1, -1);
        if (n >= 0) {
            N(p, n)->str = t->str;
            N(p, n)->len = t->str_len;
        }
        break;
    case T_NULL:
        n = new_node(p, N_NULL, t->pos, -1, -1);
        break;
    case T_IDENT:
        if (t->str_len == 0)
            return spoor_fail(p->err, SPOOR_EUSAGE, "empty column name at position %zu", t->pos + 1), -1;
        n = new_node(p, N_COL, t->pos, -1, -1);
        if (n >= 0)
            N(p, n)->ref = add_ref(p, t);
        break;
    case T_LPAREN:
        next(p);
        n = parse_or(p);
        if (n >= 0 && peek(p)->kind != T_RPAREN)
            return expected(p, "')'"), -1;
        if (n >= 0)
            N(p, n)->pos = t->pos;
        break;
    default:
        return expected(p, "a value"), -1;
    }
    if (n >= 0)
        next(p);
    return n;
}

static int fold_arith(struct parser *p, int n)
{
    struct node *x = N(p, n), *a = N(p, x->a), *b = N(p, x->b);
    if (a->kind == N_STR || b->kind == N_STR) {
        size_t pos = a->kind == N_STR ? a->pos : b->pos;
        spoor_fail(p->err, SPOOR_EUSAGE, "arithmetic on a string at position %zu", pos + 1);
        return -1;
    }
    if (a->kind == N_NULL || b->kind == N_NULL) {
        *x = (struct node){.kind = N_NULL, .pos = x->pos, .a = -1, .b = -1, .ref = -1};
    } else if (a->kind == N_NUM && b->kind == N_NUM) {
        int64_t i;
        double f;
        bool ok;
        struct num r;
        if (a->num.kind == NUM_INT && b->num.kind == NUM_INT && num_arith_int(x->op, a->num.i, b->num.i, &i)) {
            ok = true;
            r = num_int(i);
        } else {
            ok = num_arith_real(x->op, a->num.f, b->num.f, &f);
            r = num_real(f);
        }
        *x = (struct node){.kind = ok ? N_NUM : N_NULL, .pos = x->pos, .a = -1, .b = -1, .ref = -1, .num = r};
    }
    return n;
}

static int parse_unary(struct parser *p)
{
    const struct token *t = peek(p);
    if (t->kind != T_MINUS && t->kind != T_PLUS)
        return parse_primary(p);
    if (++p->depth > MAX_DEPTH)
        return spoor_fail(p->err, SPOOR_EUSAGE, "expression nested too deeply at position %zu", t->pos + 1), -1;
    next(p);
    int a = need_value(p, parse_unary(p));
    p->depth--;
    if (a < 0 || t->kind == T_PLUS)
        return a;
    struct node *x = N(p, a);
    if (x->kind == N_STR)
        return spoor_fail(p->err, SPOOR_EUSAGE, "arithmetic on a string at position %zu", x->pos + 1), -1;
    if (x->kind == N_NUM || x->kind == N_NULL) {
        x->num = num_neg(&x->num);
        x->pos = t->pos;
        return a;
    }
    return new_node(p, N_NEG, t->pos, a, -1);
}

static int parse_binary_arith(struct parser *p, int (*operand)(struct parser *), const enum tok_kind *ops,
                              const char *chars)
{
    int a = operand(p);
    for (;;) {
        if (a < 0)
            return -1;
        enum tok_kind k = peek(p)->kind;
        int which = -1;
        for (int i = 0; chars[i]; i++)
            if (ops[i] == k)
                which = i;
        if (which < 0)
            return a;
        next(p);
        if (need_value(p, a) < 0)
            return -1;
        int b = need_value(p, operand(p));
        if (b < 0)
            return -1;
        int n = new_node(p, N_ARITH, N(p, a)->pos, a, b);
        if (n < 0)
            return -1;
        N(p, n)->op = chars[which];
        a = fold_arith(p, n);
    }
}

static int parse_mult(struct parser *p)
{
    static const enum tok_kind ops[] = {T_STAR, T_SLASH, T_PERCENT};
    return parse_binary_arith(p, parse_unary, ops, "*/%");
}

static int parse_additive(struct parser *p)
{
    static const enum tok_kind ops[] = {T_PLUS, T_MINUS};
    return parse_binary_arith(p, parse_mult, ops, "+-");
}

static int cmp_of(enum tok_kind k)
{
    switch (k) {
    case T_EQ: return CMP_EQ;
    case T_NE: return CMP_NE;
    case T_LT: return CMP_LT;
    case T_LE: return CMP_LE;
    case T_GT: return CMP_GT;
    case T_GE: return CMP_GE;
    default: return -1;
    }
}

static int copy_tree(struct parser *p, int n)
{
    if (n < 0)
        return n;
    int a = copy_tree(p, N(p, n)->a), b = copy_tree(p, N(p, n)->b);
    int c = new_node(p, N_NULL, 0, -1, -1);
    if (c < 0)
        return -1;
    *N(p, c) = *N(p, n);
    N(p, c)->a = a;
    N(p, c)->b = b;
    return c;
}

static int make_cmp(struct parser *p, int op, int a, int b)
{
    int n = new_node(p, N_CMP, N(p, a)->pos, a, b);
    if (n >= 0)
        N(p, n)->op = op;
    return n;
}

static int parse_between(struct parser *p, int a)
{
    int lo = need_value(p, parse_additive(p));
    if (lo < 0)
        return -1;
    if (peek(p)->kind != T_AND)
        return expected(p, "AND in BETWEEN"), -1;
    next(p);
    int hi = need_value(p, parse_additive(p));
    if (hi < 0)
        return -1;
    int ge = make_cmp(p, CMP_GE, a, lo);
    int a2 = ge < 0 ? -1 : copy_tree(p, a);
    int le = a2 < 0 ? -1 : make_cmp(p, CMP_LE, a2, hi);
    return le < 0 ? -1 : new_node(p, N_AND, N(p, a)->pos, ge, le);
}

static int parse_in_list(struct parser *p, int n)
{
    if (peek(p)->kind != T_LPAREN)
        return expected(p, "'(' after IN");
    next(p);
    for (;;) {
        int item = parse_unary(p);
        if (item < 0)
            return SPOOR_EUSAGE;
        enum node_kind k = N(p, item)->kind;
        if (k != N_NUM && k != N_STR && k != N_NULL)
            return spoor_fail(p->err, SPOOR_EUSAGE, "IN (...) takes literals only; position %zu is not one",
                              N(p, item)->pos + 1);
        struct node *x = N(p, n);
        x->list = spoor_xrealloc(x->list, (x->nlist + 1) * sizeof *x->list);
        x->list[x->nlist++] = item;
        if (peek(p)->kind == T_COMMA) {
            next(p);
            continue;
        }
        if (peek(p)->kind != T_RPAREN)
            return expected(p, "',' or ')' in the IN list");
        next(p);
        return SPOOR_OK;
    }
}

static int parse_pattern(struct parser *p, int n, enum tok_kind kind)
{
    const struct token *t = peek(p);
    if (t->kind != T_STR)
        return expected(p, kind == T_LIKE ? "a 'pattern' after LIKE" : "a 'pattern' after GLOB");
    N(p, n)->str = t->str;
    N(p, n)->len = t->str_len;
    next(p);
    if (peek(p)->kind != T_ESCAPE)
        return SPOOR_OK;
    if (kind != T_LIKE)
        return spoor_fail(p->err, SPOOR_EUSAGE, "ESCAPE goes with LIKE only, at position %zu", peek(p)->pos + 1);
    next(p);
    t = peek(p);
    if (t->kind != T_STR || t->str_len != 1)
        return expected(p, "one 'c'haracter after ESCAPE");
    N(p, n)->escape = t->str[0];
    next(p);
    return SPOOR_OK;
}

static int parse_predicate(struct parser *p)
{
    int a = parse_additive(p);
    if (a < 0)
        return -1;
    const struct token *t = peek(p);
    int op = cmp_of(t->kind);
    if (op >= 0) {
        next(p);
        if (need_value(p, a) < 0)
            return -1;
        int b = need_value(p, parse_additive(p));
        if (b < 0)
            return -1;
        if (cmp_of(peek(p)->kind) >= 0)
            return spoor_fail(p->err, SPOOR_EUSAGE,
                              "comparisons cannot be chained at position %zu; join them with AND",
                              peek(p)->pos + 1), -1;
        return make_cmp(p, op, a, b);
    }
    bool negated = false;
    if (t->kind == T_NOT) {
        enum tok_kind k = p->e->tokens.v[p->i + 1].kind;
        if (k != T_IN && k != T_LIKE && k != T_GLOB && k != T_BETWEEN)
            return expected(p, "IN, LIKE, GLOB or BETWEEN after NOT"), -1;
        negated = true;
        next(p);
        t = peek(p);
    }
    if (t->kind == T_IS) {
        next(p);
        if (peek(p)->kind == T_NOT) {
            negated = true;
            next(p);
        }
        if (peek(p)->kind != T_NULL)
            return expected(p, "NULL after IS"), -1;
        next(p);
    } else if (t->kind != T_IN && t->kind != T_LIKE && t->kind != T_GLOB && t->kind != T_BETWEEN) {
        return a;
    } else {
        next(p);
    }
    if (need_value(p, a) < 0)
        return -1;
    int n;
    if (t->kind == T_BETWEEN) {
        n = parse_between(p, a);
        return negated && n >= 0 ? new_node(p, N_NOT, N(p, a)->pos, n, -1) : n;
    }
    static const enum node_kind kinds[] = {[T_IN] = N_IN, [T_LIKE] = N_LIKE, [T_GLOB] = N_GLOB, [T_IS] = N_ISNULL};
    n = new_node(p, kinds[t->kind], N(p, a)->pos, a, -1);
    if (n < 0)
        return -1;
    N(p, n)->negated = negated;
    int st = SPOOR_OK;
    if (t->kind == T_IN)
        st = parse_in_list(p, n);
    else if (t->kind == T_LIKE || t->kind == T_GLOB)
        st = parse_pattern(p, n, t->kind);
    return st == SPOOR_OK ? n : -1;
}

static int parse_not(struct parser *p)
{
    const struct token *t = peek(p);
    if (t->kind != T_NOT)
        return parse_predicate(p);
    if (++p->depth > MAX_DEPTH)
        return spoor_fail(p->err, SPOOR_EUSAGE, "expression nested too deeply at position %zu", t->pos + 1), -1;
    next(p);
    int a = need_condition(p, parse_not(p));
    p->depth--;
    return a < 0 ? -1 : new_node(p, N_NOT, t->pos, a, -1);
}

static int parse_logic(struct parser *p, enum tok_kind op, enum node_kind kind, int (*operand)(struct parser *))
{
    int a = operand(p);
    while (a >= 0 && peek(p)->kind == op) {
        next(p);
        if (need_condition(p, a) < 0)
            return -1;
        int b = need_condition(p, operand(p));
        if (b < 0)
            return -1;
        a = new_node(p, kind, N(p, a)->pos, a, b);
    }
    return a;
}

static int parse_and(struct parser *p) { return parse_logic(p, T_AND, N_AND, parse_not); }

static int parse_or(struct parser *p)
{
    if (++p->depth > MAX_DEPTH)
        return spoor_fail(p->err, SPOOR_EUSAGE, "expression nested too deeply at position %zu", peek(p)->pos + 1), -1;
    int n = parse_logic(p, T_OR, N_OR, parse_and);
    p->depth--;
    return n;
}

int spoor_expr_compile(const char *text, struct spoor_expr **out, struct spoor_error *err)
{
    *out = NULL;
    struct spoor_expr *e = spoor_xcalloc(1, sizeof *e);
    int st = expr_lex(text, &e->tokens, err);
    if (st != SPOOR_OK) {
        free(e);
        return st;
    }
    struct parser p = {.e = e, .text = text, .err = err};
    if (peek(&p)->kind == T_END) {
        spoor_expr_free(e);
        return spoor_fail(err, SPOOR_EUSAGE, "empty expression");
    }
    e->root = need_condition(&p, parse_or(&p));
    if (e->root >= 0 && peek(&p)->kind != T_END) {
        expected(&p, "AND, OR or the end");
        e->root = -1;
    }
    if (e->root < 0) {
        spoor_expr_free(e);
        return SPOOR_EUSAGE;
    }
    *out = e;
    return SPOOR_OK;
}

void spoor_expr_free(struct spoor_expr *e)
{
    if (!e)
        return;
    for (size_t i = 0; i < e->nnodes; i++)
        free(e->nodes[i].list);
    free(e->nodes);
    free(e->refs);
    expr_tokens_free(&e->tokens);
    free(e);
}

bool spoor_expr_needs_order(const struct spoor_expr *e) { return e->needs_order; }

size_t spoor_expr_refs(const struct spoor_expr *e, const struct spoor_expr_ref **refs)
{
    *refs = e->refs;
    return e->nrefs;
}
