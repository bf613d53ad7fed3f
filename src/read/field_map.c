/* The field mapping of the generic readers: user-named input fields fill the
 * fixed columns, everything else becomes a dynamic column, and times in text
 * become nanoseconds in a unit the user gave or one guessed from the head. */
#include "read/field_map.h"
#include "read/time_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const fixed_names[SPOOR_FIXED_COUNT] = {"ts", "dur", "name", "cat", "pid", "tid"};

const char *spoor_fixed_name(enum spoor_fixed f) { return fixed_names[f]; }

void spoor_field_map_init(struct spoor_field_map *m, const struct spoor_read_opts *opts)
{
    memset(m, 0, sizeof *m);
    const char *given[SPOOR_FIXED_COUNT] = {opts->field_ts,  opts->field_dur, opts->field_name,
                                            opts->field_cat, opts->field_pid, opts->field_tid};
    for (int f = 0; f < SPOOR_FIXED_COUNT; f++) {
        m->named[f] = given[f] != NULL;
        m->option[f] = opts->field_option[f] ? opts->field_option[f] : fixed_names[f];
        if (given[f] || !opts->fields_exclusive)
            m->field[f] = spoor_xstrdup(given[f] ? given[f] : fixed_names[f]);
    }
    m->ts_unit_option = opts->ts_unit_option ? opts->ts_unit_option : "ts-unit";
    m->ts_unit_ns = m->dur_unit_ns = 1;
    m->args = opts->args;
    m->exclusive = opts->fields_exclusive;
    if (opts->args == SPOOR_ARGS_LISTED) {
        m->n_arg_keys = opts->n_arg_keys;
        m->arg_keys = spoor_xcalloc(opts->n_arg_keys ? opts->n_arg_keys : 1, sizeof *m->arg_keys);
        for (size_t i = 0; i < opts->n_arg_keys; i++)
            m->arg_keys[i] = spoor_xstrdup(opts->arg_keys[i]);
    }
}

void spoor_field_map_release(struct spoor_field_map *m)
{
    for (int f = 0; f < SPOOR_FIXED_COUNT; f++)
        free(m->field[f]);
    for (size_t i = 0; i < m->n_arg_keys; i++)
        free(m->arg_keys[i]);
    free(m->arg_keys);
    memset(m, 0, sizeof *m);
}

/* Whether the NUL-terminated a equals the len bytes at b (which may hold NULs). */
static bool same(const char *a, const char *b, size_t len) { return strnlen(a, len + 1) == len && memcmp(a, b, len) == 0; }

unsigned spoor_field_map_roles(const struct spoor_field_map *m, const char *name, size_t len)
{
    unsigned roles = 0;
    for (int f = 0; f < SPOOR_FIXED_COUNT; f++)
        if (m->field[f] && same(m->field[f], name, len))
            roles |= 1u << f;
    return roles;
}

bool spoor_field_map_keeps(const struct spoor_field_map *m, const char *name, size_t len, unsigned roles)
{
    if (m->args == SPOOR_ARGS_NONE || (m->exclusive && roles))
        return false;
    if (m->args == SPOOR_ARGS_LISTED) {
        bool listed = false;
        for (size_t i = 0; i < m->n_arg_keys && !listed; i++)
            listed = same(m->arg_keys[i], name, len);
        if (!listed)
            return false;
    }
    for (int f = 0; f < SPOOR_FIXED_COUNT; f++)
        if ((roles & (1u << f)) && same(fixed_names[f], name, len))
            return false;
    return true;
}

void spoor_field_trim(const char **p, size_t *n)
{
    while (*n && (**p == ' ' || **p == '\t')) {
        (*p)++;
        (*n)--;
    }
    while (*n && ((*p)[*n - 1] == ' ' || (*p)[*n - 1] == '\t'))
        (*n)--;
}

void spoor_unit_guess_add(struct spoor_unit_guess *g, const char *text, size_t len)
{
    spoor_field_trim(&text, &len);
    int64_t ns;
    char buf[64];
    if (len < sizeof buf && spoor_time_parse_decimal(text, len, 1, &ns)) {
        memcpy(buf, text, len);
        buf[len] = '\0';
        double v = strtod(buf, NULL);
        v = v < 0 ? -v : v;
        if (v > g->max_abs)
            g->max_abs = v;
        g->numeric++;
    } else if (spoor_time_parse_iso(text, len, &ns)) {
        g->iso++;
    } else {
        g->other++;
    }
}

void spoor_dialect_assume(struct spoor_dialect *d, const char *fmt, ...)
{
    size_t used = strlen(d->assumed);
    if (used && used + 2 < sizeof d->assumed) {
        memcpy(d->assumed + used, "; ", 3);
        used += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->assumed + used, sizeof d->assumed - used, fmt, ap);
    va_end(ap);
}

/* Epoch times of this century: seconds ~1.7e9, ms ~1.7e12, us ~1.7e15, ns ~1.7e18.
 * The cut points lie between those; smaller values (relative times) count as seconds. */
static enum spoor_unit unit_from_magnitude(double max_abs)
{
    if (max_abs >= 1e17)
        return SPOOR_UNIT_NS;
    if (max_abs >= 1e14)
        return SPOOR_UNIT_US;
    if (max_abs >= 1e11)
        return SPOOR_UNIT_MS;
    return SPOOR_UNIT_S;
}

void spoor_field_map_settle_units(struct spoor_field_map *m, const struct spoor_read_opts *opts,
                                  const struct spoor_unit_guess *g, unsigned present, struct spoor_dialect *d)
{
    const char *ts = m->field[SPOOR_FIXED_TS] ? m->field[SPOOR_FIXED_TS] : "ts";
    enum spoor_unit ts_unit = opts->ts_unit;
    if (ts_unit == SPOOR_UNIT_AUTO) {
        ts_unit = g->numeric ? unit_from_magnitude(g->max_abs) : SPOOR_UNIT_NS;
        if (g->numeric)
            spoor_dialect_assume(d, "ts field '%s' in %s (guessed from values up to %.3g%s; use --%s)", ts,
                                 spoor_unit_name(ts_unit), g->max_abs,
                                 g->max_abs < 1e8 ? ", not epoch times" : "", m->ts_unit_option);
        else if (g->iso)
            spoor_dialect_assume(d, "ts field '%s' holds ISO-8601 times (UTC unless they name an offset)", ts);
        else if (present & (1u << SPOOR_FIXED_TS))
            spoor_dialect_assume(d, "no ts values in field '%s'", ts);
        else
            spoor_dialect_assume(d, "no field '%s', so no ts (use --%s FIELD)", ts, m->option[SPOOR_FIXED_TS]);
    }
    enum spoor_unit dur_unit = opts->dur_unit;
    if (dur_unit == SPOOR_UNIT_AUTO) {
        bool numeric_ts = g->numeric || opts->ts_unit != SPOOR_UNIT_AUTO;
        dur_unit = numeric_ts ? ts_unit : SPOOR_UNIT_S;
        if (present & (1u << SPOOR_FIXED_DUR))
            spoor_dialect_assume(d, "dur in %s (%s; use --dur-unit)", spoor_unit_name(dur_unit),
                                 numeric_ts ? "the unit of ts" : "ts is not numeric");
    }
    d->ts_unit = ts_unit;
    d->dur_unit = dur_unit;
    m->ts_unit_ns = spoor_unit_ns(ts_unit);
    m->dur_unit_ns = spoor_unit_ns(dur_unit);
}

static bool parse_int64(const char *p, size_t n, int64_t *out)
{
    size_t i = 0;
    bool negative = n && p[0] == '-';
    if (n && (p[0] == '-' || p[0] == '+'))
        i++;
    if (i == n)
        return false;
    uint64_t v = 0;
    for (; i < n; i++) {
        if (p[i] < '0' || p[i] > '9' || v > (UINT64_MAX - 9) / 10)
            return false;
        v = v * 10 + (uint64_t)(p[i] - '0');
    }
    if (v > (uint64_t)INT64_MAX + negative)
        return false;
    *out = negative ? (int64_t)(0 - v) : (int64_t)v;
    return true;
}

const char *spoor_field_map_set_fixed(const struct spoor_field_map *m, struct spoor_table *t, size_t row,
                                      enum spoor_fixed f, const char *text, size_t len,
                                      struct spoor_string_memo *memo)
{
    int64_t v;
    if (f == SPOOR_FIXED_NAME || f == SPOOR_FIXED_CAT) {
        uint32_t id = memo ? spoor_memo_intern(memo, t, text, len) : spoor_table_intern(t, text, len);
        (f == SPOOR_FIXED_NAME ? t->name : t->cat)[row] = id;
        return NULL;
    }
    spoor_field_trim(&text, &len);
    switch (f) {
    case SPOOR_FIXED_TS:
        if (!spoor_time_parse_decimal(text, len, m->ts_unit_ns, &v) && !spoor_time_parse_iso(text, len, &v))
            return "ts is not a number or an ISO-8601 time";
        t->ts[row] = v;
        break;
    case SPOOR_FIXED_DUR:
        if (!spoor_time_parse_decimal(text, len, m->dur_unit_ns, &v))
            return "dur is not a number";
        if (v < 0) /* a call cannot end before it starts; never summed */
            return "negative dur";
        t->dur[row] = v;
        break;
    case SPOOR_FIXED_PID:
    case SPOOR_FIXED_TID:
        if (!parse_int64(text, len, &v))
            return f == SPOOR_FIXED_PID ? "pid is not a 64-bit integer" : "tid is not a 64-bit integer";
        (f == SPOOR_FIXED_PID ? t->pid : t->tid)[row] = v;
        break;
    default:
        break;
    }
    return NULL;
}

size_t spoor_bom_len(const char *p, size_t len)
{
    return len >= 3 && (unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBB && (unsigned char)p[2] == 0xBF
               ? 3 : 0;
}

bool spoor_field_is_blank(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != ' ' && p[i] != '\t')
            return false;
    return true;
}

void spoor_field_map_set_phase(struct spoor_table *t, size_t row)
{
    t->ph[row] = t->dur[row] != SPOOR_NULL ? 'X' : 'i';
}

int spoor_generic_skip(struct spoor_parse_job *job, uint64_t line, const char *reason, const char *text,
                       size_t len, struct spoor_error *err)
{
    spoor_skips_add(job->skips, line, reason, text, len);
    if (!job->opts->strict)
        return SPOOR_OK;
    return spoor_fail(err, SPOOR_ESTRICT, "line %llu: %s: %.*s", (unsigned long long)line, reason,
                      (int)(len < 200 ? len : 200), text ? text : "");
}

void spoor_head_field(struct spoor_head_fields *h, const struct spoor_field_map *m, const char *key, size_t key_len,
                      const char *value, size_t value_len, bool null_value)
{
    unsigned roles = spoor_field_map_roles(m, key, key_len);
    h->seen |= roles;
    if ((roles & (1u << SPOOR_FIXED_TS)) && !null_value && !spoor_field_is_blank(value, value_len))
        spoor_unit_guess_add(&h->guess, value, value_len);
}

int spoor_head_finish(const struct spoor_head_fields *h, struct spoor_field_map *m, const struct spoor_read_opts *opts,
                      struct spoor_dialect *d, const char *records, struct spoor_error *err)
{
    for (int f = 0; f < SPOOR_FIXED_COUNT; f++)
        if (h->records && m->named[f] && !(h->seen & (1u << f)))
            return spoor_fail(err, SPOOR_EUSAGE, "no field '%s' (--%s) in the first %zu %s", m->field[f],
                              m->option[f], h->records, records);
    spoor_field_map_settle_units(m, opts, &h->guess, h->seen, d);
    return SPOOR_OK;
}
