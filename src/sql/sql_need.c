/* Which columns of events a query can read, from its text alone, so a table
 * mapped from a snapshot verifies only those (spoor/load.h).
 *
 * A column is read only when the text names it, case aside, in any quoting;
 * or through `*` (SELECT *, e.*) or NATURAL JOIN, which read columns they do
 * not name. So: every word of the text that equals a column's name needs that
 * column; a name that is not one word (args.x) is looked for as a substring;
 * any `*` but count(*)'s, and the word NATURAL, need everything. This errs
 * only towards checking more: a word in a string literal or a comment counts. */
#include "sql/sql_internal.h"
#include "spoor/load.h"

#include <stdlib.h>
#include <string.h>

/* SQLite's identifier characters: letters, digits, _ and $, and every byte
 * of a multi-byte character. */
static bool word_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
           c >= 0x80;
}

static bool all_word_chars(const char *s)
{
    for (; *s; s++)
        if (!word_char((unsigned char)*s))
            return false;
    return true;
}

/* Whether the '*' at text[at] is the one of count(*). */
static bool count_star(const char *text, size_t at)
{
    size_t before = at, after = at + 1;
    while (before > 0 && strchr(" \t\r\n", text[before - 1]))
        before--;
    while (text[after] && strchr(" \t\r\n", text[after]))
        after++;
    return before > 0 && text[before - 1] == '(' && text[after] == ')';
}

static bool reads_everything(const char *text)
{
    for (size_t i = 0; text[i]; i++) {
        if (text[i] == '*' && !count_star(text, i))
            return true;
        bool starts = word_char((unsigned char)text[i]) && (i == 0 || !word_char((unsigned char)text[i - 1]));
        if (starts && !sqlite3_strnicmp(text + i, "natural", 7) && !word_char((unsigned char)text[i + 7]))
            return true;
    }
    return false;
}

/* Whether text names label: as a whole word, or as a substring when the
 * label is more than one word. A label holding a quote is always named (the
 * text spells it with the quote doubled). */
static bool names(const char *text, const char *label)
{
    size_t len = strlen(label);
    if (!len || strchr(label, '"') || strchr(label, '`') || strchr(label, ']'))
        return true;
    bool one_word = all_word_chars(label);
    for (size_t i = 0; text[i]; i++) {
        if (sqlite3_strnicmp(text + i, label, (int)len))
            continue;
        if (!one_word)
            return true;
        bool starts = i == 0 || !word_char((unsigned char)text[i - 1]);
        if (starts && !word_char((unsigned char)text[i + len]))
            return true;
    }
    return false;
}

void spoor_sql_columns_read(const struct spoor_table *t, const char *text, struct spoor_snapshot_need *need)
{
    *need = (struct spoor_snapshot_need){0};
    if (!text || reads_everything(text)) {
        need->fixed = ~0u;
        need->all_args = true;
        return;
    }
    struct sql_columns cols;
    sql_columns_init(&cols, t);
    need->args = spoor_xmalloc((t->ncols ? t->ncols : 1) * sizeof *need->args);
    for (size_t i = 0; i < cols.n; i++) {
        const struct sql_column *c = &cols.v[i];
        if (!names(text, c->label))
            continue;
        spoor_field_need(t, c->field, c->key, c->key ? strlen(c->key) : 0, need);
    }
    sql_columns_free(&cols);
}
