/* Private pieces of the pfw reader (Chrome trace events, one per line, as the
 * DFTracer and DataCrumbs writers emit them): the dialects and their detection
 * (pfw_detect.c), the chunk parser (pfw_parse.c), args to columns
 * (pfw_args.c) and metadata events to lookups (pfw_meta.c). */
#ifndef SPOOR_READ_PFW_H
#define SPOOR_READ_PFW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "read/json_scan.h"
#include "spoor/load.h"
#include "util/bytes.h"

/* What each writer does differently; see docs/formats.md. */
enum pfw_dialect_id {
    PFW_DFTRACER_2023,      /* every number quoted */
    PFW_DFTRACER_2024,      /* compact, numeric, hashes as integers */
    PFW_DFTRACER_2025,      /* ph as an integer, hhash as a hex string, aggregated events */
    PFW_DATACRUMBS_2024,    /* Python json.dumps spacing, dur in ns */
    PFW_DATACRUMBS_2024_US, /* the same writer's October 2024 version: dur in µs, omitted when 0 */
    PFW_DATACRUMBS_PROFILE, /* the same writer's counter ("C") profile mode */
    PFW_DATACRUMBS_CPP,     /* C++ writer: pid and tid swapped, strings not escaped */
    PFW_CHROME,             /* any other Chrome trace events */
    PFW_DIALECTS
};

struct pfw_dialect_info {
    const char *name;
    enum spoor_unit ts_unit, dur_unit;
    bool pid_tid_swapped;
    bool quoted_numbers;    /* args like "ret":"3276800" are numbers */
    const char *why;        /* how it was recognised, for `assumed` */
};

extern const struct pfw_dialect_info pfw_dialects[PFW_DIALECTS];

/* Detected once per input; read-only while chunks are parsed. */
struct pfw_state {
    enum pfw_dialect_id id;
    int64_t ts_mul, dur_mul;        /* ns per unit */
    bool swapped, quoted_numbers;
    /* Labels only, revised as batches are reduced (pfw_detect.c): a
     * datacrumbs-2024 file whose head showed no counters may be a profile. */
    bool profile_unsure, dialect_given, ts_given, dur_given;
    uint64_t counters, complete;    /* C and X rows reduced so far */
};

/* ---- what durations in the head say about their unit (pfw_durs.c) ---- */

enum { PFW_DUR_SAMPLES = 512, PFW_DUR_MIN_SAMPLES = 8 };

struct pfw_durs {
    double known[PFW_DUR_SAMPLES];  /* dur as written of well-known calls (read, vfs_read, ...) */
    size_t nknown;
    int x_events, x_without_dur;
};

/* Notes one event of the head (phase letter, name, cat and dur tokens; a
 * token with p NULL is absent). */
void pfw_durs_note(struct pfw_durs *d, uint8_t phase, const struct spoor_json_tok *name,
                   const struct spoor_json_tok *cat, const struct spoor_json_tok *dur);
/* The DataCrumbs writer that wrote dur in µs: most X events lack dur (it
 * omitted a dur that rounded to 0 µs) and well-known calls last a few units. */
bool pfw_durs_in_us(struct pfw_durs *d);
/* One line on why dur cannot be in `unit` (well-known calls implausibly
 * short or long), into buf; false when they look right or were too few. */
bool pfw_durs_doubt(struct pfw_durs *d, enum spoor_unit unit, char *buf, size_t cap);

/* One line's members, as either tokenizer found them. */
enum pfw_field { PFW_NAME, PFW_CAT, PFW_PH, PFW_TS, PFW_DUR, PFW_PID, PFW_TID, PFW_ARGS, PFW_EXTRA };
enum { PFW_MAX_MEMBERS = 64 };

struct pfw_member {
    struct spoor_json_tok key, val;
    uint32_t *col;                  /* where the fast tokenizer remembers the key's column, or NULL */
};

/* Column hints besides a column's name id: not looked up yet; and no
 * column, but a metadata event may need the member. UINT32_MAX means the
 * member is not needed at all, so the fast tokenizer does not list it. */
#define PFW_COL_UNRESOLVED (UINT32_MAX - 1)
#define PFW_COL_META_ONLY (UINT32_MAX - 2)

struct pfw_fields {
    struct spoor_json_tok tok[PFW_EXTRA];
    int64_t num[PFW_EXTRA];         /* integer value of tok[f] when bit f of parsed is set */
    unsigned seen, parsed;          /* bit per enum pfw_field */
    struct pfw_member extra[PFW_MAX_MEMBERS]; /* other top-level keys ("id", "type", ...) */
    size_t nextra;
    struct pfw_member args[PFW_MAX_MEMBERS];  /* args members, when args_listed */
    size_t nargs;
    bool args_listed;
};

enum pfw_field pfw_field_of(const char *key, size_t n);

/* The fast tokenizer for the common, well-formed line (pfw_fast.c). It
 * learns the line shapes of a chunk (the exact bytes between values: keys,
 * separators, blanks) and matches later lines against them, so a line of a
 * known shape costs a few word compares plus its values. */
enum { PFW_SHAPES = 4, PFW_ARGS_SHAPES = 64, PFW_SHAPE_MEMBERS = 16 };

struct pfw_shape_member {
    uint64_t lit[2], mask[2];       /* the bytes before the value, up to 16 */
    uint8_t len, key_off, key_len;  /* literal length; where the key is in it */
    uint8_t field;                  /* enum pfw_field */
    uint8_t kind;                   /* what the value is (pfw_fast.c) */
};

/* The shape of a line, or of the args of one kind of event. */
struct pfw_shape {
    struct pfw_shape_member m[PFW_SHAPE_MEMBERS];
    uint32_t col[PFW_SHAPE_MEMBERS]; /* the column hint of each arg or extra key */
    size_t n;
    uint64_t tail, tail_mask;       /* the bytes after the last value to '}' */
    uint8_t tail_len;
    bool used;
    const char *owner;              /* args: the event name, in the chunk */
    size_t owner_n;                 /* 0 while the slot is free */
};

struct pfw_fast {
    struct pfw_shape shape[PFW_SHAPES];
    uint8_t order[PFW_SHAPES];      /* line shapes to try, most used first */
    uint64_t hits[PFW_SHAPES];
    size_t nshapes;
    struct pfw_shape args[PFW_ARGS_SHAPES]; /* by the event name's cache slot */
};

/* Sets up fs for a chunk: no shapes known yet. */
void pfw_fast_init(struct pfw_fast *fs);
/* Reads the line at p ('{' first) to its '\n' and returns the position of
 * that '\n', or NULL when the line needs the tolerant scanner (escapes, raw
 * quotes, blanks in odd places, malformed input, the end of the buffer
 * near). Whatever it accepts, it reads exactly as the tolerant scanner
 * would. The members of an args object are listed (f->args_listed); with
 * members, the extra top-level members too. */
const char *pfw_fast_line(struct pfw_fast *fs, const char *p, const char *end, bool members,
                          struct pfw_fields *f);

int pfw_sniff(const char *head, size_t len);
int pfw_detect(const char *head, size_t len, const struct spoor_read_opts *opts, struct spoor_dialect *d,
               struct spoor_error *err);
int pfw_parse(struct spoor_parse_job *job, const char *buf, size_t len, struct spoor_error *err);
void pfw_reduced(struct spoor_dialect *d, const struct spoor_table *batch);

/* Whether a token is exactly the text s (bytes as written, no unescaping). */
static inline bool pfw_tok_is(const struct spoor_json_tok *t, const char *s)
{
    size_t n = strlen(s);
    return t->n == n && memcmp(t->p, s, n) == 0;
}

/* Phase letter of a ph value: a one-letter string, or DFTracer's integer
 * phases (1 X complete, 2 C counter, 3 A aggregated, 4 M metadata). 0 when
 * the value is neither. */
uint8_t pfw_phase(const struct spoor_json_tok *ph);

/* A line's bytes past leading blanks and an opening '[', and whether the line
 * is structural only ('[', ']', ',' and blanks): no event, no skip. */
const char *pfw_line_start(const char *p, const char *end, bool *structural);

/* Interned text of any token: strings decoded (escapes, invalid UTF-8
 * replaced), other tokens as written. */
uint32_t pfw_intern_tok(struct spoor_table *t, const struct spoor_json_tok *tok);

/* ---- Chrome trace documents (pfw_document.c) ---- */

/* Whether the head is a JSON document of events (a whole-file array not
 * written one event per line, or an object with a "traceEvents" array)
 * rather than lines of events. */
bool pfw_document(const char *head, size_t len);
/* In a document rewritten by the io layer: whether the line holds the
 * document's own members (it starts with ',' or is its closing '}'). */
bool pfw_document_member_line(const char *p, const char *end);
/* Calls member() for each member of such a line; NULL, or the reason the
 * line is malformed. */
const char *pfw_document_members(const char *p, const char *end,
                                 void (*member)(void *ctx, const struct spoor_json_tok *key,
                                                const struct spoor_json_tok *val),
                                 void *ctx);

/* ---- args ---- */

/* A small direct-mapped cache from token bytes to an interned id, for
 * strings that repeat line after line (names, categories, arg keys). Each
 * entry keeps the first 16 bytes of its string, so a short string is
 * compared with two word compares; entries point into the chunk being
 * parsed, so a cache lives for one parse call. */
enum { PFW_CACHE_BITS = 8, PFW_CACHE_SLOTS = 1 << PFW_CACHE_BITS };
struct pfw_intern_cache {
    struct {
        uint64_t head[2];
        const char *p;
        uint32_t n, id;
    } slot[PFW_CACHE_SLOTS];
};

/* The slot of a token in a pfw_intern_cache: a cheap hash over the length
 * and the ends, which is where names differ. */
static inline unsigned pfw_cache_slot(const struct spoor_json_tok *tok)
{
    size_t n = tok->n;
    const unsigned char *p = (const unsigned char *)tok->p;
    uint32_t h = (uint32_t)n;
    if (n)
        h |= (uint32_t)p[0] << 8 | (uint32_t)p[n / 2] << 16 | (uint32_t)p[n - 1] << 24;
    if (n > 2)
        h ^= (uint32_t)p[1] * 0x01000193u ^ (uint32_t)p[n - 2] * 0x9E3779B1u;
    return (h * 0x9E3779B1u) >> (32 - PFW_CACHE_BITS);
}

/* padded: 16 bytes are readable from tok->p (the fast tokenizer's tokens). */
static inline bool pfw_cache_find(const struct pfw_intern_cache *c, const struct spoor_json_tok *tok, bool padded,
                                  uint32_t *id)
{
    size_t n = tok->n;
    unsigned h = pfw_cache_slot(tok);
    if (!c->slot[h].p || c->slot[h].n != n)
        return false;
    if (padded && n <= 16) {
        /* 16 bytes of 0xFF then 16 of 0: the 16 from ones + 16 - n mask the
         * first n bytes, whatever the byte order */
        static const unsigned char ones[32] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                               0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
        uint64_t w[2], mask[2];
        memcpy(w, tok->p, 16);
        memcpy(mask, ones + 16 - n, 16);
        if ((w[0] & mask[0]) != c->slot[h].head[0] || (w[1] & mask[1]) != c->slot[h].head[1])
            return false;
    } else if (!spoor_same_bytes(c->slot[h].p, tok->p, n)) {
        return false;
    }
    *id = c->slot[h].id;
    return true;
}
void pfw_cache_store(struct pfw_intern_cache *c, const struct spoor_json_tok *tok, uint32_t id);
/* A cache miss: the token interned into t and cached. */
uint32_t pfw_cache_miss(struct pfw_intern_cache *c, struct spoor_table *t, const struct spoor_json_tok *tok);
/* The cached id, or the token interned and cached (inline: it runs for
 * several tokens of every line). */
static inline uint32_t pfw_cache_intern(struct pfw_intern_cache *c, struct spoor_table *t,
                                        const struct spoor_json_tok *tok, bool padded)
{
    uint32_t id;
    return pfw_cache_find(c, tok, padded, &id) ? id : pfw_cache_miss(c, t, tok);
}

/* Which args become columns, resolved against one output table. */
struct pfw_args {
    enum spoor_args_mode mode;
    bool quoted_numbers;
    struct spoor_table *t;
    struct pfw_intern_cache keys;   /* key -> column name id (UINT32_MAX: not kept) */
    struct pfw_intern_cache values; /* text values (paths, hashes) -> interned id */
    uint32_t *listed;               /* LISTED: column name id per opts->arg_keys */
    const char *const *listed_keys;
    size_t *listed_len;
    size_t nlisted;
};

void pfw_args_init(struct pfw_args *a, const struct spoor_read_opts *opts, bool quoted_numbers,
                   struct spoor_table *t);
void pfw_args_release(struct pfw_args *a);
/* The column name id for key, or UINT32_MAX when the mode drops it. padded
 * as for pfw_cache_find, for key and value. */
uint32_t pfw_args_column(struct pfw_args *a, const struct spoor_json_tok *key, bool padded);
/* Stores one member as column `name_id` of row `row`. Keys ending in "hash"
 * are always text, so they join the lookups by interned id. */
void pfw_args_set(struct pfw_args *a, uint32_t name_id, const struct spoor_json_tok *key,
                  const struct spoor_json_tok *val, size_t row, bool padded);

/* ---- metadata ---- */

/* What a metadata event's args said, gathered while its args are read. */
struct pfw_meta {
    struct spoor_json_tok name, value, hash;
    bool has_name, has_value, has_hash;
};

/* Whether a metadata event may read args member key (name, value, hash). */
bool pfw_meta_key(const struct spoor_json_tok *key);
/* Notes an args member if it is one a metadata event uses. */
void pfw_meta_note(struct pfw_meta *m, const struct spoor_json_tok *key, const struct spoor_json_tok *val);
/* Fills the lookup the event `event_name` defines (FH, HH, SH, PR,
 * process_name, thread_name) as input src's definition at line; other
 * metadata events fill none. */
void pfw_meta_apply(struct spoor_table *t, const struct spoor_json_tok *event_name, const struct pfw_meta *m,
                    int64_t pid, int64_t tid, uint32_t src, uint64_t line);

#endif
