/* The Python-logging reader: records a program wrote with logging's default
 * colon-separated prefix and a `k=v;k=v;...` message, before anyone converted
 * them to JSON lines:
 *
 *     2024-05-01 12:00:00,123:INFO:cascade.gateway:4711:action=taskPlanned;task=f(0, 1):ab;at=42
 *
 * The prefix (asctime, level, logger, pid) has colons of its own (the time),
 * while values may hold colons too (`f(0, 1):ab`): the message starts after the
 * last colon before the first '='. Each k=v pair is a field, mapped onto the
 * fixed columns like a JSON lines member (--ts, --name, ...); the prefix is not
 * kept. Values cannot hold ';'. */
#include "read/mapped_reader.h"
#include "read/json_scan.h"

#include <stdlib.h>
#include <string.h>

/* The message part of a line: after the last ':' before the first '=', with at
 * least four prefix separators before it. NULL when the line is no record. */
static const char *message_start(const char *line, const char *end)
{
    const char *eq = memchr(line, '=', (size_t)(end - line));
    if (!eq)
        return NULL;
    const char *msg = NULL;
    int colons = 0;
    for (const char *p = line; p < eq; p++)
        if (*p == ':') {
            colons++;
            msg = p + 1;
        }
    return colons >= 4 && msg < eq ? msg : NULL;
}

/* Next `k=v` pair of a message; false at its end. A pair without '=' is a key
 * with an empty value. */
static bool next_pair(const char **p, const char *end, const char **k, size_t *kn, const char **v, size_t *vn)
{
    while (*p < end && (**p == ';' || **p == ' '))
        (*p)++;
    if (*p >= end)
        return false;
    const char *semi = memchr(*p, ';', (size_t)(end - *p));
    const char *pair_end = semi ? semi : end;
    const char *eq = memchr(*p, '=', (size_t)(pair_end - *p));
    *k = *p;
    *kn = (size_t)((eq ? eq : pair_end) - *p);
    *v = eq ? eq + 1 : pair_end;
    *vn = (size_t)(pair_end - *v);
    *p = pair_end;
    return true;
}

/* The end of line [p, e) without a '\r' before its '\n'. */
static const char *cut_cr(const char *p, const char *e) { return e > p && e[-1] == '\r' ? e - 1 : e; }

static const char *line_end_of(const char *p, const char *end)
{
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    return cut_cr(p, nl ? nl : end);
}

/* Confident when most of the first non-empty lines are records (a log may
 * hold a traceback or another logger's message among them). */
static int pylog_sniff(const char *head, size_t len)
{
    const char *p = head + spoor_bom_len(head, len), *end = head + len;
    int records = 0, lines = 0;
    while (p < end && lines < 8) {
        const char *e = line_end_of(p, end);
        const char *next = e < end && *e == '\r' ? e + 2 : e + 1;
        if (e > p) {
            if (*p == '{' || *p == '[')
                return 0;
            records += message_start(p, e) != NULL;
            lines++;
        }
        p = next;
    }
    return records * 2 > lines ? 70 : 0;
}

static int pylog_detect(const char *head, size_t len, const struct spoor_read_opts *opts, struct spoor_dialect *d,
                        struct spoor_error *err)
{
    struct spoor_field_map *map = spoor_mapped_begin(d, &spoor_format_pylog, opts);
    struct spoor_head_fields head_fields = {0};
    const char *p = head + spoor_bom_len(head, len), *line, *line_end;
    while (spoor_head_line(&p, head + len, &head_fields, &line, &line_end)) {
        const char *e = line_end_of(line, line_end);
        const char *msg = message_start(line, e);
        if (!msg)
            continue;
        head_fields.records++;
        const char *k, *v;
        size_t kn, vn;
        while (next_pair(&msg, e, &k, &kn, &v, &vn))
            spoor_head_field(&head_fields, map, k, kn, v, vn, false);
    }
    return spoor_mapped_finish(&head_fields, d, opts, "log records", err);
}

/* A key's role and column, remembered by its position in the message (records
 * of one log list the same keys in the same order). */
enum { PYLOG_POSITIONS = 32 };
struct key_slot {
    const char *key;
    size_t len;
    unsigned roles;
    int col;
    struct spoor_string_memo memo;
};

struct pylog_parser {
    const struct spoor_field_map *map;
    struct spoor_table *t;
    uint32_t src;           /* the input the rows come from */
    struct key_slot at[PYLOG_POSITIONS];
    struct spoor_string_memo fixed_memo[SPOOR_FIXED_COUNT];
};

static struct key_slot *key_for(struct pylog_parser *pp, size_t position, const char *k, size_t kn,
                                struct key_slot *spare)
{
    struct key_slot *s = position < PYLOG_POSITIONS ? &pp->at[position] : spare;
    if (s->key && s->len == kn && memcmp(s->key, k, kn) == 0)
        return s;
    const struct spoor_field_map *map = pp->map;
    *s = (struct key_slot){.key = k, .len = kn, .col = -1};
    s->roles = spoor_field_map_roles(map, k, kn);
    if (spoor_field_map_keeps(map, k, kn, s->roles))
        s->col = (int)(spoor_table_column(pp->t, spoor_table_intern(pp->t, k, kn)) - pp->t->cols);
    return s;
}

/* A value's table form: integers and decimals as numbers, the rest as text. */
static void value_of(struct spoor_table *t, struct key_slot *s, const char *v, size_t vn, struct spoor_value *out)
{
    struct spoor_json_tok tok = {.kind = SPOOR_JSON_NUMBER, .p = v, .n = vn};
    int64_t i;
    double d;
    if (vn && spoor_json_int64(v, vn, &i))
        *out = (struct spoor_value){.type = SPOOR_I64, .i64 = i, .text = v, .text_len = vn};
    else if (vn && (v[0] == '-' || (v[0] >= '0' && v[0] <= '9')) && spoor_json_double(v, vn, &d))
        spoor_json_to_value(t, &tok, false, NULL, out);
    else
        *out = (struct spoor_value){.type = SPOOR_STR, .str = spoor_memo_intern(&s->memo, t, v, vn), .text = v,
                                    .text_len = vn};
}

static const char *add_row(struct pylog_parser *pp, const char *msg, const char *end, uint64_t line_no)
{
    struct spoor_table *t = pp->t;
    size_t row = spoor_table_add_row(t);
    t->src[row] = pp->src;
    t->line[row] = line_no;
    const char *k, *v;
    size_t kn, vn;
    /* Keys past PYLOG_POSITIONS share one slot, set up afresh for each key
     * (key NULL); not zeroed here, since its memo is kilobytes and rows many. */
    struct key_slot spare;
    spare.key = NULL;
    for (size_t position = 0; next_pair(&msg, end, &k, &kn, &v, &vn); position++) {
        if (kn == 0) {
            spoor_table_drop_last_row(t);
            return "empty key in k=v message";
        }
        struct key_slot *s = key_for(pp, position, k, kn, &spare);
        if (spoor_field_is_blank(v, vn))
            continue;
        for (unsigned roles = s->roles; roles; roles &= roles - 1) {
            enum spoor_fixed f = (enum spoor_fixed)__builtin_ctz(roles);
            const char *reason = spoor_field_map_set_fixed(pp->map, t, row, f, v, vn, &pp->fixed_memo[f]);
            if (reason) {
                spoor_table_drop_last_row(t);
                return reason;
            }
        }
        if (s->col >= 0) {
            struct spoor_value val;
            value_of(t, s, v, vn, &val);
            spoor_mapped_set(t, &t->cols[s->col], row, &val);
        }
    }
    spoor_field_map_set_phase(t, row);
    return NULL;
}

static const char *pylog_line(void *ctx, const char *line, const char **line_end, uint64_t line_no)
{
    struct pylog_parser *pp = ctx;
    *line_end = cut_cr(line, *line_end);
    if (spoor_field_is_blank(line, (size_t)(*line_end - line)))
        return NULL;
    const char *msg = message_start(line, *line_end);
    return msg ? add_row(pp, msg, *line_end, line_no) : "not a log record with a k=v message";
}

static int pylog_parse(struct spoor_parse_job *job, const char *buf, size_t len, struct spoor_error *err)
{
    struct pylog_parser pp = {.map = job->dialect->state, .t = job->out, .src = job->src};
    return spoor_mapped_lines(job, buf, len, pylog_line, &pp, err);
}

const struct spoor_format spoor_format_pylog = {
    .name = "pylog",
    .sniff = pylog_sniff,
    .detect = pylog_detect,
    .parse = pylog_parse,
    .release = spoor_mapped_release,
};
