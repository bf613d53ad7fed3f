/* Evaluation state of a --where expression: one bound node per tree node,
 * evaluated a block of rows at a time into three-valued results.
 * expr_bind.c picks a kernel per node for the bound table, expr_eval.c runs
 * them, expr_value.c holds the semantics of single values both share. */
#ifndef SPOOR_OPS_EXPR_CTX_H
#define SPOOR_OPS_EXPR_CTX_H

#include "ops/expr_internal.h"

enum { BLOCK = 1024 };

/* Three-valued logic as bytes, so AND is min, OR is max and NOT is 2 - x. */
enum { TRI_F = 0, TRI_U = 1, TRI_T = 2 };

/* Where the text of a string id comes from. */
struct strdom {
    enum { D_POOL, D_PH, D_SOURCE, D_LITERAL } kind;
    const struct spoor_strpool *pool;
    const char *const *sources;
    size_t nsources;
    const char *lit;        /* D_LITERAL: the text of every id */
    size_t lit_len;
};

enum vkind { VK_NULL, VK_INT, VK_REAL, VK_STR };

/* One block of a value node's results. */
struct vec {
    enum vkind kind;
    const int64_t *i;
    const double *f;
    const uint32_t *s;
    const uint8_t *null;    /* 1 = null */
    struct strdom dom;
};

/* A single value, for the semantics shared by every kernel. */
struct val {
    enum { VAL_NULL, VAL_NUM, VAL_STR } kind;
    struct num num;
    const char *s;
    size_t len;
};

enum kernel {
    K_AND, K_OR, K_NOT,
    K_CONST,            /* the same answer for every row */
    K_I64_CMP,          /* int64 column vs an integer */
    K_I64_CMP_REAL,     /* int64 column vs a real */
    K_F64_CMP,          /* float column vs a number */
    K_NUM_CONST,        /* number column vs a constant that decides alone: kconst unless null */
    K_I64_IN,           /* int64 column IN (integers) */
    K_ID_EQ,            /* string column = / != a string: id compare */
    K_PH_EQ,            /* ph = / != a letter */
    K_ID_CACHED,        /* string column vs constants: answer cached per string id */
    K_PH_CACHED,
    K_SRC_CACHED,
    K_ISNULL,           /* column IS [NOT] NULL */
    K_GENERIC,          /* anything else, through value vectors */
    K_VALUE,            /* a value node */
};

struct bnode {
    enum kernel kernel;
    int op;                 /* enum cmp_op, column on the left */
    struct spoor_view view; /* the column of a column kernel */
    int64_t ki;
    double kf;
    uint32_t kid;
    uint8_t kbyte, kconst;
    struct val kval;        /* the constant side of a cached comparison */
    struct val *list;       /* N_IN items */
    bool list_has_null;
    int64_t *ints;          /* N_IN items when all are integers (or NULL) */
    size_t nints;
    uint8_t *cache;         /* answer + 1 per string id, 0 = not computed */
    size_t cache_n, cache_cap;
    const void *cache_owner;    /* what the cache stays valid for across binds, or NULL */
    uint8_t *tri;           /* predicate output */
    int64_t *i;             /* value scratch */
    double *f, *fa, *fb;
    uint32_t *s;
    uint8_t *null, *na, *nb;
    struct vec out;         /* value nodes: the last block (literals: filled once) */
};

struct spoor_expr_ctx {
    const struct spoor_expr *e;
    struct bnode *b;
    struct spoor_view *views;   /* per ref, for the bound table */
    bool *found;                /* per ref */
    size_t nrows;
};

const uint8_t *expr_eval_predicate(struct spoor_expr_ctx *c, int node, size_t row0, size_t n);

/* expr_value.c */
struct val expr_val_at(const struct vec *v, size_t k, char phbuf[2]);
struct val expr_val_literal(const struct node *n);
/* -1, 0, 1 for two non-null values: numbers by value, strings by bytes, a
 * string spelling a number as that number, else a number before a string. */
int expr_val_cmp(const struct val *a, const struct val *b);
uint8_t expr_cmp_result(int op, int c);
/* A predicate with a single non-constant operand a (N_CMP with b->kval,
 * N_IN, N_LIKE, N_GLOB), already negated as the node says. */
uint8_t expr_pred_one(const struct bnode *b, const struct node *n, const struct val *a);
const char *expr_dom_text(const struct strdom *d, uint32_t id, size_t *len, char phbuf[2]);

#endif
