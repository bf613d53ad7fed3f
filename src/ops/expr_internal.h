/* Inside the --where compiler: tokens (expr_lex.c), the checked syntax tree
 * (expr_parse.c), shared by binding (expr_bind.c) and evaluation (expr_eval.c). */
#ifndef SPOOR_OPS_EXPR_INTERNAL_H
#define SPOOR_OPS_EXPR_INTERNAL_H

#include "ops/number.h"
#include "spoor/expr.h"

enum tok_kind {
    T_END, T_NUM, T_STR, T_IDENT,
    T_LPAREN, T_RPAREN, T_COMMA,
    T_EQ, T_NE, T_LT, T_LE, T_GT, T_GE,
    T_PLUS, T_MINUS, T_STAR, T_SLASH, T_PERCENT,
    /* keywords, case-insensitive */
    T_AND, T_OR, T_NOT, T_IN, T_LIKE, T_GLOB, T_ESCAPE, T_IS, T_NULL, T_BETWEEN,
};

struct token {
    enum tok_kind kind;
    size_t pos;             /* 0-based byte offset in the text */
    size_t len;             /* bytes of source text */
    struct num num;         /* T_NUM */
    char *str;              /* T_STR, T_IDENT: unquoted text, owned by the token list */
    size_t str_len;
};

struct tokens {
    struct token *v;
    size_t n;
};

/* Splits text into tokens ending with T_END. */
int expr_lex(const char *text, struct tokens *out, struct spoor_error *err);
void expr_tokens_free(struct tokens *t);

enum cmp_op { CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE };

enum node_kind {
    /* values */
    N_COL, N_NUM, N_STR, N_NULL, N_NEG, N_ARITH,
    /* predicates (true / false / unknown) */
    N_CMP, N_IN, N_LIKE, N_GLOB, N_ISNULL, N_AND, N_OR, N_NOT,
};

struct node {
    enum node_kind kind;
    size_t pos;             /* 0-based */
    int a, b;               /* children (node indexes), -1 when absent */
    int op;                 /* N_CMP: enum cmp_op; N_ARITH: '+', '-', '*', '/', '%' */
    bool negated;           /* NOT IN, NOT LIKE, NOT GLOB, IS NOT NULL */
    int ref;                /* N_COL: index into refs */
    struct num num;         /* N_NUM */
    const char *str;        /* N_STR; LIKE/GLOB pattern */
    size_t len;
    char escape;            /* N_LIKE: 0 = none */
    int *list;              /* N_IN: literal nodes */
    size_t nlist;
};

static inline bool node_is_predicate(const struct node *n) { return n->kind >= N_CMP; }

struct spoor_expr {
    struct tokens tokens;   /* owns the strings nodes point to */
    struct node *nodes;
    size_t nnodes, cap;
    int root;
    struct spoor_expr_ref *refs;
    size_t nrefs;
    bool needs_order;
};

#endif
