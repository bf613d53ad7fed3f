/* WHERE for the native path: a strict subset of SQL conditions, checked
 * against the column types and rewritten as --where text (src/ops), which
 * then selects the rows. Only forms whose --where meaning is SQLite's pass:
 *
 *   - a column compared with a literal of its own class (text with 'text',
 *     INTEGER with integers, REAL with reals and integers up to 2^53): no
 *     affinity conversion, and --where compares these exactly as SQLite does;
 *   - [NOT] IN, [NOT] BETWEEN, IS [NOT] NULL under the same rule;
 *   - [NOT] LIKE / GLOB on text with an ASCII pattern (no GLOB classes), on
 *     columns whose strings are valid UTF-8 without NUL (SQLite stops at a NUL
 *     and steps over bad UTF-8 its own way);
 *   - AND, OR, NOT and parentheses (written out fully parenthesised).
 * Anything else, including columns never typed, declines. */
#include "sql/native/internal.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

enum { MAX_DEPTH = 100, MAX_PATTERN = 1000 };

enum col_class { CLASS_NONE, CLASS_INT, CLASS_REAL, CLASS_TEXT };

struct wparser {
    struct ncursor *c;
    struct spoor_sql *s;
    sqlite3_str *out;
    int depth;
};

static const struct ntok *peek(const struct wparser *p) { return ncur_peek(p->c); }
static bool accept_word(struct wparser *p, const char *word) { return ncur_word(p->c, word); }
static bool decline(struct wparser *p, const char *why) { return ncur_decline(p->c, why); }

static enum col_class class_of(const struct spoor_sql *s, size_t col)
{
    const char *type = s->cols.v[col].decl_type;
    return !strcmp(type, "INTEGER") ? CLASS_INT : !strcmp(type, "REAL") ? CLASS_REAL
         : !strcmp(type, "TEXT")    ? CLASS_TEXT : CLASS_NONE;
}

/* The column as --where names it: fixed names bare, args keys as "args.KEY". */
static void put_column(struct wparser *p, size_t col)
{
    const struct sql_column *c = &p->s->cols.v[col];
    if (c->field == SPOOR_FIELD_ARG)
        sqlite3_str_appendf(p->out, "\"args.%w\"", c->key);
    else
        sqlite3_str_appendall(p->out, spoor_field_names[c->field]);
}

/* A literal the column's class can meet without conversion. */
static bool literal(struct wparser *p, enum col_class cls)
{
    const struct ntok *tok = peek(p);
    if (ntok_is_word(tok, "null")) {
        p->c->pos++;
        sqlite3_str_appendall(p->out, "NULL");
        return true;
    }
    if (tok->kind == NT_STRING) {
        if (cls != CLASS_TEXT)
            return decline(p, "WHERE compares text with a number");
        p->c->pos++;
        sqlite3_str_appendf(p->out, "%Q", tok->text);
        return true;
    }
    bool neg = ntok_is_punct(tok, "-");
    if (neg)
        tok = ncur_ahead(p->c, 1);
    if (tok->kind == NT_INT && (cls == CLASS_INT || (cls == CLASS_REAL && tok->i <= (1LL << 53)))) {
        p->c->pos += 1 + neg;
        sqlite3_str_appendf(p->out, "%s%lld", neg ? "-" : "", (long long)tok->i);
        return true;
    }
    if (tok->kind == NT_REAL && cls == CLASS_REAL) {
        p->c->pos += 1 + neg;
        char buf[40];
        snprintf(buf, sizeof buf, "%s%.17g", neg ? "-" : "", tok->f); /* round-trips */
        sqlite3_str_appendall(p->out, buf);
        return true;
    }
    return decline(p, "WHERE has a literal the native path does not compare like SQLite");
}

/* Valid UTF-8 without NUL: where SQLite's pattern matching and --where's agree. */
static bool text_clean(const char *text, size_t len)
{
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)text[i];
        size_t k = !c ? 0 : c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
        if (!k || i + k > len)
            return false;
        for (size_t j = 1; j < k; j++)
            if (((unsigned char)text[i + j] & 0xc0) != 0x80)
                return false;
        i += k;
    }
    return true;
}

static bool column_clean(struct spoor_sql *s, size_t col)
{
    const struct spoor_view *v = sql_view(s, col);
    if (v->kind == SPOOR_VIEW_SOURCE) {
        for (size_t i = 0; i < v->nsources; i++)
            if (!text_clean(v->sources[i], strlen(v->sources[i])))
                return false;
    } else if (v->kind == SPOOR_VIEW_STR) {
        size_t n = spoor_strpool_count(v->pool);
        for (uint32_t id = 1; id < n; id++) {
            size_t len;
            const char *text = spoor_strpool_get(v->pool, id, &len);
            if (!text_clean(text, len))
                return false;
        }
    }
    return true;
}

static bool pattern_ok(struct wparser *p, size_t col, const char *pattern, bool glob, char escape)
{
    size_t len = strlen(pattern);
    if (len > MAX_PATTERN)
        return decline(p, "WHERE has a long pattern");
    for (size_t i = 0; i < len; i++) {
        if ((unsigned char)pattern[i] >= 0x80 || (glob && pattern[i] == '['))
            return decline(p, "WHERE has a pattern with non-ASCII text or a GLOB class");
        if (escape && pattern[i] == escape && ++i >= len)
            return decline(p, "WHERE has a pattern ending in its escape");
    }
    if (!column_clean(p->s, col))
        return decline(p, "WHERE matches a pattern against text with NUL or bad UTF-8");
    return true;
}

/* [NOT] LIKE 'p' [ESCAPE 'c'] or [NOT] GLOB 'p' after the column. */
static bool match(struct wparser *p, size_t col, enum col_class cls, bool glob)
{
    const struct ntok *pat = peek(p);
    if (cls != CLASS_TEXT || pat->kind != NT_STRING)
        return decline(p, "WHERE matches a pattern against a number or a non-literal");
    p->c->pos++;
    char escape = 0;
    if (!glob && accept_word(p, "escape")) {
        const struct ntok *e = peek(p);
        if (e->kind != NT_STRING || strlen(e->text) != 1 || (unsigned char)e->text[0] >= 0x80 ||
            strchr("%_", e->text[0]))
            return decline(p, "WHERE has an ESCAPE the native path does not take");
        escape = e->text[0];
        p->c->pos++;
    }
    if (!pattern_ok(p, col, pat->text, glob, escape))
        return false;
    sqlite3_str_appendf(p->out, " %s %Q", glob ? "GLOB" : "LIKE", pat->text);
    if (escape)
        sqlite3_str_appendf(p->out, " ESCAPE '%q'", (char[]){escape, 0});
    return true;
}

static bool in_list(struct wparser *p, enum col_class cls)
{
    if (!ntok_is_punct(peek(p), "("))
        return decline(p, "WHERE has IN without a list");
    p->c->pos++;
    sqlite3_str_appendall(p->out, " IN (");
    for (size_t n = 0;; n++) {
        if (n)
            sqlite3_str_appendall(p->out, ", ");
        if (!literal(p, cls))
            return false;
        if (ntok_is_punct(peek(p), ")"))
            break;
        if (!ntok_is_punct(peek(p), ","))
            return decline(p, "WHERE has an IN list of other than literals");
        p->c->pos++;
    }
    p->c->pos++;
    sqlite3_str_appendall(p->out, ")");
    return true;
}

static const char *const comparisons[][2] = {
    {"=", "="}, {"==", "="}, {"!=", "!="}, {"<>", "!="}, {"<", "<"}, {"<=", "<="}, {">", ">"}, {">=", ">="},
};

/* column <op> literal, column [NOT] IN / BETWEEN / LIKE / GLOB ..., column IS [NOT] NULL */
static bool predicate(struct wparser *p)
{
    size_t col;
    if (!native_column(p->s, peek(p), &col))
        return decline(p, "WHERE has an operand other than a column");
    enum col_class cls = class_of(p->s, col);
    if (cls == CLASS_NONE)
        return decline(p, "WHERE reads a column without a type");
    p->c->pos++;
    sqlite3_str_appendall(p->out, "(");
    put_column(p, col);
    const struct ntok *op = peek(p);
    bool ok;
    if (op->kind == NT_PUNCT) {
        size_t k = 0, n = sizeof comparisons / sizeof comparisons[0];
        while (k < n && strcmp(op->text, comparisons[k][0]))
            k++;
        if (k == n)
            return decline(p, "WHERE has an operator the native path does not take");
        p->c->pos++;
        sqlite3_str_appendf(p->out, " %s ", comparisons[k][1]);
        ok = literal(p, cls);
    } else if (accept_word(p, "is")) {
        bool neg = accept_word(p, "not");
        if (!accept_word(p, "null"))
            return decline(p, "WHERE has IS other than IS [NOT] NULL");
        sqlite3_str_appendf(p->out, " IS %sNULL", neg ? "NOT " : "");
        ok = true;
    } else {
        if (accept_word(p, "not"))
            sqlite3_str_appendall(p->out, " NOT");
        if (accept_word(p, "in")) {
            ok = in_list(p, cls);
        } else if (accept_word(p, "like") || accept_word(p, "glob")) {
            ok = match(p, col, cls, ntok_is_word(&p->c->t->v[p->c->pos - 1], "glob"));
        } else if (accept_word(p, "between")) {
            sqlite3_str_appendall(p->out, " BETWEEN ");
            ok = literal(p, cls) && accept_word(p, "and");
            if (ok)
                sqlite3_str_appendall(p->out, " AND ");
            ok = ok && literal(p, cls);
        } else {
            return decline(p, "WHERE has an operator the native path does not take");
        }
    }
    sqlite3_str_appendall(p->out, ")");
    return ok;
}

static bool disjunction(struct wparser *p);

static bool negation(struct wparser *p)
{
    if (++p->depth > MAX_DEPTH)
        return decline(p, "WHERE nests too deeply");
    bool ok;
    if (accept_word(p, "not")) {
        sqlite3_str_appendall(p->out, "NOT ");
        ok = negation(p);
    } else if (ntok_is_punct(peek(p), "(")) {
        p->c->pos++;
        sqlite3_str_appendall(p->out, "(");
        ok = disjunction(p) && ntok_is_punct(peek(p), ")");
        if (ok) {
            p->c->pos++;
            sqlite3_str_appendall(p->out, ")");
        } else {
            decline(p, "WHERE has a parenthesis around other than a condition");
        }
    } else {
        ok = predicate(p);
    }
    p->depth--;
    return ok;
}

/* a AND b AND c as ((a AND b) AND c): --where and SQLite bind alike, the
 * parentheses only make sure of it. */
static bool chain(struct wparser *p, const char *word, bool (*operand)(struct wparser *))
{
    sqlite3_str *outer = p->out;
    p->out = sqlite3_str_new(NULL);
    bool ok = operand(p);
    while (ok && accept_word(p, word)) {
        char *left = sqlite3_str_finish(p->out);
        p->out = sqlite3_str_new(NULL);
        sqlite3_str_appendf(p->out, "(%s %s ", left, word);
        sqlite3_free(left);
        ok = operand(p);
        sqlite3_str_appendall(p->out, ")");
    }
    char *text = sqlite3_str_finish(p->out);
    p->out = outer;
    if (ok)
        sqlite3_str_appendall(outer, text);
    sqlite3_free(text);
    return ok;
}

static bool conjunction(struct wparser *p) { return chain(p, "AND", negation); }
static bool disjunction(struct wparser *p) { return chain(p, "OR", conjunction); }

bool native_where(struct spoor_sql *s, struct ncursor *c, char **out)
{
    struct wparser p = {.c = c, .s = s, .out = sqlite3_str_new(NULL)};
    bool ok = disjunction(&p);
    char *text = sqlite3_str_finish(p.out);
    *out = ok && text ? spoor_xstrdup(text) : NULL;
    sqlite3_free(text);
    return ok && *out;
}
