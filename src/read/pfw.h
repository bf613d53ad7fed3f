/* Private pieces of the pfw reader (Chrome trace events, one per line, as the
 * DFTracer and DataCrumbs writers emit them): the dialects and their detection
 * (pfw_detect.c), the chunk parser (pfw_parse.c), args to columns
 * (pfw_args.c) and metadata events to lookups (pfw_meta.c). */
#ifndef SPOOR_READ_PFW_H
#define SPOOR_READ_PFW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "read/json_scan.h"
#include "spoor/read.h"

/* What each writer does differently; see docs/formats.md. */
enum pfw_dialect_id {
    PFW_DFTRACER_2023,      /* every number quoted */
    PFW_DFTRACER_2024,      /* compact, numeric, hashes as integers */
    PFW_DFTRACER_2025,      /* ph as an integer, hhash as a hex string, aggregated events */
    PFW_DATACRUMBS_2024,    /* Python json.dumps spacing, dur in ns */
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
};

/* One line's members, as either tokenizer found them. */
enum pfw_field { PFW_NAME, PFW_CAT, PFW_PH, PFW_TS, PFW_DUR, PFW_PID, PFW_TID, PFW_ARGS, PFW_EXTRA };
enum { PFW_MAX_MEMBERS = 64 };

struct pfw_member {
    struct spoor_json_tok key, val;
};

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
enum { PFW_SHAPES = 4, PFW_SHAPE_MEMBERS = 16 };

struct pfw_shape_member {
    uint64_t lit[2], mask[2];       /* the bytes before the value, up to 16 */
    uint8_t len, key_off, key_len;  /* literal length; where the key is in it */
    uint8_t field;                  /* enum pfw_field */
    uint8_t kind;                   /* what the value is (pfw_fast.c) */
};

struct pfw_shape {
    struct pfw_shape_member m[PFW_SHAPE_MEMBERS];
    size_t n;
    uint64_t tail, tail_mask;       /* the bytes after the last value up to '}' */
    uint8_t tail_len;
};

struct pfw_fast {
    struct pfw_shape shape[PFW_SHAPES];
    uint8_t order[PFW_SHAPES];      /* shapes to try, most used first */
    uint64_t hits[PFW_SHAPES];
    size_t nshapes;
};

/* Reads the line at p ('{' first) to its '\n' and returns the position of
 * that '\n', or NULL when the line needs the tolerant scanner (escapes, raw
 * quotes, blanks in odd places, malformed input, the end of the buffer
 * near). Whatever it accepts, it reads exactly as the tolerant scanner
 * would. With members, the extra top-level members and the members of args
 * are listed too. fs is set up by pfw_fast_init for each chunk. */
void pfw_fast_init(struct pfw_fast *fs);
const char *pfw_fast_line(struct pfw_fast *fs, const char *p, const char *end, bool members,
                          struct pfw_fields *f);

int pfw_sniff(const char *head, size_t len);
int pfw_detect(const char *head, size_t len, const struct spoor_read_opts *opts, struct spoor_dialect *d,
               struct spoor_error *err);
int pfw_parse(struct spoor_parse_job *job, const char *buf, size_t len, struct spoor_error *err);

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

/* ---- args ---- */

/* A small direct-mapped cache from token bytes to an interned id, for
 * strings that repeat line after line (names, categories, arg keys). Entries
 * point into the chunk being parsed, so a cache lives for one parse call. */
enum { PFW_CACHE_SLOTS = 64 };
struct pfw_intern_cache {
    struct {
        const char *p;
        uint32_t n, id;
    } slot[PFW_CACHE_SLOTS];
};

uint32_t pfw_cache_intern(struct pfw_intern_cache *c, struct spoor_table *t, const struct spoor_json_tok *tok);

/* Which args become columns, resolved against one output table. */
struct pfw_args {
    enum spoor_args_mode mode;
    bool quoted_numbers;
    struct spoor_table *t;
    struct pfw_intern_cache keys;   /* ALL: key -> column name id */
    uint32_t *listed;               /* LISTED: column name id per opts->arg_keys */
    const char *const *listed_keys;
    size_t *listed_len;
    size_t nlisted;
};

void pfw_args_init(struct pfw_args *a, const struct spoor_read_opts *opts, bool quoted_numbers,
                   struct spoor_table *t);
void pfw_args_release(struct pfw_args *a);
/* The column name id for key, or UINT32_MAX when the mode drops it. */
uint32_t pfw_args_column(struct pfw_args *a, const struct spoor_json_tok *key);
/* Stores one member as column `name_id` of row `row`. Keys ending in "hash"
 * are always text, so they join the lookups by interned id. */
void pfw_args_set(struct pfw_args *a, uint32_t name_id, const struct spoor_json_tok *key,
                  const struct spoor_json_tok *val, size_t row);

/* ---- metadata ---- */

/* What a metadata event's args said, gathered while its args are read. */
struct pfw_meta {
    struct spoor_json_tok name, value, hash;
    bool has_name, has_value, has_hash;
};

/* Notes an args member if it is one a metadata event uses. */
void pfw_meta_note(struct pfw_meta *m, const struct spoor_json_tok *key, const struct spoor_json_tok *val);
/* Fills the lookup the event `event_name` defines (FH, HH, SH, PR,
 * process_name, thread_name); other metadata events fill none. */
void pfw_meta_apply(struct spoor_table *t, const struct spoor_json_tok *event_name, const struct pfw_meta *m,
                    int64_t pid, int64_t tid);

#endif
