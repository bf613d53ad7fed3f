/* Tokens of a --where expression. Positions in errors are 1-based columns. */
#include "ops/expr_internal.h"
#include "util/grow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
    const char *word;
    enum tok_kind kind;
} keywords[] = {
    {"and", T_AND}, {"or", T_OR}, {"not", T_NOT}, {"in", T_IN}, {"like", T_LIKE}, {"glob", T_GLOB},
    {"escape", T_ESCAPE}, {"is", T_IS}, {"null", T_NULL}, {"between", T_BETWEEN},
};

static const struct {
    const char *suffix;
    int64_t ns;
} time_units[] = {{"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}};

static bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c) || c == '.'; }

static enum tok_kind keyword(const char *s, size_t len)
{
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
        if (strlen(keywords[i].word) == len && strncasecmp(keywords[i].word, s, len) == 0)
            return keywords[i].kind;
    return T_IDENT;
}

static struct token *push(struct tokens *t, size_t *cap, enum tok_kind kind, size_t pos, size_t len)
{
    spoor_reserve((void **)&t->v, cap, t->n + 1, sizeof *t->v);
    struct token *tok = &t->v[t->n++];
    *tok = (struct token){.kind = kind, .pos = pos, .len = len};
    return tok;
}

/* A quoted string or identifier; the quote doubled stands for itself. */
static int quoted(const char *text, size_t *i, char q, struct token *tok, struct spoor_error *err)
{
    size_t start = *i;
    size_t j = start + 1, n = 0;
    char *buf = spoor_xmalloc(strlen(text + start) + 1);
    for (;;) {
        if (!text[j]) {
            free(buf);
            return spoor_fail(err, SPOOR_EUSAGE, "unterminated %s starting at position %zu",
                              q == '\'' ? "string" : "quoted name", start + 1);
        }
        if (text[j] == q) {
            if (text[j + 1] != q)
                break;
            j++;
        }
        buf[n++] = text[j++];
    }
    buf[n] = '\0';
    tok->str = buf;
    tok->str_len = n;
    tok->len = j + 1 - start;
    *i = j + 1;
    return SPOOR_OK;
}

/* Scales a number by a time unit into integer nanoseconds. */
static int scale_time(struct token *tok, int64_t ns, struct spoor_error *err)
{
    double v = tok->num.f * (double)ns;
    if (tok->num.kind == NUM_INT && ns > 0 && tok->num.i <= INT64_MAX / ns && tok->num.i >= INT64_MIN / ns) {
        tok->num = num_int(tok->num.i * ns);
        return SPOOR_OK;
    }
    if (tok->num.kind == NUM_BIG || !(fabs(v) < 9.2e18))
        return spoor_fail(err, SPOOR_EUSAGE, "time literal out of range at position %zu", tok->pos + 1);
    tok->num = num_int((int64_t)llround(v));
    return SPOOR_OK;
}

static int number(const char *text, size_t *i, struct token *tok, struct spoor_error *err)
{
    size_t start = *i, j = start;
    while (is_digit(text[j]))
        j++;
    if (text[j] == '.') {
        j++;
        while (is_digit(text[j]))
            j++;
    }
    if ((text[j] == 'e' || text[j] == 'E') &&
        (is_digit(text[j + 1]) || ((text[j + 1] == '+' || text[j + 1] == '-') && is_digit(text[j + 2])))) {
        j += 2;
        while (is_digit(text[j]))
            j++;
    }
    tok->str = spoor_xstrndup(text + start, j - start);
    tok->str_len = j - start;
    if (!num_parse(tok->str, tok->str_len, &tok->num))
        return spoor_fail(err, SPOOR_EUSAGE, "bad number '%s' at position %zu", tok->str, start + 1);
    size_t suffix = j;
    while (is_ident_char(text[j]))
        j++;
    tok->len = j - start;
    *i = j;
    if (j == suffix)
        return SPOOR_OK;
    for (size_t u = 0; u < sizeof time_units / sizeof time_units[0]; u++)
        if (strlen(time_units[u].suffix) == j - suffix && memcmp(time_units[u].suffix, text + suffix, j - suffix) == 0)
            return scale_time(tok, time_units[u].ns, err);
    return spoor_fail(err, SPOOR_EUSAGE, "unknown unit '%.*s' after a number at position %zu (expected ns, us, ms or s)",
                      (int)(j - suffix), text + suffix, suffix + 1);
}

static const struct {
    const char *op;
    enum tok_kind kind;
} operators[] = {
    /* two-character operators first */
    {"==", T_EQ}, {"!=", T_NE}, {"<>", T_NE}, {"<=", T_LE}, {">=", T_GE},
    {"=", T_EQ}, {"<", T_LT}, {">", T_GT}, {"(", T_LPAREN}, {")", T_RPAREN}, {",", T_COMMA},
    {"+", T_PLUS}, {"-", T_MINUS}, {"*", T_STAR}, {"/", T_SLASH}, {"%", T_PERCENT},
};

int expr_lex(const char *text, struct tokens *out, struct spoor_error *err)
{
    memset(out, 0, sizeof *out);
    size_t cap = 0, i = 0;
    for (;;) {
        while (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')
            i++;
        char c = text[i];
        if (!c) {
            push(out, &cap, T_END, i, 0);
            return SPOOR_OK;
        }
        int st = SPOOR_OK;
        if (is_digit(c) || (c == '.' && is_digit(text[i + 1]))) {
            st = number(text, &i, push(out, &cap, T_NUM, i, 0), err);
        } else if (c == '\'' || c == '"') {
            st = quoted(text, &i, c, push(out, &cap, c == '\'' ? T_STR : T_IDENT, i, 0), err);
        } else if (is_ident_start(c)) {
            size_t start = i;
            while (is_ident_char(text[i]))
                i++;
            struct token *tok = push(out, &cap, keyword(text + start, i - start), start, i - start);
            if (tok->kind == T_IDENT) {
                tok->str = spoor_xstrndup(text + start, i - start);
                tok->str_len = i - start;
            }
        } else {
            size_t k = 0, nops = sizeof operators / sizeof operators[0];
            while (k < nops && strncmp(text + i, operators[k].op, strlen(operators[k].op)) != 0)
                k++;
            if (k == nops && (unsigned char)c > ' ' && (unsigned char)c < 0x7f)
                st = spoor_fail(err, SPOOR_EUSAGE, "unexpected character '%c' at position %zu", c, i + 1);
            else if (k == nops)
                st = spoor_fail(err, SPOOR_EUSAGE, "unexpected byte 0x%02x at position %zu", (unsigned char)c, i + 1);
            else {
                size_t len = strlen(operators[k].op);
                push(out, &cap, operators[k].kind, i, len);
                i += len;
            }
        }
        if (st != SPOOR_OK) {
            expr_tokens_free(out);
            return st;
        }
    }
}

void expr_tokens_free(struct tokens *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->v[i].str);
    free(t->v);
    memset(t, 0, sizeof *t);
}
