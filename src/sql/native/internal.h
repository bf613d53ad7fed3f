/* Inside the native path of spoor sql (sql_native.h says what it does):
 * sql_native_lex.c splits the text, sql_native_parse.c and
 * sql_native_where.c recognise the subset (anything else is declined and runs
 * in SQLite), sql_native_group.c groups and aggregates, sql_native_order.c
 * orders the groups as SQLite would, sql_native_run.c ties it together. */
#ifndef SPOOR_SQL_NATIVE_INTERNAL_H
#define SPOOR_SQL_NATIVE_INTERNAL_H

#include "sql/native/sql_native.h"
#include "sql/sql_internal.h"
#include "spoor/expr.h"
#include "util/id_map.h"

/* ---- tokens */

enum ntok_kind {
    NT_END,
    NT_IDENT,       /* bare word (keywords too) */
    NT_QIDENT,      /* "quoted" name */
    NT_STRING,      /* 'text' */
    NT_INT,         /* decimal integer within int64 */
    NT_REAL,        /* decimal with a fraction or exponent */
    NT_PUNCT,       /* ( ) , * ; - and comparison operators */
    NT_OTHER,       /* anything the subset has no use for */
};

struct ntok {
    enum ntok_kind kind;
    const char *at;         /* in the query text */
    size_t len;
    char *text;             /* IDENT, QIDENT, STRING, PUNCT: unquoted, NUL-terminated */
    int64_t i;              /* NT_INT */
    double f;               /* NT_REAL */
};

struct ntoks {
    struct ntok *v;
    size_t n;
};

/* Tokens of text[0, len), comments and spaces skipped, ending with NT_END. */
void native_lex(const char *text, size_t len, struct ntoks *out);
void native_toks_free(struct ntoks *t);

/* A position in the tokens and the first reason to decline. */
struct ncursor {
    const struct ntoks *t;
    size_t pos;
    const char *why;
};

const struct ntok *ncur_peek(const struct ncursor *c);
/* The token k ahead (NT_END past the end). */
const struct ntok *ncur_ahead(const struct ncursor *c, size_t k);
bool ntok_is_word(const struct ntok *tok, const char *word);   /* a bare word, any case */
bool ntok_is_punct(const struct ntok *tok, const char *op);
/* Steps over the current token when it is the word / operator. */
bool ncur_word(struct ncursor *c, const char *word);
bool ncur_punct(struct ncursor *c, const char *op);
/* Notes why (the first reason wins); returns false. */
bool ncur_decline(struct ncursor *c, const char *why);

/* ---- the recognised query */

enum { NATIVE_MAX_KEYS = 8, NATIVE_MAX_AGGS = 32, NATIVE_MAX_ITEMS = 64, NATIVE_MAX_ORDER = 16 };

enum native_agg_kind { AGG_COUNT_STAR, AGG_COUNT, AGG_SUM, AGG_TOTAL, AGG_AVG, AGG_MIN, AGG_MAX };

struct native_agg {
    enum native_agg_kind kind;
    size_t col;             /* events column (not for count(*)) */
};

/* A value of a result row or an ORDER BY term: a group key or an aggregate. */
struct native_ref {
    bool agg;
    size_t index;
};

struct native_order {
    struct native_ref ref;
    bool desc;
};

struct native_query {
    size_t keys[NATIVE_MAX_KEYS];   /* events columns of GROUP BY */
    bool key_desc[NATIVE_MAX_KEYS]; /* the order groups come out in */
    size_t nkeys;
    struct native_agg aggs[NATIVE_MAX_AGGS];
    size_t naggs;
    struct native_ref items[NATIVE_MAX_ITEMS];
    size_t nitems;
    struct native_order order[NATIVE_MAX_ORDER];
    size_t norder;
    bool sorter;            /* ORDER BY is not the GROUP BY order: SQLite sorts after finalizing all groups */
    char *where;            /* the WHERE clause as --where text, or NULL */
    int64_t limit, offset;  /* limit < 0: none */
};

/* Recognises text[0, len) (one statement). false with *why set (a static
 * string) when it is outside the subset. */
bool native_parse(struct spoor_sql *s, const char *text, size_t len, struct native_query *q, const char **why);
void native_query_free(struct native_query *q);

/* The WHERE clause from the cursor on, written as --where text into *out
 * (malloc'd). Declines (false, c->why) any form whose --where meaning could
 * differ from SQLite's. */
bool native_where(struct spoor_sql *s, struct ncursor *c, char **out);

/* The events column named by a name token (IDENT or QIDENT), or false. */
bool native_column(const struct spoor_sql *s, const struct ntok *tok, size_t *col);

/* ---- grouping */

/* Aggregate state of one group for one aggregate. Sums are exact (128 bits):
 * SQLite adds in row order, which the native path need not follow, so a
 * result is only given when every order gives the same one. */
struct native_acc {
    int64_t n;              /* non-null values */
    __int128 sum;
    uint64_t abs;           /* sum of magnitudes, saturating: bounds every partial sum */
    struct sql_cell ext;    /* min / max so far (SQLITE_NULL: none) */
};

struct native_groups {
    size_t n, cap;
    struct spoor_id_map keys; /* one packed word, or a word per key then a null mask */
    size_t *first_row;      /* a row of each group, to spell its keys */
    struct native_acc *acc; /* n * naggs */
};

/* Groups the rows sel[0, nsel) (all rows when sel is NULL). */
void native_group(struct spoor_sql *s, const struct native_query *q, const uint32_t *sel, size_t nsel,
                  struct native_groups *g);
void native_groups_free(struct native_groups *g);

/* The row's value of a view as SQLite's events table hands it out. */
void native_cell_at(const struct spoor_view *v, size_t row, struct sql_cell *c);

/* ---- results */

/* A value's SQLite order: NULL, numbers, text (BINARY). */
int native_cell_cmp(const struct sql_cell *a, const struct sql_cell *b);

/* The finished value of aggregate a of a group: false when SQLite's answer
 * would depend on the row order (the caller runs the query in SQLite);
 * *overflow for "integer overflow". */
bool native_finish(const struct native_agg *a, const struct native_acc *acc, struct sql_cell *out, bool *overflow);

/* Group numbers in output order (all groups; the caller applies LIMIT). */
size_t *native_order_groups(const struct native_query *q, const struct sql_cell *cells, size_t ngroups,
                            size_t ncells);

#endif
