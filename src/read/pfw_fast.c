/* The fast tokenizer for well-formed trace lines.
 *
 * Almost every line a tracer writes is strict, escape-free JSON in one of a
 * few shapes: the same keys in the same order with the same separators, only
 * the values differ. So the first line of a shape is walked member by member
 * (16-byte SSE2 compares find the quotes that end strings, SWAR arithmetic
 * reads integers eight digits at a step, a quote-aware bracket matcher skips
 * nested values) and its shape is learned: the literal bytes between values.
 * Later lines are matched against the learned shapes with two word compares
 * per member plus the value itself. Args get shapes of their own, one per
 * event name, since the args of one kind of event look alike. It reads up to
 * the '\n' after the object and never needs the line end first.
 *
 * Anything unusual (a backslash, a raw quote, blanks other than json.dumps'
 * single spaces, a newline inside a value, NaN, malformed text, the last few
 * dozen bytes of the buffer) makes it give up, and the tolerant scanner in
 * json_scan.c reads the line instead. What it accepts it reads exactly as that
 * scanner would; the tests and the pfw fuzz target check the two agree.
 *
 * What it gains (issue 19): `spoor stats --no-cache --threads 1` with this
 * tokenizer and with every line given to json_scan.c, paired alternating
 * runs, medians of 7, on 2 busy cores; real traces concatenated to ~200 MB:
 *   dftracer-dlio-pytorch-2023 x8 (202 MB)   wall 0.50 -> 0.21 s, CPU 0.33 -> 0.13 s
 *   dftracer-cm1-2024 ranks 0,3,4 x50 (201 MB) wall 0.78 -> 0.35 s, CPU 0.46 -> 0.19 s
 *   datacrumbs-trace-2024 x400 (208 MB)      wall 0.81 -> 0.51 s, CPU 0.33 -> 0.15 s
 *   spoor gen --size-mb 200                  wall 0.92 -> 0.35 s, CPU 0.33 -> 0.14 s
 * i.e. the whole command takes 2.2-2.5x less CPU with it. */
#include "read/pfw.h"
#include "util/digits.h"

#include <string.h>

/* SSE2 and little-endian words: x86-64. Elsewhere every line takes the
 * tolerant path. */
#if defined(__SSE2__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#include <emmintrin.h>

enum { GUARD = 32 }; /* scalar reads near p never pass end */

static inline __m128i load16(const char *p) { return _mm_loadu_si128((const __m128i *)p); }

static inline unsigned eq(__m128i v, char c)
{
    return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c)));
}

/* The closing quote of a string whose text starts at p, or NULL when a
 * backslash or newline comes first or the buffer ends within 16 bytes. */
static inline const char *string_end(const char *p, const char *end)
{
    for (;; p += 16) {
        if (end - p < 16)
            return NULL;
        __m128i v = load16(p);
        unsigned quote = eq(v, '"'), bad = eq(v, '\\') | eq(v, '\n');
        if (quote | bad) {
            unsigned first = quote & (0u - quote);
            if (!quote || (bad & (first - 1)))
                return NULL;
            return p + __builtin_ctz(quote);
        }
    }
}

static const uint64_t pow10[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};

static inline bool is_number_char(char c)
{
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

/* Value of the n (1..8) ASCII digits at p, 8 bytes readable. */
static inline uint64_t digits_value(const char *p, int n)
{
    return spoor_digits8_value(spoor_get64((const uint8_t *)p), n);
}

/* A number at p (a digit or '-'); returns its end. With want, a plain
 * integer of at most 16 digits is also read into *value (*parsed); longer
 * ones are left to spoor_json_int64. */
static inline __attribute__((always_inline)) const char *number(const char *p, const char *end, bool want,
                                                                int64_t *value, bool *parsed)
{
    bool neg = *p == '-';
    const char *d = p + neg;
    int n = 0, k = 8;
    uint64_t w = 0;
    while (k == 8 && end - (d + n) >= 8) {
        w = spoor_get64((const uint8_t *)(d + n));
        k = spoor_digits8(w);
        n += k;
    }
    const char *e;
    /* the byte after the digits is usually in w already: no load on the
     * path from one value to the next */
    if (k < 8 && !is_number_char((char)(w >> (8 * k)))) {
        e = d + n;
    } else {
        while (d + n < end && d[n] >= '0' && d[n] <= '9')
            n++;
        e = d + n;
        while (e < end && is_number_char(*e))
            e++;
    }
    *parsed = false;
    if (want && e == d + n && n >= 1 && n <= 16 && end - d >= 16) {
        uint64_t v = n <= 8 ? digits_value(d, n) : digits_value(d, 8) * pow10[n - 8] + digits_value(d + 8, n - 8);
        *value = neg ? -(int64_t)v : (int64_t)v;
        *parsed = true;
    }
    return e;
}

/* Just past the bracket matching the one at p, skipping strings; NULL when
 * the tolerant scanner should decide: a backslash or newline inside,
 * mismatched or too deeply nested brackets, the end of the buffer, or a
 * closing quote not followed at once by ':' '}' ']' or by ',' and a quote
 * (the tolerant scanner closes strings in more places; on this subset the
 * two pair quotes the same way). */
static const char *container_end(const char *p, const char *end)
{
    uint64_t is_object = 0; /* bit per depth */
    int depth = 0;
    unsigned in_string = 0, follow_pending = 0;
    for (const char *x = p;; x += 16) {
        if (end - x < 18)
            return NULL;
        __m128i v = load16(x);
        unsigned quote = eq(v, '"');
        unsigned bad = (unsigned)_mm_movemask_epi8(
            _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))));
        unsigned inside = ((unsigned)spoor_prefix_xor(quote) & 0xFFFF) ^ (in_string ? 0xFFFF : 0);
        __m128i folded = _mm_or_si128(v, _mm_set1_epi8(0x20)); /* '[' ']' become '{' '}' */
        unsigned open = eq(folded, '{') & ~inside, close = eq(folded, '}') & ~inside;
        unsigned closing_quote = quote & ~inside;
        unsigned followers = ((closing_quote << 1) | follow_pending) & 0xFFFF;
        unsigned allowed = eq(v, ':') | close;
        unsigned comma = eq(v, ',') & followers;
        if (comma) {
            /* a comma after a string must lead to the next key: '"' or ' "' */
            unsigned next = eq(load16(x + 1), '"'), space = eq(load16(x + 1), ' '), next2 = eq(load16(x + 2), '"');
            allowed |= comma & (next | (space & next2));
        }
        unsigned upto = 0xFFFF;
        const char *found = NULL;
        for (unsigned ev = open | close; ev; ev &= ev - 1) {
            int i = __builtin_ctz(ev);
            if (open & (1u << i)) {
                if (depth == 64)
                    return NULL;
                if (x[i] == '{')
                    is_object |= 1ULL << depth;
                else
                    is_object &= ~(1ULL << depth);
                depth++;
                continue;
            }
            if (depth == 0)
                return NULL;
            depth--;
            if (((is_object >> depth) & 1) != (x[i] == '}'))
                return NULL;
            if (depth == 0) {
                upto = i == 15 ? 0xFFFF : (2u << i) - 1;
                found = x + i + 1;
                break;
            }
        }
        if ((bad | (followers & ~allowed)) & upto)
            return NULL;
        if (found)
            return found;
        in_string = (inside >> 15) & 1;
        follow_pending = (closing_quote >> 15) & 1;
    }
}

/* true, false, null, objects and arrays: the rarer values. */
static const char *other_value(const char *p, const char *end, struct spoor_json_tok *tok)
{
    const char *start = p;
    char c = *p;
    if (c == '{' || c == '[') {
        tok->kind = c == '{' ? SPOOR_JSON_OBJECT : SPOOR_JSON_ARRAY;
        p = container_end(p, end);
        if (!p)
            return NULL;
    } else if (c == 't' && memcmp(p, "true", 4) == 0) {
        tok->kind = SPOOR_JSON_TRUE;
        p += 4;
    } else if (c == 'f' && memcmp(p, "false", 5) == 0) {
        tok->kind = SPOOR_JSON_FALSE;
        p += 5;
    } else if (c == 'n' && memcmp(p, "null", 4) == 0) {
        tok->kind = SPOOR_JSON_NULL;
        p += 4;
    } else {
        return NULL;
    }
    tok->p = start;
    tok->n = (size_t)(p - start);
    return p;
}

/* A value at p into tok (and num/parsed for integers); returns its end. */
static inline __attribute__((always_inline)) const char *value(const char *p, const char *end,
                                                               struct spoor_json_tok *tok, bool want,
                                                               int64_t *num, bool *parsed)
{
    if (end - p < 16) /* every token has 16 readable bytes (pfw_cache_find) */
        return NULL;
    tok->has_escape = false;
    char c = *p;
    if (c == '"') {
        const char *q = string_end(p + 1, end);
        if (!q)
            return NULL;
        tok->kind = SPOOR_JSON_STRING;
        tok->p = p + 1;
        tok->n = (size_t)(q - p - 1);
        return q + 1;
    }
    if (c == '-' || (unsigned)(c - '0') < 10) {
        const char *e = number(p, end, want, num, parsed);
        tok->kind = SPOOR_JSON_NUMBER;
        tok->p = p;
        tok->n = (size_t)(e - p);
        return e;
    }
    *parsed = false;
    return other_value(p, end, tok);
}

/* The fixed keys, told from the bytes at k (the key's text) with their
 * closing '":' so the key's end is known without a search. *len is 0 for
 * any other key. */
static inline enum pfw_field known_key(const char *k, size_t *len)
{
    if (memcmp(k, "name\":", 6) == 0)
        return *len = 4, PFW_NAME;
    if (memcmp(k, "cat\":", 5) == 0)
        return *len = 3, PFW_CAT;
    if (memcmp(k, "ph\":", 4) == 0)
        return *len = 2, PFW_PH;
    if (memcmp(k, "ts\":", 4) == 0)
        return *len = 2, PFW_TS;
    if (memcmp(k, "dur\":", 5) == 0)
        return *len = 3, PFW_DUR;
    if (memcmp(k, "pid\":", 5) == 0)
        return *len = 3, PFW_PID;
    if (memcmp(k, "tid\":", 5) == 0)
        return *len = 3, PFW_TID;
    if (memcmp(k, "args\":", 6) == 0)
        return *len = 4, PFW_ARGS;
    if (memcmp(k, "id\":", 4) == 0)
        return *len = 2, PFW_EXTRA;
    return *len = 0, PFW_EXTRA;
}

/* The next member's `"key":` at p (after ',' or '{'): returns the value's
 * start, or NULL. *closed is set instead when p is at the object's '}'.
 * With top, the fixed keys are recognised into *which. */
static inline __attribute__((always_inline)) const char *member_key(const char *p, const char *end,
                                                                    struct spoor_json_tok *key, bool *closed,
                                                                    bool top, enum pfw_field *which)
{
    while (p < end && *p == ' ')
        p++;
    if (end - p < GUARD)
        return NULL;
    *closed = *p == '}';
    if (*closed)
        return p + 1;
    if (*p != '"')
        return NULL;
    size_t n = 0;
    *which = PFW_EXTRA;
    if (top)
        *which = known_key(p + 1, &n);
    const char *q = p + 1 + n;
    if (!n && (!(q = string_end(p + 1, end)) || end - q < 2 || q[1] != ':'))
        return NULL;
    key->kind = SPOOR_JSON_STRING;
    key->p = p + 1;
    key->n = (size_t)(q - p - 1);
    key->has_escape = false;
    p = q + 2;
    if (end - p < 8)
        return NULL;
    return *p == ' ' ? p + 1 : p;
}

/* After a value: past a ',' (*more) or past the closing '}'; NULL otherwise. */
static inline const char *member_end(const char *p, const char *end, bool *more)
{
    if (p == end)
        return NULL;
    *more = *p == ',';
    return *p == ',' || *p == '}' ? p + 1 : NULL;
}

/* Value kinds of a shape member. */
enum { KIND_STRING, KIND_NUMBER, KIND_OTHER };

static inline int kind_of(char c)
{
    return c == '"' ? KIND_STRING : c == '-' || (unsigned)(c - '0') < 10 ? KIND_NUMBER : KIND_OTHER;
}

static void set_literal(uint64_t *lit, uint64_t *mask, const char *p, size_t n)
{
    char bytes[16] = {0}, ones[16] = {0};
    memcpy(bytes, p, n);
    memset(ones, 0xFF, n);
    memcpy(lit, bytes, 16);
    memcpy(mask, ones, 16);
}

static inline bool literal_matches(const char *p, const uint64_t *lit, const uint64_t *mask)
{
    uint64_t a, b;
    memcpy(&a, p, 8);
    memcpy(&b, p + 8, 8);
    return (((a ^ lit[0]) & mask[0]) | ((b ^ lit[1]) & mask[1])) == 0;
}

/* Records member n of a shape being learned: the bytes from lit to the
 * value's start. False when the shape cannot hold it. */
static bool learn_member(struct pfw_shape *s, size_t n, const char *lit, const char *value_start,
                         const struct spoor_json_tok *key, enum pfw_field which, int kind)
{
    if (n >= PFW_SHAPE_MEMBERS || value_start - lit > 16 || key->p - lit > 16 || key->n > 16)
        return false;
    struct pfw_shape_member *m = &s->m[n];
    set_literal(m->lit, m->mask, lit, (size_t)(value_start - lit));
    m->len = (uint8_t)(value_start - lit);
    m->key_off = (uint8_t)(key->p - lit);
    m->key_len = (uint8_t)key->n;
    m->field = (uint8_t)which;
    m->kind = (uint8_t)kind;
    s->col[n] = PFW_COL_UNRESOLVED;
    return true;
}

/* Records the bytes from the last value to just past '}' and completes the
 * shape; false when they are too many. */
static bool learn_tail(struct pfw_shape *s, size_t n, const char *lit, const char *p)
{
    if (p - lit > 8)
        return false;
    uint64_t tail[2], mask[2];
    set_literal(tail, mask, lit, (size_t)(p - lit));
    s->tail = tail[0];
    s->tail_mask = mask[0];
    s->tail_len = (uint8_t)(p - lit);
    s->n = n;
    s->used = true;
    return true;
}

/* Past the tail of shape s at p, or NULL. */
static inline const char *match_tail(const struct pfw_shape *s, const char *p, const char *end)
{
    if (end - p < 8)
        return NULL;
    return ((spoor_get64((const uint8_t *)p) ^ s->tail) & s->tail_mask) ? NULL : p + s->tail_len;
}

/* The literal of member m at p: NULL when it differs, else the value start. */
static inline const char *match_literal(const struct pfw_shape_member *m, const char *p, const char *end)
{
    if (end - p < 48 || !literal_matches(p, m->lit, m->mask))
        return NULL;
    p += m->len;
    if (m->kind == KIND_NUMBER && *p != '-' && (unsigned)(*p - '0') >= 10)
        return NULL;
    return p;
}

/* A value of a known kind at p into tok; returns its end or NULL. */
static inline __attribute__((always_inline)) const char *kind_value(const char *p, const char *end, int kind,
                                                                    struct spoor_json_tok *tok, bool want,
                                                                    int64_t *num, bool *parsed)
{
    if (kind == KIND_NUMBER && end - p >= 16) {
        const char *e = number(p, end, want, num, parsed);
        *tok = (struct spoor_json_tok){SPOOR_JSON_NUMBER, p, (size_t)(e - p), false};
        return e;
    }
    if (kind != KIND_STRING)
        return value(p, end, tok, want, num, parsed);
    const char *q = string_end(p, end);
    if (!q)
        return NULL;
    *tok = (struct spoor_json_tok){SPOOR_JSON_STRING, p, (size_t)(q - p), false};
    *parsed = false;
    return q + 1;
}

/* ---- args ---- */

/* The args shape for events of this one's name: the args of one kind of
 * event look alike from line to line. Slots are probed from the name's cache
 * slot; with learn, a slot is claimed for the name (the first free one, or
 * the home slot). NULL when the line has no name yet. */
static struct pfw_shape *args_shape_for(struct pfw_fast *fs, const struct pfw_fields *f, bool learn)
{
    if (!(f->seen & (1u << PFW_NAME)))
        return NULL;
    const struct spoor_json_tok *name = &f->tok[PFW_NAME];
    unsigned home = pfw_cache_slot(name) % PFW_ARGS_SHAPES;
    for (unsigned i = 0; i < 4; i++) {
        struct pfw_shape *s = &fs->args[(home + i) % PFW_ARGS_SHAPES];
        if (!s->owner_n && !s->used) {
            if (!learn)
                return NULL;
            s->owner = name->p;
            s->owner_n = name->n;
            return s;
        }
        if (s->owner_n == name->n && spoor_same_bytes(s->owner, name->p, name->n))
            return s;
    }
    if (!learn)
        return NULL;
    struct pfw_shape *s = &fs->args[home];
    s->owner = name->p;
    s->owner_n = name->n;
    s->used = false;
    return s;
}

static const char *match_args(struct pfw_shape *s, const char *p, const char *end, struct pfw_fields *f)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++) {
        const struct pfw_shape_member *m = &s->m[i];
        struct pfw_member *a = &f->args[n];
        struct spoor_json_tok ignored;
        bool needed = s->col[i] != UINT32_MAX;
        if (needed) {
            a->key = (struct spoor_json_tok){SPOOR_JSON_STRING, p + m->key_off, m->key_len, false};
            a->col = &s->col[i];
            n++;
        }
        int64_t num;
        bool parsed;
        if (!(p = match_literal(m, p, end)) ||
            !(p = kind_value(p, end, m->kind, needed ? &a->val : &ignored, false, &num, &parsed)))
            return NULL;
    }
    f->nargs = n;
    return match_tail(s, p, end);
}

/* The general walk of args; learns their shape into learn (if not NULL). */
static const char *walk_args(const char *p, const char *end, struct pfw_fields *f, struct pfw_shape *learn)
{
    const char *lit = p;
    bool more = true, closed, keep = learn != NULL;
    f->nargs = 0;
    for (p++; more;) {
        if (f->nargs == PFW_MAX_MEMBERS)
            return NULL;
        struct pfw_member *a = &f->args[f->nargs];
        enum pfw_field which;
        if (!(p = member_key(p, end, &a->key, &closed, false, &which)))
            return NULL;
        if (closed)
            break;
        int kind = kind_of(*p);
        keep = keep && learn_member(learn, f->nargs, lit, p + (kind == KIND_STRING), &a->key, PFW_EXTRA, kind);
        a->col = keep ? &learn->col[f->nargs] : NULL;
        int64_t num;
        bool parsed;
        if (!(p = value(p, end, &a->val, false, &num, &parsed)))
            return NULL;
        f->nargs++;
        lit = p;
        if (!(p = member_end(p, end, &more)))
            return NULL;
    }
    if (keep && !learn_tail(learn, f->nargs, lit, p))
        for (size_t i = 0; i < f->nargs; i++)
            f->args[i].col = NULL;
    return p;
}

/* Lists the members of the args object at p; returns the end of it. */
static const char *list_args(struct pfw_fast *fs, const char *p, const char *end, struct pfw_fields *f)
{
    struct pfw_shape *s = args_shape_for(fs, f, false);
    const char *e = s && s->used ? match_args(s, p, end, f) : NULL;
    if (!e) {
        if ((s = args_shape_for(fs, f, true)))
            s->used = false;
        e = walk_args(p, end, f, s);
    }
    f->args_listed = e != NULL;
    return e;
}

/* ---- lines ---- */

/* The token a member's value goes to: its fixed field, the next extra member
 * (with members), or nowhere. */
static inline struct spoor_json_tok *member_slot(struct pfw_fields *f, enum pfw_field which, bool members,
                                                 const char *key, size_t key_len, uint32_t *col,
                                                 struct spoor_json_tok *ignored)
{
    if (which != PFW_EXTRA)
        return &f->tok[which];
    if (!members || (col && *col == UINT32_MAX))
        return ignored;
    if (f->nextra == PFW_MAX_MEMBERS)
        return NULL;
    struct pfw_member *m = &f->extra[f->nextra++];
    m->key = (struct spoor_json_tok){SPOOR_JSON_STRING, key, key_len, false};
    m->col = col;
    return &m->val;
}

/* Reads a top-level value of kind at p into tok; returns its end or NULL. */
static inline __attribute__((always_inline)) const char *member_value(struct pfw_fast *fs, const char *p,
                                                                      const char *end, int kind,
                                                                      enum pfw_field which, bool members,
                                                                      struct pfw_fields *f,
                                                                      struct spoor_json_tok *tok)
{
    int64_t num = 0;
    bool parsed = false;
    if (which == PFW_ARGS && kind == KIND_OTHER && *p == '{') { /* walking args by their shape beats skipping them */
        const char *start = p;
        if (!(p = list_args(fs, p, end, f)))
            return NULL;
        *tok = (struct spoor_json_tok){SPOOR_JSON_OBJECT, start, (size_t)(p - start), false};
    } else {
        if (!(p = kind_value(p, end, kind, tok, which >= PFW_TS && which <= PFW_TID, &num, &parsed)))
            return NULL;
        if (which == PFW_ARGS)
            f->args_listed = false;
    }
    if (which != PFW_EXTRA) {
        unsigned bit = 1u << which;
        f->seen |= bit;
        f->num[which] = num;
        f->parsed = (f->parsed & ~bit) | (unsigned)parsed << which;
    }
    return p;
}

/* The line's '\n' after the object's end at p, or NULL. */
static inline const char *line_end(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == ',' || *p == ']'))
        p++;
    return p < end && *p == '\n' ? p : NULL;
}

/* The general walk of a line; learns its shape into learn. */
static const char *walk_line(struct pfw_fast *fs, const char *p, const char *end, bool members,
                             struct pfw_fields *f, struct pfw_shape *learn)
{
    const char *lit = p;
    learn->used = false;
    bool more = true, closed, keep = true;
    size_t n = 0;
    for (p++; more;) {
        struct spoor_json_tok key, ignored, *val;
        enum pfw_field which;
        if (!(p = member_key(p, end, &key, &closed, true, &which)))
            return NULL;
        if (closed)
            break;
        if (!(val = member_slot(f, which, members, key.p, key.n, NULL, &ignored)))
            return NULL;
        int kind = kind_of(*p);
        const char *value_start = p + (kind == KIND_STRING);
        keep = keep && learn_member(learn, n++, lit, value_start, &key, which, kind);
        if (!(p = member_value(fs, value_start, end, kind, which, members, f, val)))
            return NULL;
        lit = p;
        if (!(p = member_end(p, end, &more)))
            return NULL;
    }
    const char *nl = line_end(p, end);
    if (nl && keep)
        learn_tail(learn, n, lit, p);
    return nl;
}

/* Reads a line of a known shape; NULL when it is not of that shape. */
static const char *match_line(struct pfw_fast *fs, struct pfw_shape *s, const char *p, const char *end,
                              bool members, struct pfw_fields *f)
{
    for (size_t i = 0; i < s->n; i++) {
        const struct pfw_shape_member *m = &s->m[i];
        struct spoor_json_tok ignored, *val;
        enum pfw_field which = (enum pfw_field)m->field;
        if (!(val = member_slot(f, which, members, p + m->key_off, m->key_len, &s->col[i], &ignored)) ||
            !(p = match_literal(m, p, end)) || !(p = member_value(fs, p, end, m->kind, which, members, f, val)))
            return NULL;
    }
    p = match_tail(s, p, end);
    return p ? line_end(p, end) : NULL;
}

void pfw_fast_init(struct pfw_fast *fs)
{
    fs->nshapes = 0;
    for (size_t i = 0; i < PFW_SHAPES; i++) {
        fs->order[i] = (uint8_t)i;
        fs->hits[i] = 0;
    }
    for (size_t i = 0; i < PFW_ARGS_SHAPES; i++) {
        fs->args[i].used = false;
        fs->args[i].owner_n = 0;
    }
}

static void start_fields(struct pfw_fields *f)
{
    f->seen = f->parsed = 0;
    f->nextra = 0;
    f->args_listed = false;
}

const char *pfw_fast_line(struct pfw_fast *fs, const char *p, const char *end, bool members,
                          struct pfw_fields *f)
{
    if (*p != '{')
        return NULL;
    for (size_t i = 0; i < fs->nshapes; i++) {
        start_fields(f);
        uint8_t k = fs->order[i];
        const char *nl = match_line(fs, &fs->shape[k], p, end, members, f);
        if (nl) {
            /* the most used shapes are tried first */
            fs->hits[k]++;
            if (i > 0 && fs->hits[k] > fs->hits[fs->order[i - 1]]) {
                fs->order[i] = fs->order[i - 1];
                fs->order[i - 1] = k;
            }
            return nl;
        }
    }
    start_fields(f);
    struct pfw_shape learned;
    const char *nl = walk_line(fs, p, end, members, f, &learned);
    if (nl && learned.used) {
        /* a new shape takes a free place or the least used one's */
        size_t at = fs->nshapes < PFW_SHAPES ? fs->nshapes++ : PFW_SHAPES - 1;
        fs->shape[fs->order[at]] = learned;
        fs->hits[fs->order[at]] = 0;
    }
    return nl;
}

#else

void pfw_fast_init(struct pfw_fast *fs) { fs->nshapes = 0; }

const char *pfw_fast_line(struct pfw_fast *fs, const char *p, const char *end, bool members,
                          struct pfw_fields *f)
{
    (void)fs, (void)p, (void)end, (void)members, (void)f;
    return NULL;
}

#endif
