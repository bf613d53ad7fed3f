/* What a snapshot stores besides the table: the read options it was made with
 * (as a hash) and the input's report, so a command run from the snapshot prints
 * exactly what the parse printed. The report is a flat record of u32/u64
 * numbers and length-prefixed strings. */
#include "read/load_snapshot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Options as text, each absent one marked apart from an empty one. */
static void add_opt(char *buf, size_t cap, size_t *at, const char *s)
{
    int n = snprintf(buf + *at, cap - *at, "%c%s", s ? '+' : '-', s ? s : "");
    *at += (size_t)n + 1 < cap - *at ? (size_t)n + 1 : 0;
}

uint64_t load_options_hash(const struct spoor_read_opts *o)
{
    char buf[4096] = {0};
    size_t at = 0;
    const char *text[] = {o->format, o->dialect, o->field_ts, o->field_dur, o->field_name,
                          o->field_cat, o->field_pid, o->field_tid, o->utc_offset, o->input_columns};
    for (size_t i = 0; i < sizeof text / sizeof *text; i++)
        add_opt(buf, sizeof buf, &at, text[i]);
    char nums[64];
    snprintf(nums, sizeof nums, "%d %d %d %lld", (int)o->ts_unit, (int)o->dur_unit, o->csv_delim,
             o->boot.known ? (long long)o->boot.offset_ns : -1LL);
    add_opt(buf, sizeof buf, &at, nums);
    return spoor_hash_bytes(buf, at);
}

struct out {
    uint8_t *p;
    size_t len, cap;
};

static void put(struct out *o, const void *p, size_t n)
{
    if (o->len + n > o->cap) {
        o->cap = (o->len + n) * 2;
        o->p = spoor_xrealloc(o->p, o->cap);
    }
    memcpy(o->p + o->len, p, n);
    o->len += n;
}

static void put32(struct out *o, uint32_t v) { put(o, &v, 4); }
static void put64(struct out *o, uint64_t v) { put(o, &v, 8); }

static void put_str(struct out *o, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    put32(o, (uint32_t)n);
    put(o, s ? s : "", n);
}

uint8_t *load_report_encode(const struct spoor_input_report *rep, size_t *len)
{
    struct out o = {0};
    const struct spoor_dialect *d = &rep->dialect;
    put_str(&o, d->name);
    put_str(&o, d->assumed);
    put32(&o, d->ts_unit);
    put32(&o, d->dur_unit);
    put32(&o, d->pid_tid_swapped);
    put_str(&o, d->unit_warning);
    put_str(&o, d->clock);
    put64(&o, rep->lines);
    put64(&o, rep->rows);
    put64(&o, rep->bytes);
    put64(&o, rep->redefined);
    put32(&o, rep->warning != NULL);
    put_str(&o, rep->warning);
    const struct spoor_skips *s = &rep->skips;
    put64(&o, s->total);
    put32(&o, (uint32_t)s->nreasons);
    for (size_t i = 0; i < s->nreasons; i++) {
        put_str(&o, s->reason[i]);
        put64(&o, s->count[i]);
    }
    put32(&o, (uint32_t)s->nsamples);
    for (size_t i = 0; i < s->nsamples; i++) {
        uint32_t reason = 0;
        while (reason < s->nreasons && s->reason[reason] != s->sample[i].reason)
            reason++;
        put64(&o, s->sample[i].line);
        put32(&o, reason);
        put_str(&o, s->sample[i].detail);
    }
    *len = o.len;
    return o.p;
}

struct in {
    const uint8_t *p;
    size_t len, at;
    bool bad;
};

static uint64_t get(struct in *in, size_t n)
{
    uint64_t v = 0;
    if (in->len - in->at < n) {
        in->bad = true;
        return 0;
    }
    memcpy(&v, in->p + in->at, n);
    in->at += n;
    return v;
}

/* Copies a string of at most cap - 1 bytes into dst. */
static void get_str(struct in *in, char *dst, size_t cap)
{
    uint64_t n = get(in, 4);
    if (n >= cap || in->len - in->at < n) {
        in->bad = true;
        n = 0;
    }
    memcpy(dst, in->p + in->at, n);
    dst[n] = '\0';
    in->at += n;
}

static bool get_unit(struct in *in, enum spoor_unit *u)
{
    uint64_t v = get(in, 4);
    *u = (enum spoor_unit)v;
    return v <= SPOOR_UNIT_S;
}

bool load_report_decode(const uint8_t *p, size_t len, struct spoor_input_report *rep)
{
    struct in in = {p, len, 0, false};
    struct spoor_dialect *d = &rep->dialect;
    get_str(&in, d->name, sizeof d->name);
    get_str(&in, d->assumed, sizeof d->assumed);
    bool units = get_unit(&in, &d->ts_unit) && get_unit(&in, &d->dur_unit);
    d->pid_tid_swapped = get(&in, 4) != 0;
    get_str(&in, d->unit_warning, sizeof d->unit_warning);
    get_str(&in, d->clock, sizeof d->clock);
    rep->lines = get(&in, 8);
    rep->rows = get(&in, 8);
    rep->bytes = get(&in, 8);
    rep->redefined = get(&in, 8);
    bool warned = get(&in, 4) != 0;
    char *text = spoor_xmalloc(len + 1); /* the warning, then the reasons */
    get_str(&in, text, len + 1);
    free(rep->warning);
    rep->warning = warned ? spoor_xstrdup(text) : NULL;
    struct spoor_skips *s = &rep->skips;
    memset(s, 0, sizeof *s);
    s->total = get(&in, 8);
    s->nreasons = get(&in, 4);
    size_t used = 0;
    for (size_t i = 0; i < s->nreasons && i < SPOOR_SKIP_REASONS_MAX && !in.bad; i++) {
        get_str(&in, text + used, len + 1 - used);
        s->reason[i] = text + used;
        used += strlen(text + used) + 1;
        s->count[i] = get(&in, 8);
    }
    s->nsamples = get(&in, 4);
    for (size_t i = 0; i < s->nsamples && i < SPOOR_SKIP_SAMPLES && !in.bad; i++) {
        s->sample[i].line = get(&in, 8);
        uint64_t reason = get(&in, 4);
        s->sample[i].reason = reason < s->nreasons ? s->reason[reason] : NULL;
        get_str(&in, s->sample[i].detail, sizeof s->sample[i].detail);
        in.bad |= !s->sample[i].reason;
    }
    free(rep->text);
    rep->text = text;
    return units && !in.bad && in.at == len && s->nreasons <= SPOOR_SKIP_REASONS_MAX &&
           s->nsamples <= SPOOR_SKIP_SAMPLES;
}
