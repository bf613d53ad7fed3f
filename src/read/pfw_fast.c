/* The fast tokenizer for well-formed trace lines.
 *
 * Almost every line a tracer writes is strict, escape-free JSON with the same
 * few shapes. This reads such a line 16 bytes at a time: SSE2 compares find
 * the quotes that end strings, SWAR arithmetic reads integers eight digits at
 * a step, and a quote-aware bracket matcher skips nested objects (args)
 * without visiting their members. It never needs the line end first: it
 * reads up to the '\n' after the object.
 *
 * Anything unusual (a backslash, a raw quote, blanks other than json.dumps'
 * single spaces, a newline inside a value, NaN, malformed text, the last 32
 * bytes of the buffer) makes it give up, and the tolerant scanner in
 * json_scan.c reads the line instead. What it accepts it reads exactly as that
 * scanner would; the pfw fuzz target checks the two agree. */
#include "read/pfw.h"

#include <string.h>

#ifdef __SSE2__
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

/* Eight ASCII digits, first digit in the lowest byte, already less '0'. */
static inline uint64_t swar8(uint64_t a)
{
    a = (a * 10 + (a >> 8)) & 0x00FF00FF00FF00FFULL;
    a = (a * 100 + (a >> 16)) & 0x0000FFFF0000FFFFULL;
    return (a * 10000 + (a >> 32)) & 0xFFFFFFFFULL;
}

static const uint64_t pow10[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};

static inline bool is_number_char(char c)
{
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

/* A number at p (a digit or '-'); *parsed when it is a plain integer of at
 * most 18 digits, with its value in *value. Returns the end of the number. */
static inline __attribute__((always_inline)) const char *number(const char *p, const char *end, int64_t *value,
                                                                bool *parsed)
{
    bool neg = *p == '-';
    const char *d = p + neg;
    uint64_t v = 0;
    int digits = 0;
    while (end - d >= 8) {
        uint64_t w;
        memcpy(&w, d, 8);
        uint64_t a = w - 0x3030303030303030ULL;
        uint64_t not_digit = (a | (w + 0x4646464646464646ULL)) & 0x8080808080808080ULL;
        int k = not_digit ? __builtin_ctzll(not_digit) / 8 : 8;
        if (k)
            v = v * pow10[k] + swar8(a << (8 * (8 - k)));
        digits += k;
        d += k;
        if (k < 8 || digits > 18)
            break;
    }
    while (d < end && *d >= '0' && *d <= '9' && digits <= 18) {
        v = v * 10 + (uint64_t)(*d - '0');
        digits++;
        d++;
    }
    const char *e = d;
    while (e < end && is_number_char(*e))
        e++;
    *parsed = e == d && digits > 0 && digits <= 18;
    *value = neg ? -(int64_t)v : (int64_t)v;
    return e;
}

static inline unsigned prefix_xor16(unsigned q)
{
    q ^= q << 1;
    q ^= q << 2;
    q ^= q << 4;
    q ^= q << 8;
    return q & 0xFFFF;
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
        unsigned inside = prefix_xor16(quote) ^ (in_string ? 0xFFFF : 0);
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
                                                               struct spoor_json_tok *tok, int64_t *num,
                                                               bool *parsed)
{
    if (end - p < 8)
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
        const char *e = number(p, end, num, parsed);
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
    if (end - p < GUARD)
        return NULL;
    while (*p == ' ')
        p++;
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
    if (!n && (!(q = string_end(p + 1, end)) || q[1] != ':'))
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

/* Lists the members of the args object at p; returns the end of it. */
static const char *list_args(const char *p, const char *end, struct pfw_fields *f)
{
    f->nargs = 0;
    bool more = true, closed;
    for (p++; more;) {
        if (f->nargs == PFW_MAX_MEMBERS)
            return NULL;
        struct pfw_member *m = &f->args[f->nargs];
        enum pfw_field which;
        if (!(p = member_key(p, end, &m->key, &closed, false, &which)))
            return NULL;
        if (closed)
            break;
        int64_t num;
        bool parsed;
        if (!(p = value(p, end, &m->val, &num, &parsed)) || !(p = member_end(p, end, &more)))
            return NULL;
        f->nargs++;
    }
    f->args_listed = true;
    return p;
}

/* Value kinds of a shape member. */
enum { KIND_STRING, KIND_NUMBER, KIND_OTHER };

/* The token a member's value goes to: its fixed field, the next extra member
 * (with members), or nowhere. */
static inline struct spoor_json_tok *member_slot(struct pfw_fields *f, enum pfw_field which, bool members,
                                                 const char *key, size_t key_len, struct spoor_json_tok *ignored)
{
    if (which != PFW_EXTRA)
        return &f->tok[which];
    if (!members)
        return ignored;
    if (f->nextra == PFW_MAX_MEMBERS)
        return NULL;
    struct pfw_member *m = &f->extra[f->nextra++];
    m->key = (struct spoor_json_tok){SPOOR_JSON_STRING, key, key_len, false};
    return &m->val;
}

/* Reads the value at p of kind into tok; returns its end or NULL. */
static inline __attribute__((always_inline)) const char *member_value(const char *p, const char *end, int kind,
                                                                      enum pfw_field which, bool members,
                                                                      struct pfw_fields *f,
                                                                      struct spoor_json_tok *tok)
{
    int64_t num = 0;
    bool parsed = false;
    if (which == PFW_ARGS && members && *p == '{') {
        const char *start = p;
        if (!(p = list_args(p, end, f)))
            return NULL;
        *tok = (struct spoor_json_tok){SPOOR_JSON_OBJECT, start, (size_t)(p - start), false};
    } else {
        if (kind == KIND_STRING) {
            const char *q = string_end(p, end);
            if (!q)
                return NULL;
            *tok = (struct spoor_json_tok){SPOOR_JSON_STRING, p, (size_t)(q - p), false};
            p = q + 1;
        } else if (!(p = value(p, end, tok, &num, &parsed))) {
            return NULL;
        }
        if (which == PFW_ARGS)
            f->args_listed = false;
    }
    if (which != PFW_EXTRA) {
        unsigned bit = 1u << which;
        f->seen |= bit;
        f->num[which] = num;
        f->parsed = parsed ? f->parsed | bit : f->parsed & ~bit;
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

/* The general walk; with learn, also records the line's shape (learn->n = 0
 * when the line has no shape worth keeping). */
static const char *walk_line(const char *p, const char *end, bool members, struct pfw_fields *f,
                             struct pfw_shape *learn)
{
    const char *lit = p;
    learn->n = 0;
    bool more = true, closed, keep = true;
    size_t n = 0;
    for (p++; more;) {
        struct spoor_json_tok key, ignored, *val;
        enum pfw_field which;
        if (!(p = member_key(p, end, &key, &closed, true, &which)))
            return NULL;
        if (closed)
            break;
        if (!(val = member_slot(f, which, members, key.p, key.n, &ignored)))
            return NULL;
        int kind = *p == '"' ? KIND_STRING : *p == '-' || (unsigned)(*p - '0') < 10 ? KIND_NUMBER : KIND_OTHER;
        const char *value_start = p + (kind == KIND_STRING);
        if (kind == KIND_STRING && end - p < 8)
            return NULL;
        if (n < PFW_SHAPE_MEMBERS && value_start - lit <= 16 && key.p - lit < 256 && key.n < 256) {
            struct pfw_shape_member *m = &learn->m[n];
            set_literal(m->lit, m->mask, lit, (size_t)(value_start - lit));
            m->len = (uint8_t)(value_start - lit);
            m->key_off = (uint8_t)(key.p - lit);
            m->key_len = (uint8_t)key.n;
            m->field = (uint8_t)which;
            m->kind = (uint8_t)kind;
        } else {
            keep = false;
        }
        n++;
        if (!(p = member_value(value_start, end, kind, which, members, f, val)))
            return NULL;
        lit = p;
        if (!(p = member_end(p, end, &more)))
            return NULL;
    }
    const char *nl = line_end(p, end);
    if (nl && keep && p - lit <= 8) {
        learn->n = n;
        uint64_t tail[2], mask[2];
        set_literal(tail, mask, lit, (size_t)(p - lit));
        learn->tail = tail[0];
        learn->tail_mask = mask[0];
        learn->tail_len = (uint8_t)(p - lit);
    }
    return nl;
}

/* Reads a line of a known shape; NULL when it is not of that shape. */
static const char *match_shape(const struct pfw_shape *s, const char *p, const char *end, bool members,
                               struct pfw_fields *f)
{
    for (size_t i = 0; i < s->n; i++) {
        const struct pfw_shape_member *m = &s->m[i];
        if (end - p < 48 || !literal_matches(p, m->lit, m->mask))
            return NULL;
        struct spoor_json_tok ignored, *val;
        enum pfw_field which = (enum pfw_field)m->field;
        if (!(val = member_slot(f, which, members, p + m->key_off, m->key_len, &ignored)))
            return NULL;
        p += m->len;
        if (m->kind == KIND_NUMBER && *p != '-' && (unsigned)(*p - '0') >= 10)
            return NULL;
        if (!(p = member_value(p, end, m->kind, which, members, f, val)))
            return NULL;
    }
    uint64_t w;
    if (end - p < 8)
        return NULL;
    memcpy(&w, p, 8);
    if ((w ^ s->tail) & s->tail_mask)
        return NULL;
    return line_end(p + s->tail_len, end);
}

void pfw_fast_init(struct pfw_fast *fs)
{
    fs->nshapes = 0;
    for (size_t i = 0; i < PFW_SHAPES; i++) {
        fs->order[i] = (uint8_t)i;
        fs->hits[i] = 0;
    }
}

const char *pfw_fast_line(struct pfw_fast *fs, const char *p, const char *end, bool members,
                          struct pfw_fields *f)
{
    if (*p != '{')
        return NULL;
    for (size_t i = 0; i < fs->nshapes; i++) {
        f->seen = f->parsed = 0;
        f->nextra = 0;
        f->args_listed = false;
        const char *nl = match_shape(&fs->shape[fs->order[i]], p, end, members, f);
        if (nl) {
            /* the most used shapes are tried first */
            uint8_t k = fs->order[i];
            fs->hits[k]++;
            if (i > 0 && fs->hits[k] > fs->hits[fs->order[i - 1]]) {
                fs->order[i] = fs->order[i - 1];
                fs->order[i - 1] = k;
            }
            return nl;
        }
    }
    f->seen = f->parsed = 0;
    f->nextra = 0;
    f->args_listed = false;
    struct pfw_shape learned;
    const char *nl = walk_line(p, end, members, f, &learned);
    if (nl && learned.n) {
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
