/* What the generic readers (jsonl, csv) share: which input field fills each
 * fixed column of the event table, which fields also become dynamic columns,
 * how the time unit is guessed, and how a field's text becomes a fixed value. */
#ifndef SPOOR_READ_FIELD_MAP_H
#define SPOOR_READ_FIELD_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/load.h"
#include "util/bytes.h"

#include <string.h>

enum spoor_fixed { SPOOR_FIXED_TS, SPOOR_FIXED_DUR, SPOOR_FIXED_NAME, SPOOR_FIXED_CAT,
                   SPOOR_FIXED_PID, SPOOR_FIXED_TID, SPOOR_FIXED_COUNT };

/* The resolved mapping; lives in a reader's dialect state. */
struct spoor_field_map {
    char *field[SPOOR_FIXED_COUNT];    /* input field per fixed column (owned) */
    bool named[SPOOR_FIXED_COUNT];     /* given by the user, not the default */
    const char *option[SPOOR_FIXED_COUNT]; /* the option naming the field, without "--" */
    const char *ts_unit_option;        /* likewise for ts_unit */
    int64_t ts_unit_ns, dur_unit_ns;   /* for numeric times */
    enum spoor_args_mode args;
    bool exclusive;                    /* opts->fields_exclusive */
    char **arg_keys;                   /* SPOOR_ARGS_LISTED (owned) */
    size_t n_arg_keys;
};

void spoor_field_map_init(struct spoor_field_map *m, const struct spoor_read_opts *opts);
void spoor_field_map_release(struct spoor_field_map *m);

/* The fixed name of a column ("ts", "dur", ...). */
const char *spoor_fixed_name(enum spoor_fixed f);

/* Bit (1 << f) for every fixed column f that the field `name` fills. */
unsigned spoor_field_map_roles(const struct spoor_field_map *m, const char *name, size_t len);
/* Whether the field also becomes a dynamic column: the args mode allows it and it
 * is not simply the fixed column of the same name (a field "at" mapped to ts is
 * kept as column "at"; a field "ts" filling ts is not repeated). */
bool spoor_field_map_keeps(const struct spoor_field_map *m, const char *name, size_t len, unsigned roles);

/* Head statistics of the ts field for guessing its unit. */
struct spoor_unit_guess {
    size_t numeric, iso, other;
    double max_abs;
    bool fractional;
};

void spoor_unit_guess_add(struct spoor_unit_guess *g, const char *text, size_t len);
/* Settles the units in m and d (the user's units or guesses from g) and appends
 * one sentence per assumption to d->assumed. `present` has bit (1 << f) for
 * each fixed column whose field the head holds. */
void spoor_field_map_settle_units(struct spoor_field_map *m, const struct spoor_read_opts *opts,
                                  const struct spoor_unit_guess *g, unsigned present, struct spoor_dialect *d);

/* What a generic reader's detection learns from the head's records: the fixed
 * columns whose fields occur, and the ts values for the unit guess. */
struct spoor_head_fields {
    struct spoor_unit_guess guess;
    unsigned seen;
    size_t records;
};

/* The head's next line at *p: [*line, *line_end) without its '\n'; *p moves
 * past it. False at the end, and for a last line cut short by the head when a
 * record came before it (only then is a partial line all there is to use). */
static inline bool spoor_head_line(const char **p, const char *end, const struct spoor_head_fields *h,
                                   const char **line, const char **line_end)
{
    if (*p >= end)
        return false;
    const char *nl = memchr(*p, '\n', (size_t)(end - *p));
    if (!nl && h->records)
        return false;
    *line = *p;
    *line_end = nl ? nl : end;
    *p = nl ? nl + 1 : end;
    return true;
}

/* Notes one field of a head record (value: its text; null_value: JSON null). */
void spoor_head_field(struct spoor_head_fields *h, const struct spoor_field_map *m, const char *key, size_t key_len,
                      const char *value, size_t value_len, bool null_value);
/* Ends detection: a field the user named that no head record holds is a usage
 * error ("no field 'at' (--ts) in the first N <records>"); otherwise the units
 * are settled as spoor_field_map_settle_units does. */
int spoor_head_finish(const struct spoor_head_fields *h, struct spoor_field_map *m, const struct spoor_read_opts *opts,
                      struct spoor_dialect *d, const char *records, struct spoor_error *err);

/* Recent strings a field held and their ids, one per way. Consecutive rows often
 * repeat a category, a stage or a host among a handful of values, and
 * comparing bytes is cheaper than interning. A string's way is picked from its
 * length and last 8 bytes, so each value mostly keeps its own slot. The
 * remembered bytes must stay unchanged for the whole chunk (text in the chunk
 * itself, not in a scratch buffer). */
enum { SPOOR_MEMO_WAYS = 256 }; /* a few dozen hosts or nodes taking turns fit */
struct spoor_string_memo {
    struct {
        const char *p;
        uint64_t tail;      /* spoor_memo_tail of the string */
        uint32_t n;
        uint32_t id;
    } way[SPOOR_MEMO_WAYS];
};

static inline uint32_t spoor_memo_le32(const char *p)
{
    const unsigned char *u = (const unsigned char *)p;
    return (uint32_t)u[0] | (uint32_t)u[1] << 8 | (uint32_t)u[2] << 16 | (uint32_t)u[3] << 24;
}

/* The last (up to) 8 bytes of p[0..n) as one word, the first byte lowest: the
 * whole string when it is that short, so comparing words compares strings. */
static inline uint64_t spoor_memo_tail(const char *p, size_t n)
{
    if (n >= 8)
        return spoor_memo_le32(p + n - 8) | (uint64_t)spoor_memo_le32(p + n - 4) << 32;
    if (n >= 4) /* two overlapping words; the shared bytes are equal */
        return spoor_memo_le32(p) | (uint64_t)spoor_memo_le32(p + n - 4) << (8 * (n - 4));
    uint64_t t = 0;
    for (size_t i = 0; i < n; i++)
        t |= (uint64_t)(unsigned char)p[i] << (8 * i);
    return t;
}

/* Where a string would sit in a memo: its way and its tail. */
struct spoor_memo_key {
    size_t way;
    uint64_t tail;
};

static inline struct spoor_memo_key spoor_memo_key(const char *p, size_t n)
{
    uint64_t tail = spoor_memo_tail(p, n);
    return (struct spoor_memo_key){(size_t)(((tail ^ n) * 0x9e3779b97f4a7c15ull) >> 56), tail}; /* 8 bits: 256 ways */
}

/* Whether the key's way holds p[0..n) (n at most UINT32_MAX). */
static inline bool spoor_memo_hit(const struct spoor_string_memo *m, struct spoor_memo_key k, const char *p, size_t n)
{
    return m->way[k.way].p && m->way[k.way].n == n && m->way[k.way].tail == k.tail &&
           (n <= 8 || spoor_same_bytes(m->way[k.way].p, p, n - 8));
}

static inline uint32_t spoor_memo_intern(struct spoor_string_memo *m, struct spoor_table *t, const char *p, size_t n)
{
    if (n > UINT32_MAX)
        return spoor_table_intern(t, p, n);
    struct spoor_memo_key k = spoor_memo_key(p, n);
    if (spoor_memo_hit(m, k, p, n))
        return m->way[k.way].id;
    m->way[k.way].p = p;
    m->way[k.way].tail = k.tail;
    m->way[k.way].n = (uint32_t)n;
    return m->way[k.way].id = spoor_table_intern(t, p, n);
}

/* Stores a field's text into fixed column f of row `row`. Returns NULL, or a
 * static skip reason when the text cannot fill that column (the row must then
 * be dropped). Absent values are never passed: they leave the column absent.
 * memo (may be NULL) speeds up interning names and categories. */
const char *spoor_field_map_set_fixed(const struct spoor_field_map *m, struct spoor_table *t, size_t row,
                                      enum spoor_fixed f, const char *text, size_t len,
                                      struct spoor_string_memo *memo);

/* Length of a UTF-8 byte order mark at p (0 or 3). */
size_t spoor_bom_len(const char *p, size_t len);
/* Narrows p/n to the text between leading and trailing spaces and tabs. */
void spoor_field_trim(const char **p, size_t *n);
/* Whether p holds only spaces and tabs (or nothing): an absent value. */
bool spoor_field_is_blank(const char *p, size_t n);

/* Sets the row's phase once its fixed columns are filled: 'X' (complete event)
 * when it has a duration, 'i' (instant) otherwise. */
void spoor_field_map_set_phase(struct spoor_table *t, size_t row);

/* Appends a formatted sentence to d->assumed, separated by "; ". */
void spoor_dialect_assume(struct spoor_dialect *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Appends the skip to job->skips; returns SPOOR_ESTRICT (with err set) when
 * opts->strict asks to stop there, else SPOOR_OK. */
int spoor_generic_skip(struct spoor_parse_job *job, uint64_t line, const char *reason, const char *text,
                       size_t len, struct spoor_error *err);

#endif
