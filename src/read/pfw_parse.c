/* The pfw chunk parser: one event per line into one row. A line cut short
 * by a raw newline in a string goes on in the next (spoor_json_line_joins);
 * in a JSON document rewritten by the io layer a line is an event, and the
 * lines of the document's own members become metadata rows.
 *
 * Each line is first offered to the fast tokenizer (pfw_fast.c), which reads
 * the usual well-formed line in one pass; anything else goes through the
 * tolerant scanner (json_scan.c). Both fill the same pfw_fields, from which
 * one function makes the row, so the two paths cannot disagree on meaning.
 * Names and categories go through a small cache of recent strings, and args
 * become columns only for the keys the args mode keeps (plus what metadata
 * events need). Nothing is allocated per line. A line that is not a usable event
 * is skipped with a reason; a partly written row is dropped. */
#include "read/pfw.h"
#include "io/input.h"
#include "spoor/write.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { DETAIL_MAX = 80 };

struct parser {
    struct spoor_table *t;
    const struct pfw_state *st;
    uint32_t src;
    struct pfw_args args;
    struct pfw_intern_cache names, cats;
    struct pfw_fast fast;
    uint64_t line;                  /* of the document members being read */
};

/* A fixed integer field the fast tokenizer did not read: quoted, a decimal,
 * too long, or from the tolerant path. */
static __attribute__((noinline)) bool fixed_int_text(const struct spoor_json_tok *v, int64_t mul, int64_t *out)
{
    if (v->kind == SPOOR_JSON_NULL)
        return true;
    if (v->kind != SPOOR_JSON_NUMBER && v->kind != SPOOR_JSON_STRING)
        return false;
    int64_t i;
    if (spoor_json_int64(v->p, v->n, &i))
        return !__builtin_mul_overflow(i, mul, out) && *out != SPOOR_NULL;
    double d;
    if (!spoor_json_double(v->p, v->n, &d))
        return false;
    d *= (double)mul;
    if (!(d > -9.2e18 && d < 9.2e18))
        return false;
    *out = llround(d);
    return true;
}

/* An integer field (quoted or not, or a decimal) times mul; absent or null
 * gives SPOOR_NULL. False when the value is not a number that fits. */
static inline bool fixed_int(const struct pfw_fields *f, enum pfw_field which, int64_t mul, int64_t *out)
{
    *out = SPOOR_NULL;
    unsigned bit = 1u << which;
    if (!(f->seen & bit))
        return true;
    if (!(f->parsed & bit))
        return fixed_int_text(&f->tok[which], mul, out);
    return !__builtin_mul_overflow(f->num[which], mul, out) && *out != SPOOR_NULL;
}

/* padded: the tokens come from the fast tokenizer (see pfw_cache_find). */
static void set_member(struct parser *ps, const struct pfw_member *m, size_t row, struct pfw_meta *meta,
                       bool padded)
{
    if (meta)
        pfw_meta_note(meta, &m->key, &m->val);
    uint32_t col;
    if (m->col && *m->col != PFW_COL_UNRESOLVED) {
        col = *m->col;
    } else {
        col = pfw_args_column(&ps->args, &m->key, padded);
        if (m->col) /* a dropped member the tokenizer need not list again */
            *m->col = col == UINT32_MAX && pfw_meta_key(&m->key) ? PFW_COL_META_ONLY : col;
    }
    if (col < PFW_COL_META_ONLY)
        pfw_args_set(&ps->args, col, &m->key, &m->val, row, padded);
}

/* Args into columns and metadata; false when args is malformed. */
static bool read_args(struct parser *ps, const struct pfw_fields *f, size_t row, struct pfw_meta *meta)
{
    if (f->args_listed) {
        for (size_t i = 0; i < f->nargs; i++)
            set_member(ps, &f->args[i], row, meta, true);
        return true;
    }
    const struct spoor_json_tok *args = &f->tok[PFW_ARGS];
    struct spoor_json_iter it;
    struct pfw_member m = {.col = NULL};
    spoor_json_iter_init(&it, args->p, args->p + args->n);
    int r;
    while ((r = spoor_json_next(&it, &m.key, &m.val)) == 1)
        set_member(ps, &m, row, meta, false);
    return r == 0;
}

/* Turns a line's members into a row; returns NULL or the skip reason. */
static const char *emit_row(struct parser *ps, const struct pfw_fields *f, uint64_t line, bool padded)
{
    const struct pfw_state *st = ps->st;
    int64_t ts, dur, pid, tid;
    if (!fixed_int(f, PFW_TS, st->ts_mul, &ts))
        return "invalid ts";
    if (!fixed_int(f, PFW_DUR, st->dur_mul, &dur))
        return "invalid dur";
    /* No dialect writes times before its epoch or calls that end before they
     * start: such a row would be summed as a negative time. */
    if (ts < 0 && ts != SPOOR_NULL)
        return "negative ts";
    if (dur < 0 && dur != SPOOR_NULL)
        return "negative dur";
    if (!fixed_int(f, PFW_PID, 1, &pid))
        return "invalid pid";
    if (!fixed_int(f, PFW_TID, 1, &tid))
        return "invalid tid";
    uint8_t ph = 0;
    if (f->seen & (1u << PFW_PH)) {
        ph = pfw_phase(&f->tok[PFW_PH]);
        if (!ph)
            return "unknown ph";
    }
    /* spoor's own counter samples (export --to perfetto) describe the run:
     * metadata rows, never calls. */
    if (ph == 'C' && (f->seen & (1u << PFW_CAT)) && pfw_tok_is(&f->tok[PFW_CAT], SPOOR_PERFETTO_COUNTER_CAT))
        ph = 'M';
    bool has_name = f->seen & (1u << PFW_NAME);
    if (!has_name && ph != 'E')
        return "missing name";
    if (st->swapped) {
        int64_t x = pid;
        pid = tid;
        tid = x;
    }

    struct spoor_table *t = ps->t;
    size_t row = spoor_table_add_row(t);
    t->ts[row] = ts;
    t->dur[row] = dur;
    t->pid[row] = pid;
    t->tid[row] = tid;
    t->ph[row] = ph;
    t->src[row] = ps->src;
    t->line[row] = line;
    t->name[row] = has_name ? pfw_cache_intern(&ps->names, t, &f->tok[PFW_NAME], padded) : 0;
    t->cat[row] = f->seen & (1u << PFW_CAT) ? pfw_cache_intern(&ps->cats, t, &f->tok[PFW_CAT], padded) : 0;

    bool is_meta = ph == 'M' && has_name;
    struct pfw_meta meta;
    if (is_meta) /* cleared only when used: this runs for every line */
        memset(&meta, 0, sizeof meta);
    if (f->seen & (1u << PFW_ARGS)) {
        const struct spoor_json_tok *args = &f->tok[PFW_ARGS];
        if (args->kind == SPOOR_JSON_OBJECT) {
            if ((ps->args.mode != SPOOR_ARGS_NONE || is_meta) && !read_args(ps, f, row, is_meta ? &meta : NULL)) {
                spoor_table_drop_last_row(t);
                return "malformed JSON";
            }
        } else if (args->kind != SPOOR_JSON_NULL) {
            /* not an object: kept whole as column "args" */
            struct pfw_member m = {{SPOOR_JSON_STRING, "args", 4, false}, *args, NULL};
            set_member(ps, &m, row, NULL, false);
        }
    }
    for (size_t i = 0; i < f->nextra; i++)
        set_member(ps, &f->extra[i], row, NULL, padded);
    if (is_meta)
        pfw_meta_apply(t, &f->tok[PFW_NAME], &meta, pid, tid, ps->src, line);
    return NULL;
}

/* The tolerant path for one line (without its '\n'): NULL or the skip reason. */
static const char *slow_line(struct parser *ps, const char *p, const char *end, uint64_t line,
                             struct pfw_fields *f)
{
    bool structural;
    p = pfw_line_start(p, end, &structural);
    if (structural)
        return NULL;
    if (*p != '{')
        return "not an object";
    f->seen = f->parsed = 0;
    f->nextra = 0;
    f->args_listed = false;
    bool keep_extra = ps->args.mode != SPOOR_ARGS_NONE;
    struct spoor_json_iter it;
    struct pfw_member m = {.col = NULL};
    spoor_json_iter_init(&it, p, end);
    int r;
    while ((r = spoor_json_next(&it, &m.key, &m.val)) == 1) {
        enum pfw_field which = pfw_field_of(m.key.p, m.key.n);
        if (which != PFW_EXTRA) {
            f->tok[which] = m.val;
            f->seen |= 1u << which;
        } else if (keep_extra) {
            if (f->nextra == PFW_MAX_MEMBERS)
                return "too many fields";
            f->extra[f->nextra++] = m;
        }
    }
    if (r < 0)
        return "malformed JSON";
    for (p = it.p; p < end; p++)
        if (*p != ' ' && *p != '\t' && *p != '\r' && *p != ',' && *p != ']')
            return "text after object";
    return emit_row(ps, f, line, false);
}

/* A member of the document around the events: a metadata row named by its
 * key, its value in args column "value". */
static void document_member(void *ctx, const struct spoor_json_tok *key, const struct spoor_json_tok *val)
{
    struct parser *ps = ctx;
    struct spoor_table *t = ps->t;
    size_t row = spoor_table_add_row(t);
    t->ts[row] = t->dur[row] = t->pid[row] = t->tid[row] = SPOOR_NULL;
    t->ph[row] = 'M';
    t->src[row] = ps->src;
    t->line[row] = ps->line;
    t->name[row] = pfw_intern_tok(t, key);
    t->cat[row] = 0;
    struct pfw_member m = {{SPOOR_JSON_STRING, "value", 5, false}, *val, NULL};
    set_member(ps, &m, row, NULL, false);
}

/* The end of the record whose first line ends at le: past the lines it
 * joins (a raw newline inside a string, see spoor_json_line_joins). */
static const char *record_end(const char *p, const char *le, const char *end, uint64_t *joined)
{
    while (le < end && spoor_json_line_joins(p, le, le + 1, end) == 1) {
        p = le + 1;
        le = memchr(p, '\n', (size_t)(end - p));
        if (!le)
            le = end;
        ++*joined;
    }
    return le;
}

int pfw_parse(struct spoor_parse_job *job, const char *buf, size_t len, struct spoor_error *err)
{
    /* ~70 KB of shapes, caches and one line's members: on the heap, once per chunk */
    struct parser *ps = spoor_xmalloc(sizeof *ps);
    struct pfw_fields *f = spoor_xmalloc(sizeof *f);
    ps->t = job->out;
    ps->st = job->dialect->state;
    ps->src = job->src;
    memset(&ps->names, 0, sizeof ps->names);
    memset(&ps->cats, 0, sizeof ps->cats);
    pfw_fast_init(&ps->fast);
    pfw_args_init(&ps->args, job->opts, ps->st->quoted_numbers, job->out);
    bool members = ps->args.mode != SPOOR_ARGS_NONE;
    /* in a document, a line is an event and counts as one; the document's
     * own members are metadata rows on the line of the next event */
    bool document = job->dialect->records == SPOOR_RECORDS_JSON_EVENTS;

    const char *p = buf, *end = buf + len;
    if (job->at_file_start && len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
        p += 3;
    uint64_t line = 0;
    int status = SPOOR_OK;
    while (p < end) {
        const char *reason;
        uint64_t joined = 0, at;
        if (document) { /* "},\n{" became "}\n {": the fast tokenizer wants '{' first */
            while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
                p++;
            if (p == end)
                break;
        }
        const char *le = pfw_fast_line(&ps->fast, p, end, members, f);
        if (le) {
            reason = emit_row(ps, f, ++line, true);
            at = line;
        } else {
            le = memchr(p, '\n', (size_t)(end - p));
            le = record_end(p, le ? le : end, end, &joined);
            if (document && pfw_document_member_line(p, le)) {
                ps->line = at = line + 1;
                reason = pfw_document_members(p, le, document_member, ps);
            } else {
                bool structural;
                pfw_line_start(p, le, &structural);
                if (!document || !structural)
                    line++;
                reason = slow_line(ps, p, le, at = line, f);
                if (!document)
                    line += joined;
            }
        }
        if (reason) {
            size_t n = (size_t)(le - p);
            size_t sampled = job->skips->nsamples;
            spoor_skips_add(job->skips, at, reason, p, n < DETAIL_MAX ? n : DETAIL_MAX);
            if (document && job->skips->nsamples > sampled)
                job->skips->sample[job->skips->nsamples - 1].byte = job->offset + (uint64_t)(p - buf) + 1;
            if (job->opts->strict) {
                status = spoor_fail(err, SPOOR_ESTRICT, "line %llu of the chunk: %s", (unsigned long long)at,
                                    reason);
                break;
            }
        }
        p = le < end ? le + 1 : end;
    }
    job->lines = line;
    pfw_args_release(&ps->args);
    free(f);
    free(ps);
    return status;
}
