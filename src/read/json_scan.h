/* A tolerant scanner for one JSON object per line, shared by the pfw and jsonl
 * readers. It does not build a tree: it walks members and hands out spans.
 * Tolerated beyond strict JSON: trailing commas, leading spaces, unescaped
 * control bytes and stray quotes inside strings (DataCrumbs' C++ writer),
 * integers of any width (kept as text), invalid UTF-8 (left to the caller). */
#ifndef SPOOR_JSON_SCAN_H
#define SPOOR_JSON_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/table.h"

enum spoor_json_kind {
    SPOOR_JSON_STRING,
    SPOOR_JSON_NUMBER,
    SPOOR_JSON_OBJECT,
    SPOOR_JSON_ARRAY,
    SPOOR_JSON_TRUE,
    SPOOR_JSON_FALSE,
    SPOOR_JSON_NULL,
};

struct spoor_json_tok {
    enum spoor_json_kind kind;
    const char *p;      /* STRING: the bytes between the quotes (escapes not decoded);
                           OBJECT/ARRAY: from the opening to the closing bracket;
                           others: the literal text */
    size_t n;
    bool has_escape;    /* STRING contains a backslash */
};

struct spoor_json_iter {
    const char *p, *end;
    bool failed;
};

/* obj points at '{' (leading white space allowed); end is one past the line. */
void spoor_json_iter_init(struct spoor_json_iter *it, const char *obj, const char *end);
/* Next member: 1 = got one, 0 = end of object, -1 = malformed (it->failed set). */
int spoor_json_next(struct spoor_json_iter *it, struct spoor_json_tok *key, struct spoor_json_tok *val);

/* Decodes escapes of a STRING token into out (capacity >= n); returns the length.
 * Invalid escapes are copied through. */
size_t spoor_json_unescape(const char *p, size_t n, char *out);

/* Integer value of a NUMBER token or a quoted number; false if it is not an
 * integer that fits in int64. */
bool spoor_json_int64(const char *p, size_t n, int64_t *out);
/* Floating-point value of a NUMBER token or a quoted number. */
bool spoor_json_double(const char *p, size_t n, double *out);

/* Converts a value token into a table value: integers that fit -> I64, other
 * numbers -> F64, wider integers and strings -> STR (interned in t),
 * true/false -> I64 1/0, null -> is_null, objects/arrays -> STR (raw text).
 * With quoted_numbers, a string holding only an integer or decimal becomes a number.
 * memo (may be NULL) remembers plain strings (no escape, ASCII) of the chunk
 * the token lies in: read/field_map.h. */
struct spoor_string_memo;
void spoor_json_to_value(struct spoor_table *t, const struct spoor_json_tok *tok, bool quoted_numbers,
                         struct spoor_string_memo *memo, struct spoor_value *v);

#endif
