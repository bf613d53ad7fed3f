/* bpftrace printf tables: the built-in ones, the user's --input-columns, and
 * telling which table a head of text is. */
#include "read/bpftrace_table.h"
#include "read/text_fields.h"

#include <stdio.h>
#include <string.h>

/* The columns every table of the pipeline starts with: bpftrace's `nsecs`
 * (ns since boot) printed when the traced call returned, and the local wall
 * clock of the same instant. */
#define BPF_PREFIX {"ts_end", BPF_NS, BPF_TS_END}, {"wall_tod_s", BPF_CLOCK, BPF_COLUMN}, \
                   {"pid", BPF_INT, BPF_PID}, {"comm", BPF_STR, BPF_COLUMN}

/* bio.out: TIMESTAMP TIME PID COMM DONEPID DONECOMM DISK T SECTOR BYTES LAT */
static const struct bpf_table bio = {
    .name = "bio",
    .cat = "bio",
    .ncols = 11,
    .col = {BPF_PREFIX, {"done_pid", BPF_INT, BPF_COLUMN}, {"done_comm", BPF_STR, BPF_COLUMN},
            {"disk", BPF_STR, BPF_COLUMN}, {"rwbs", BPF_STR, BPF_OP}, {"sector", BPF_INT, BPF_COLUMN},
            {"bytes", BPF_INT, BPF_COLUMN}, {"lat", BPF_LAT, BPF_DUR}},
    .min_fields = 11,
};

/* vfs_rw.out: TIMESTAMP TIME PID COMM R/W LAT REQUESTED RETURNED FILE (FILE
 * may be empty or hold blanks) */
static const struct bpf_table vfs_rw = {
    .name = "vfs_rw",
    .cat = "vfs",
    .ncols = 9,
    .col = {BPF_PREFIX, {"rw", BPF_STR, BPF_OP_ONLY}, {"lat", BPF_LAT, BPF_DUR},
            {"requested", BPF_INT, BPF_COLUMN}, {"returned", BPF_INT, BPF_COLUMN}, {"fname", BPF_REST, BPF_COLUMN}},
    .rest_last = true,
    .min_fields = 8,
};

/* open.out: TIMESTAMP TIME PID COMM FUNC LAT PATH (PATH cut at 63 bytes by
 * bpftrace's string size, and may hold blanks) */
static const struct bpf_table open_table = {
    .name = "open",
    .cat = "open",
    .ncols = 7,
    .col = {BPF_PREFIX, {"func", BPF_STR, BPF_NAME}, {"lat", BPF_LAT, BPF_DUR}, {"fname", BPF_REST, BPF_COLUMN}},
    .rest_last = true,
    .min_fields = 6,
};

const struct bpf_table *const bpf_builtin[] = {&bio, &vfs_rw, &open_table};
const size_t bpf_nbuiltin = sizeof bpf_builtin / sizeof *bpf_builtin;

bool bpf_field_fits(enum bpf_type type, const char *p, size_t n)
{
    int64_t v;
    switch (type) {
    case BPF_INT:
    case BPF_LAT: return spoor_text_int(p, n, &v);
    case BPF_NS: return spoor_text_int(p, n, &v) && v >= 0;
    case BPF_CLOCK: return spoor_text_clock(p, n, &v);
    case BPF_STR:
    case BPF_REST: return true;
    }
    return false;
}

bool bpf_line_fits(const struct bpf_table *t, const char *p, const char *end)
{
    const char *start[BPF_MAX_COLS];
    size_t len[BPF_MAX_COLS];
    size_t n = spoor_text_split(p, end, t->ncols, t->rest_last, start, len);
    if (n < t->min_fields || n > t->ncols)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!bpf_field_fits(t->col[i].type, start[i], len[i]))
            return false;
    return true;
}

const struct bpf_table *bpf_table_guess(const char *head, size_t len, size_t *rows, size_t *lines)
{
    enum { HEAD_LINES = 16 };
    size_t fits[sizeof bpf_builtin / sizeof *bpf_builtin] = {0};
    const char *p = head, *end = head + len;
    *lines = 0;
    while (p < end && *lines < HEAD_LINES) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl && *lines) /* cut by the head */
            break;
        const char *e = spoor_text_cut_cr(p, nl ? nl : end);
        const char *q = p;
        while (q < e && spoor_text_blank(*q))
            q++;
        if (q < e) {
            ++*lines;
            for (size_t k = 0; k < bpf_nbuiltin; k++)
                if (bpf_line_fits(bpf_builtin[k], q, e)) {
                    fits[k]++;
                    break;
                }
        }
        p = nl ? nl + 1 : end;
    }
    size_t best = 0;
    for (size_t k = 1; k < bpf_nbuiltin; k++)
        if (fits[k] > fits[best])
            best = k;
    *rows = fits[best];
    return *rows && *rows * 2 > *lines ? bpf_builtin[best] : NULL;
}

static const struct {
    const char *name;
    enum bpf_type type;
} type_names[] = {
    {"int", BPF_INT}, {"ns", BPF_NS}, {"lat", BPF_LAT}, {"clock", BPF_CLOCK}, {"str", BPF_STR}, {"rest", BPF_REST},
};

static const struct {
    const char *name;
    enum bpf_role role;
} role_names[] = {
    {"ts", BPF_TS},     {"ts_end", BPF_TS_END}, {"dur", BPF_DUR}, {"pid", BPF_PID},
    {"tid", BPF_TID},   {"name", BPF_NAME},     {"cat", BPF_CAT},
};

/* The types a fixed column accepts. */
static bool role_takes(enum bpf_role role, enum bpf_type type)
{
    switch (role) {
    case BPF_TS:
    case BPF_TS_END:
    case BPF_DUR: return type == BPF_INT || type == BPF_NS || type == BPF_LAT;
    case BPF_PID:
    case BPF_TID: return type == BPF_INT;
    case BPF_NAME:
    case BPF_CAT: return type == BPF_STR || type == BPF_REST;
    default: return true;
    }
}

/* One NAME:TYPE item [p, p + n) as column c. */
static int parse_item(const char *p, size_t n, struct bpf_col *c, struct spoor_error *err)
{
    const char *colon = memchr(p, ':', n);
    size_t name_len = colon ? (size_t)(colon - p) : n;
    if (!colon || name_len == 0 || name_len >= sizeof c->name)
        return spoor_fail(err, SPOOR_EUSAGE, "--input-columns: '%.*s': expected NAME:TYPE", (int)n, p);
    memcpy(c->name, p, name_len);
    c->name[name_len] = '\0';
    const char *type = colon + 1;
    size_t type_len = n - name_len - 1;
    size_t k = 0;
    while (k < sizeof type_names / sizeof *type_names &&
           !(strlen(type_names[k].name) == type_len && memcmp(type_names[k].name, type, type_len) == 0))
        k++;
    if (k == sizeof type_names / sizeof *type_names)
        return spoor_fail(err, SPOOR_EUSAGE,
                          "--input-columns: '%.*s': unknown type (expected int, ns, lat, clock, str or rest)",
                          (int)n, p);
    c->type = type_names[k].type;
    c->role = BPF_COLUMN;
    for (size_t r = 0; r < sizeof role_names / sizeof *role_names; r++)
        if (strcmp(role_names[r].name, c->name) == 0)
            c->role = role_names[r].role;
    if (!role_takes(c->role, c->type))
        return spoor_fail(err, SPOOR_EUSAGE, "--input-columns: '%.*s': %s needs a %s type", (int)n, p, c->name,
                          c->role == BPF_NAME || c->role == BPF_CAT ? "str or rest" : "int, ns or lat");
    return SPOOR_OK;
}

int bpf_table_parse(const char *spec, struct bpf_table *t, struct spoor_error *err)
{
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "custom");
    unsigned roles = 0;
    for (const char *p = spec;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        if (t->ncols == BPF_MAX_COLS)
            return spoor_fail(err, SPOOR_EUSAGE, "--input-columns: more than %d columns", BPF_MAX_COLS);
        struct bpf_col *c = &t->col[t->ncols];
        if (parse_item(p, n, c, err) != SPOOR_OK)
            return err->code;
        if (t->rest_last)
            return spoor_fail(err, SPOOR_EUSAGE, "--input-columns: a rest column must be the last");
        for (size_t i = 0; i < t->ncols; i++)
            if (strcmp(t->col[i].name, c->name) == 0)
                return spoor_fail(err, SPOOR_EUSAGE, "--input-columns: '%s' named twice", c->name);
        roles |= 1u << c->role;
        t->rest_last = c->type == BPF_REST;
        t->ncols++;
        if (!comma)
            break;
        p = comma + 1;
    }
    if ((roles & (1u << BPF_TS)) && (roles & (1u << BPF_TS_END)))
        return spoor_fail(err, SPOOR_EUSAGE, "--input-columns: give ts (the start) or ts_end, not both");
    if ((roles & (1u << BPF_TS_END)) && !(roles & (1u << BPF_DUR)))
        return spoor_fail(err, SPOOR_EUSAGE, "--input-columns: ts_end needs a dur column to find the start");
    t->min_fields = t->rest_last ? t->ncols - 1 : t->ncols;
    return SPOOR_OK;
}
