/* Tokens of an SQL statement for the native path. Only what the subset uses
 * gets a kind of its own; everything else (parameters, blobs, hex, [names],
 * operators it has no use for) is NT_OTHER, which no rule accepts. SQLite has
 * already prepared the statement, so the text is valid SQL. */
#include "sql/native/internal.h"
#include "util/grow.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_word_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_word_char(char c) { return is_word_start(c) || is_digit(c); }
/* SQLite also takes '$' and any byte >= 0x80 inside identifiers. */
static bool is_sql_word_char(char c) { return is_word_char(c) || c == '$' || (unsigned char)c >= 0x80; }

static struct ntok *push(struct ntoks *t, size_t *cap, enum ntok_kind kind, const char *at, size_t len)
{
    spoor_reserve((void **)&t->v, cap, t->n + 1, sizeof *t->v);
    struct ntok *tok = &t->v[t->n++];
    *tok = (struct ntok){.kind = kind, .at = at, .len = len};
    return tok;
}

static size_t skip_space(const char *s, size_t i, size_t len)
{
    for (;;) {
        if (i < len && strchr(" \t\n\r\f\v", s[i]) && s[i]) {
            i++;
        } else if (i + 1 < len && s[i] == '-' && s[i + 1] == '-') {
            while (i < len && s[i] != '\n')
                i++;
        } else if (i + 1 < len && s[i] == '/' && s[i + 1] == '*') {
            i += 2;
            while (i < len && !(s[i] == '*' && i + 1 < len && s[i + 1] == '/'))
                i++;
            i = i < len ? i + 2 : len;
        } else {
            return i;
        }
    }
}

/* A quoted string or name from s[i] (the quote); the quote doubled stands
 * for itself. Returns the length, 0 when unterminated. */
static size_t quoted(const char *s, size_t i, size_t len, char **text)
{
    char q = s[i];
    char *buf = spoor_xmalloc(len - i + 1);
    size_t n = 0, j = i + 1;
    for (; j < len; j++) {
        if (s[j] == q) {
            if (j + 1 >= len || s[j + 1] != q)
                break;
            j++;
        }
        buf[n++] = s[j];
    }
    if (j >= len) {
        free(buf);
        return 0;
    }
    buf[n] = '\0';
    *text = buf;
    return j + 1 - i;
}

/* Digits [. digits] [e [+-] digits], or . digits. Reals keep to 15
 * significant digits so that SQLite's own conversion and strtod agree. */
static size_t number(const char *s, size_t i, size_t len, struct ntok *tok)
{
    size_t j = i, digits = 0;
    bool real = false;
    while (j < len && is_digit(s[j]))
        j++, digits++;
    if (j < len && s[j] == '.') {
        real = true;
        for (j++; j < len && is_digit(s[j]); j++)
            digits++;
    }
    if (j < len && (s[j] == 'e' || s[j] == 'E')) {
        size_t k = j + 1;
        if (k < len && (s[k] == '+' || s[k] == '-'))
            k++;
        if (k < len && is_digit(s[k])) {
            real = true;
            for (j = k; j < len && is_digit(s[j]); j++)
                ;
        }
    }
    char *text = spoor_xstrndup(s + i, j - i);
    char *end;
    errno = 0;
    if (real) {
        tok->kind = digits <= 15 && j - i < 24 ? NT_REAL : NT_OTHER;
        tok->f = strtod(text, &end);
    } else {
        tok->kind = NT_INT;
        tok->i = strtoll(text, &end, 10);
    }
    if (errno || *end || (j < len && is_sql_word_char(s[j])))
        tok->kind = NT_OTHER; /* out of range, 0x.., 10ms */
    free(text);
    return j - i;
}

static const char *const operators[] = {"==", "!=", "<>", "<=", ">=", "=", "<", ">", "(", ")", ",", "*", ";", "-", NULL};

static size_t punct(const char *s, size_t i, size_t len)
{
    for (size_t k = 0; operators[k]; k++) {
        size_t n = strlen(operators[k]);
        if (i + n <= len && !memcmp(s + i, operators[k], n))
            return n;
    }
    return 0;
}

void native_lex(const char *s, size_t len, struct ntoks *out)
{
    size_t cap = 0;
    out->v = NULL;
    out->n = 0;
    for (size_t i = skip_space(s, 0, len); i < len; i = skip_space(s, i, len)) {
        struct ntok *tok = push(out, &cap, NT_OTHER, s + i, 1);
        size_t n;
        if (is_word_start(s[i])) {
            for (n = 1; i + n < len && is_word_char(s[i + n]); n++)
                ;
            bool plain = !(i + n < len && is_sql_word_char(s[i + n]));
            tok->kind = plain ? NT_IDENT : NT_OTHER;
            tok->text = spoor_xstrndup(s + i, n);
        } else if (is_digit(s[i]) || (s[i] == '.' && i + 1 < len && is_digit(s[i + 1]))) {
            n = number(s, i, len, tok);
        } else if (s[i] == '\'' || s[i] == '"') {
            n = quoted(s, i, len, &tok->text);
            tok->kind = n ? (s[i] == '\'' ? NT_STRING : NT_QIDENT) : NT_OTHER;
            n = n ? n : len - i;
        } else if ((n = punct(s, i, len)) > 0) {
            tok->kind = NT_PUNCT;
            tok->text = spoor_xstrndup(s + i, n);
        } else {
            n = 1;
        }
        tok->len = n;
        i += n;
    }
    push(out, &cap, NT_END, s + len, 0);
}

void native_toks_free(struct ntoks *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->v[i].text);
    free(t->v);
    t->v = NULL;
    t->n = 0;
}

const struct ntok *ncur_peek(const struct ncursor *c) { return &c->t->v[c->pos]; }

const struct ntok *ncur_ahead(const struct ncursor *c, size_t k)
{
    return &c->t->v[c->pos + k < c->t->n ? c->pos + k : c->t->n - 1];
}

bool ntok_is_word(const struct ntok *tok, const char *word)
{
    return tok->kind == NT_IDENT && !strcasecmp(tok->text, word);
}

bool ntok_is_punct(const struct ntok *tok, const char *op) { return tok->kind == NT_PUNCT && !strcmp(tok->text, op); }

bool ncur_word(struct ncursor *c, const char *word)
{
    if (!ntok_is_word(ncur_peek(c), word))
        return false;
    c->pos++;
    return true;
}

bool ncur_punct(struct ncursor *c, const char *op)
{
    if (!ntok_is_punct(ncur_peek(c), op))
        return false;
    c->pos++;
    return true;
}

bool ncur_decline(struct ncursor *c, const char *why)
{
    if (!c->why)
        c->why = why;
    return false;
}
