/* --align: the boot clock put on UTC before the load (spoor/load.h, struct
 * spoor_boot_clock). Two things are read first:
 *   - every (boot stamp, wall clock) pair of the inputs on the boot clock,
 *     fitted into one offset modulo a day (read/wall_fit.h);
 *   - the first UTC time of the first input whose times carry a date (mpstat,
 *     a log), unless --align gives the date.
 * The wall clock's day is the one that puts the boot clock's first stamp
 * nearest that time; the zone of the wall clock is --utc-offset's. */
#include "read/loader.h"
#include "read/local_time.h"
#include "read/wall_fit.h"
#include "io/input.h"
#include "spoor/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { FIRST_BATCH_READ = 100 }; /* a sink's status: the first batch was enough */
/* More than bpftrace's print lag: rows of two boots, or a stepped clock. */
static const int64_t CLOCKS_DISAGREE_NS = 2000000000LL;

/* Where the date comes from: the first time of the first dated input. */
struct dated {
    bool seen;
    int64_t first_ns;
    const char *path;
};

static int first_batch(void *ctx, size_t input, const struct spoor_table *batch)
{
    (void)input;
    struct dated *d = ctx;
    for (size_t r = 0; r < batch->nrows; r++)
        if (batch->ts[r] != SPOOR_NULL && (!d->seen || batch->ts[r] < d->first_ns)) {
            d->first_ns = batch->ts[r];
            d->seen = true;
        }
    return d->seen ? FIRST_BATCH_READ : SPOOR_OK;
}

/* The first UTC time of a dated input, from its first batch with times. */
static int read_date(const char *path, const struct spoor_load_opts *opts, struct dated *date, struct spoor_error *err)
{
    struct spoor_load_opts o = *opts;
    o.read.align = NULL;
    o.read.args = SPOOR_ARGS_NONE;
    o.progress = false;
    o.threads = 1;
    const struct spoor_sink sink = {.ctx = date, .reduce = first_batch};
    struct spoor_load_result result;
    int st = spoor_load(&path, 1, &o, &sink, &result, err);
    spoor_load_result_free(&result);
    if (date->seen)
        date->path = path;
    return st == FIRST_BATCH_READ ? SPOOR_OK : st;
}

/* Every pair of one input on the boot clock, read in order. */
static int read_pairs(struct spoor_input *in, const struct spoor_dialect *d, struct spoor_wall_fit *fit,
                      struct spoor_error *err)
{
    size_t parts = spoor_input_plan(in, 1);
    struct spoor_chunk chunk = {0};
    int st = SPOOR_OK;
    for (size_t p = 0; p < parts && st == SPOOR_OK; p++) {
        struct spoor_cursor *c;
        st = spoor_cursor_open(in, p, &c, err);
        while (st == SPOOR_OK && (st = spoor_cursor_next(c, &chunk, err)) == 1) {
            d->format->wall_pairs(d, chunk.data, chunk.len, fit);
            st = SPOOR_OK;
        }
        if (st == 0)
            spoor_cursor_close(c);
    }
    spoor_chunk_release(&chunk);
    return st < 0 ? err->code : SPOOR_OK;
}

/* One input: its pairs when it is on the boot clock, its date when it is
 * dated and none was seen before. A stream can be read once only: it is
 * left to the load (its rows still get the offset the others give). */
static int read_input(const char *path, const struct spoor_load_opts *opts, bool want_date,
                      struct spoor_wall_fit *fit, struct dated *date, bool *boot, struct spoor_error *err)
{
    if (spoor_input_is_stream(path))
        return SPOOR_OK;
    struct spoor_input *in;
    int st = spoor_input_open(path, &opts->input, &in, err);
    if (st != SPOOR_OK)
        return st;
    struct spoor_dialect d = {0};
    struct spoor_read_opts ro = opts->read;
    ro.align = NULL;
    if (load_detect(path, in, &ro, &d, err) != SPOOR_OK) {
        spoor_input_close(in);
        return SPOOR_OK; /* the load says what is wrong with it */
    }
    *boot |= d.format->clock == SPOOR_CLOCK_BOOT;
    if (d.format->wall_pairs)
        st = read_pairs(in, &d, fit, err);
    spoor_input_close(in);
    if (st == SPOOR_OK && d.format->clock == SPOOR_CLOCK_DATED && want_date && !date->seen)
        st = read_date(path, opts, date, err);
    spoor_dialect_release(&d);
    if (st != SPOOR_OK && !strstr(err->msg, path)) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        spoor_fail(err, st, "--align: %s: %s", path, msg);
    }
    return st;
}

/* "YYYY-MM-DD" as days since 1970. */
static bool parse_date(const char *s, int64_t *days)
{
    int y, m, d, n = 0;
    return sscanf(s, "%4d-%2d-%2d%n", &y, &m, &d, &n) == 3 && s[n] == '\0' && n == 10 &&
           spoor_civil_days(y, m, d, days);
}

/* The UTC time of the boot clock's first stamp when the wall clock's day of
 * it is `day` (days since 1970); false in a zone's gap. */
static bool first_on_utc(const struct spoor_zone *z, const struct spoor_wall_fit *f, int64_t offset, int64_t day,
                         int64_t *utc)
{
    int64_t tod = (f->first_boot % SPOOR_DAY_NS + offset % SPOOR_DAY_NS + 2 * SPOOR_DAY_NS) % SPOOR_DAY_NS;
    return spoor_zone_to_utc(z, day * SPOOR_DAY_NS + tod, INT64_MIN, utc);
}

/* The day whose reading puts the first stamp nearest the dated input's
 * first time. */
static bool nearest_day(const struct spoor_zone *z, const struct spoor_wall_fit *f, int64_t offset,
                        int64_t near_ns, int64_t *utc)
{
    int64_t day = near_ns / SPOOR_DAY_NS - (near_ns < 0);
    bool found = false;
    for (int64_t d = day - 1; d <= day + 1; d++) {
        int64_t t;
        if (first_on_utc(z, f, offset, d, &t) && (!found || llabs(t - near_ns) < llabs(*utc - near_ns))) {
            *utc = t;
            found = true;
        }
    }
    return found;
}

static void describe(struct spoor_boot_clock *b, const struct spoor_wall_fit *f, int64_t first_utc,
                     const char *date_from, int64_t crossing)
{
    char bound[32], pairs[32], lag[96] = "", first[32] = "?";
    time_t secs = (time_t)(first_utc / 1000000000LL - (first_utc < 0));
    struct tm tm;
    if (gmtime_r(&secs, &tm))
        strftime(first, sizeof first, "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (crossing > 0)
        snprintf(lag, sizeof lag, crossing > CLOCKS_DISAGREE_NS ? " (the pairs disagree by %s)"
                                                                : " (the wall clock lags its stamps by up to %s)",
                 spoor_fmt_duration(bound, sizeof bound, (double)crossing));
    int64_t whole = b->offset_ns / 1000000000LL, part = b->offset_ns % 1000000000LL;
    if (part < 0) {
        whole--;
        part += 1000000000LL;
    }
    snprintf(b->how, sizeof b->how, "boot clock + %lld.%09lld s = UTC, +- %s: fitted on %s wall-clock pairs%s; first row at %s, its date %.100s",
             (long long)whole, (long long)part, spoor_fmt_duration(bound, sizeof bound, (double)b->bound_ns),
             spoor_fmt_count(pairs, sizeof pairs, f->pairs), lag, first, date_from);
}

int load_align(const char *const *paths, size_t npaths, const struct spoor_load_opts *opts,
               struct spoor_load_opts *out, struct spoor_error *err)
{
    *out = *opts;
    const char *how = opts->read.align;
    if (!how || opts->read.boot.known)
        return SPOOR_OK;
    int64_t given_day = 0;
    bool given = strcmp(how, "auto") != 0;
    if (given && !parse_date(how, &given_day))
        return spoor_fail(err, SPOOR_EUSAGE, "--align '%s': expected auto or a date YYYY-MM-DD", how);
    struct spoor_wall_fit fit = {0};
    struct dated date = {0};
    bool boot = false;
    for (size_t i = 0; i < npaths; i++) {
        int st = read_input(paths[i], opts, !given, &fit, &date, &boot, err);
        if (st != SPOOR_OK)
            return st;
    }
    if (!boot)
        return SPOOR_OK; /* nothing counts from boot */
    if (!fit.pairs)
        return spoor_fail(err, SPOOR_EFORMAT,
                          "--align: no input pairs its boot-clock stamps with a wall clock (bpftrace's "
                          "TIMESTAMP and TIME columns, or a clock column of --input-columns)");
    if (!given && !date.seen)
        return spoor_fail(err, SPOOR_EUSAGE,
                          "--align auto: no input gives the date of the wall clock (mpstat's output, or a log "
                          "with dates); give it as --align YYYY-MM-DD");
    struct spoor_zone zone;
    int st = spoor_zone_open(opts->read.utc_offset, &zone, err);
    if (st != SPOOR_OK)
        return st;
    int64_t offset = fit.lo + (fit.hi - fit.lo) / 2, crossing = fit.lo - fit.hi, first_utc = 0;
    bool found = given ? first_on_utc(&zone, &fit, offset, given_day, &first_utc)
                       : nearest_day(&zone, &fit, offset, date.first_ns, &first_utc);
    spoor_zone_close(&zone);
    if (!found)
        return spoor_fail(err, SPOOR_EFORMAT, "--align: the boot clock's first stamp falls in an hour the zone "
                                              "skips (daylight saving); check --utc-offset");
    struct spoor_boot_clock *b = &out->read.boot;
    b->known = true;
    b->offset_ns = first_utc - fit.first_boot;
    b->bound_ns = llabs(fit.hi - fit.lo) / 2;
    char from[160];
    const char *base = given ? NULL : strrchr(date.path, '/'); /* the line stays short */
    snprintf(from, sizeof from, given ? "from --align" : "from %s", base ? base + 1 : date.path);
    describe(b, &fit, first_utc, from, crossing);
    char gap[32];
    if (crossing > CLOCKS_DISAGREE_NS)
        snprintf(b->warning, sizeof b->warning,
                 "--align: the wall clock and the boot stamps disagree by %s (rows of different boots, or the "
                 "clock was stepped)", spoor_fmt_duration(gap, sizeof gap, (double)crossing));
    else if (!given && llabs(first_utc - date.first_ns) > 3600000000000LL)
        snprintf(b->warning, sizeof b->warning, "--align: the boot clock's first row is %s from %s's first",
                 spoor_fmt_duration(gap, sizeof gap, (double)llabs(first_utc - date.first_ns)), date.path);
    return SPOOR_OK;
}
