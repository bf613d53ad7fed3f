/* The node-metric table generator: rows of dyadic values (multiples of 1/256)
 * with daily patterns and known correlations, as CSV or JSON lines, with
 * optional empty and non-numeric cells and malformed lines, and the ground
 * truth accumulated row by row (gen/metrics_truth.c). */
#include "spoor/gen.h"
#include "spoor/write.h"
#include "gen/metrics_truth.h"
#include "gen/out.h"
#include "util/rng.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { FLUSH_BYTES = 1 << 20, LINE_MAX_BYTES = 512 };
static const int64_t start_s = 1704067200; /* 2024-01-01T00:00:00Z, a Monday */

/* cpu load added per hour of day, in 1/256 units: quiet nights, busy afternoons. */
static const int diurnal[24] = {0, 0, 0, 0, 0, 8, 16, 32, 56, 80, 96, 104, 100, 104, 110, 112, 104, 88, 64, 48, 32, 16, 8, 0};

bool spoor_gen_time_parse(const char *s, enum spoor_gen_time *out)
{
    static const char *const names[] = {"iso", "iso-offset", "s", "ms", "us", "ns"};
    for (int i = 0; i < 6; i++)
        if (!strcmp(s, names[i])) {
            *out = (enum spoor_gen_time)i;
            return true;
        }
    return false;
}

/* k / 256 in decimal: exact, at most 8 fraction digits, no trailing zeros. */
static int put_value(char *p, int64_t k)
{
    int n = sprintf(p, "%" PRId64, k / 256);
    int64_t frac = (k % 256) * 390625; /* / 256 = * 390625 / 10^8 */
    if (!frac)
        return n;
    char digits[24];
    snprintf(digits, sizeof digits, "%08" PRId64, frac);
    int len = 8;
    while (digits[len - 1] == '0')
        len--;
    return n + sprintf(p + n, ".%.*s", len, digits);
}

static int put_time(char *p, int64_t s, enum spoor_gen_time f)
{
    switch (f) {
    case SPOOR_GEN_TIME_S:
        return sprintf(p, "%" PRId64, s);
    case SPOOR_GEN_TIME_MS:
        return sprintf(p, "%" PRId64 "000", s);
    case SPOOR_GEN_TIME_US:
        return sprintf(p, "%" PRId64 "000000", s);
    case SPOOR_GEN_TIME_NS:
        return sprintf(p, "%" PRId64 "000000000", s);
    case SPOOR_GEN_TIME_ISO:
    case SPOOR_GEN_TIME_ISO_OFFSET:
        break;
    }
    bool offset = f == SPOOR_GEN_TIME_ISO_OFFSET;
    time_t t = (time_t)(s + (offset ? 7200 : 0)); /* +02:00: the same instant in local time */
    struct tm tm;
    gmtime_r(&t, &tm);
    return sprintf(p, "%04d-%02d-%02dT%02d:%02d:%02d%s", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                   tm.tm_min, tm.tm_sec, offset ? "+02:00" : "Z");
}

/* One sample of every metric for a node at a time, in 1/256 units. */
static void sample(struct spoor_rng *r, int node, int64_t s, int64_t *k)
{
    int64_t day = s / 86400, hour = s % 86400 / 3600;
    bool weekend = (day + 3) % 7 >= 5;
    int64_t cpu = 2 * (24 + (node % 5) * 12 + diurnal[hour] - (weekend ? 24 : 0)) + spoor_rng_range(r, -16, 16);
    k[0] = cpu < 0 ? 0 : cpu > 256 ? 256 : cpu;
    k[1] = 256 * (4000 + 500 * (node % 8)) + spoor_rng_range(r, 0, 256 * 200);
    k[2] = 8 * k[0] + spoor_rng_range(r, 0, 255);
    k[3] = spoor_rng_range(r, 0, 256 * 50);
    k[4] = 256 * 300 - 64 * k[0] + spoor_rng_range(r, 0, 1024);
}

static int put_row(char *p, const struct spoor_gen_metrics_opts *o, int64_t s, int node, const int64_t *k,
                   const bool *absent, const bool *text)
{
    int n = 0;
    if (o->jsonl) {
        n += sprintf(p + n, "{\"timestamp\": %s", o->time_format <= SPOOR_GEN_TIME_ISO_OFFSET ? "\"" : "");
        n += put_time(p + n, s, o->time_format);
        n += sprintf(p + n, "%s, \"node\": \"node%d\"", o->time_format <= SPOOR_GEN_TIME_ISO_OFFSET ? "\"" : "",
                     node + 1);
        for (int m = 0; m < GEN_METRICS; m++) {
            if (absent[m])
                continue;
            n += sprintf(p + n, ", \"%s\": ", gen_metric_names[m]);
            n += text[m] ? sprintf(p + n, "\"n/a\"") : put_value(p + n, k[m]);
        }
        return n + sprintf(p + n, "}\n");
    }
    n += put_time(p + n, s, o->time_format);
    n += sprintf(p + n, ",node%d", node + 1);
    for (int m = 0; m < GEN_METRICS; m++) {
        p[n++] = ',';
        if (text[m])
            n += sprintf(p + n, "n/a");
        else if (!absent[m])
            n += put_value(p + n, k[m]);
    }
    p[n++] = '\n';
    return n;
}

struct writer {
    struct gen_out out;
    char *buf;
    size_t len;
};

static int flush(struct writer *w, struct spoor_error *err)
{
    int rc = gen_out_write(&w->out, w->buf, w->len, err);
    w->len = 0;
    return rc;
}

static int write_truth(const char *path, const struct gen_metrics_truth *t, uint64_t skipped, struct spoor_error *err)
{
    char truth_path[4096];
    spoor_gen_truth_path(path, truth_path, sizeof truth_path);
    struct spoor_atomic_file f = {0};
    int rc = spoor_atomic_file_open(&f, truth_path, err);
    if (rc)
        return rc;
    gen_metrics_truth_write(t, f.fp, skipped);
    return spoor_atomic_file_commit(&f, err);
}

int spoor_gen_metrics_write(const char *path, const struct spoor_gen_metrics_opts *o,
                            struct spoor_gen_metrics_result *result, struct spoor_error *err)
{
    memset(result, 0, sizeof *result);
    struct writer w = {.buf = spoor_xmalloc(FLUSH_BYTES + LINE_MAX_BYTES)};
    int level = gen_out_is_gzip_path(path) ? (o->gzip_level ? o->gzip_level : 6) : 0;
    int rc = gen_out_open(&w.out, path, level, err);
    if (rc) {
        free(w.buf);
        return rc;
    }
    if (!o->jsonl) {
        w.len = (size_t)sprintf(w.buf, "timestamp,node");
        for (int m = 0; m < GEN_METRICS; m++)
            w.len += (size_t)sprintf(w.buf + w.len, ",%s", gen_metric_names[m]);
        w.buf[w.len++] = '\n';
    }
    struct gen_metrics_truth *truth = o->truth ? gen_metrics_truth_new(o->nodes) : NULL;
    struct spoor_rng r;
    spoor_rng_seed(&r, o->seed);
    uint64_t bad_every = o->bad_lines ? o->rows / (o->bad_lines + 1) + 1 : 0;
    uint64_t missing_per_2_32 = (uint64_t)(o->missing * 4294967296.0);
    for (uint64_t row = 0; row < o->rows && rc == 0; row++) {
        if (bad_every && row % bad_every == bad_every / 2 && result->bad_lines < o->bad_lines) {
            w.len += (size_t)sprintf(w.buf + w.len, o->jsonl ? "{\"timestamp\": \"2024-01-01T00:00:00Z\", broken\n"
                                                              : "not,a,metric,row\n");
            result->bad_lines++;
        }
        int node = (int)(row % (uint64_t)o->nodes);
        int64_t s = start_s + (int64_t)(row / (uint64_t)o->nodes) * o->interval_s;
        int64_t k[GEN_METRICS];
        bool absent[GEN_METRICS] = {0}, text[GEN_METRICS] = {0};
        sample(&r, node, s, k);
        for (int m = 0; m < GEN_METRICS && missing_per_2_32; m++)
            if ((spoor_rng_next(&r) >> 32) < missing_per_2_32) {
                text[m] = spoor_rng_next(&r) % 4 == 0;
                absent[m] = !text[m];
            }
        w.len += (size_t)put_row(w.buf + w.len, o, s, node, k, absent, text);
        if (truth)
            gen_metrics_truth_add(truth, s, node, k, absent, text);
        result->rows++;
        if (w.len >= FLUSH_BYTES)
            rc = flush(&w, err);
    }
    if (rc == 0)
        rc = flush(&w, err);
    if (rc == 0) {
        result->bytes = w.out.bytes;
        rc = gen_out_commit(&w.out, &result->disk_bytes, err);
    } else {
        gen_out_abort(&w.out);
    }
    if (rc == 0 && truth)
        rc = write_truth(path, truth, result->bad_lines, err);
    if (truth)
        gen_metrics_truth_free(truth);
    free(w.buf);
    return rc;
}
