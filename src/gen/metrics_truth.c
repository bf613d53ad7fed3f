/* Ground truth for the metric generator, from exact integer sums: means are
 * sums / n rounded once (what a double sum of these dyadic values gives in any
 * order); deviations and correlations come from 128-bit sums of squares and
 * products, so they are accurate to the last bits of a long double. */
#include "gen/metrics_truth.h"
#include "spoor/error.h"
#include "util/grow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const gen_metric_names[GEN_METRICS] = {"cpu_usage_rate", "memory_usage", "load_1m", "disk_io", "net_rx"};
static const char *const weekday_names[7] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
static const double scale = 256.0;

struct sums {
    uint64_t n;
    int64_t s1, min, max;
    __int128 s2;
};

struct pair_sums {
    uint64_t n;
    int64_t sx, sy;
    __int128 sxx, syy, sxy;
};

/* Sums of one node-hour. */
struct bucket {
    int64_t hour;
    uint64_t rows;
    struct sums m[GEN_METRICS];
};

struct node_truth {
    struct sums m[GEN_METRICS];
    struct bucket *buckets;
    size_t nbuckets, cap;
};

struct gen_metrics_truth {
    int nodes;
    uint64_t rows, missing[GEN_METRICS], text[GEN_METRICS];
    struct node_truth *node;
    uint64_t slot_rows[7 * 24];
    struct sums slot[7 * 24][GEN_METRICS];
    struct pair_sums pair[GEN_METRICS][GEN_METRICS];
};

struct gen_metrics_truth *gen_metrics_truth_new(int nodes)
{
    struct gen_metrics_truth *t = spoor_xcalloc(1, sizeof *t);
    t->nodes = nodes;
    t->node = spoor_xcalloc((size_t)nodes, sizeof *t->node);
    return t;
}

void gen_metrics_truth_free(struct gen_metrics_truth *t)
{
    for (int i = 0; i < t->nodes; i++)
        free(t->node[i].buckets);
    free(t->node);
    free(t);
}

static void sums_add(struct sums *s, int64_t k)
{
    if (!s->n || k < s->min)
        s->min = k;
    if (!s->n || k > s->max)
        s->max = k;
    s->n++;
    s->s1 += k;
    s->s2 += (__int128)k * k;
}

static void sums_merge(struct sums *a, const struct sums *b)
{
    if (!b->n)
        return;
    if (!a->n || b->min < a->min)
        a->min = b->min;
    if (!a->n || b->max > a->max)
        a->max = b->max;
    a->n += b->n;
    a->s1 += b->s1;
    a->s2 += b->s2;
}

static struct bucket *bucket_for(struct node_truth *nt, int64_t hour)
{
    if (nt->nbuckets && nt->buckets[nt->nbuckets - 1].hour == hour)
        return &nt->buckets[nt->nbuckets - 1];
    spoor_reserve((void **)&nt->buckets, &nt->cap, nt->nbuckets + 1, sizeof *nt->buckets);
    struct bucket *b = &nt->buckets[nt->nbuckets++];
    memset(b, 0, sizeof *b);
    b->hour = hour;
    return b;
}

void gen_metrics_truth_add(struct gen_metrics_truth *t, int64_t time_s, int node, const int64_t *k,
                           const bool *absent, const bool *text)
{
    t->rows++;
    int64_t day = time_s / 86400, hour = time_s % 86400 / 3600; /* times are after 1970 */
    int slot = (int)(((day + 3) % 7) * 24 + hour);
    t->slot_rows[slot]++;
    struct bucket *b = bucket_for(&t->node[node], time_s / 3600);
    b->rows++;
    for (int m = 0; m < GEN_METRICS; m++) {
        t->missing[m] += absent[m];
        t->text[m] += text[m];
        if (absent[m] || text[m])
            continue;
        sums_add(&t->node[node].m[m], k[m]);
        sums_add(&t->slot[slot][m], k[m]);
        sums_add(&b->m[m], k[m]);
        for (int j = m + 1; j < GEN_METRICS; j++) {
            if (absent[j] || text[j])
                continue;
            struct pair_sums *p = &t->pair[m][j];
            p->n++;
            p->sx += k[m];
            p->sy += k[j];
            p->sxx += (__int128)k[m] * k[m];
            p->syy += (__int128)k[j] * k[j];
            p->sxy += (__int128)k[m] * k[j];
        }
    }
}

static void number(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, "%.17g", v);
    else
        fputs("null", out);
}

static double mean_of(const struct sums *s) { return s->n ? (double)s->s1 / scale / (double)s->n : NAN; }

static double std_of(const struct sums *s)
{
    if (s->n < 2)
        return NAN;
    __int128 num = (__int128)s->n * s->s2 - (__int128)s->s1 * s->s1;
    long double var = (long double)num / ((long double)s->n * (long double)(s->n - 1)) / (256.0L * 256.0L);
    return (double)sqrtl(var);
}

static double r_of(const struct pair_sums *p)
{
    __int128 cxy = (__int128)p->n * p->sxy - (__int128)p->sx * p->sy;
    __int128 cxx = (__int128)p->n * p->sxx - (__int128)p->sx * p->sx;
    __int128 cyy = (__int128)p->n * p->syy - (__int128)p->sy * p->sy;
    if (p->n < 2 || cxx <= 0 || cyy <= 0)
        return NAN;
    return (double)((long double)cxy / sqrtl((long double)cxx * (long double)cyy));
}

static void moments(FILE *out, const struct sums *s)
{
    fprintf(out, ", \"count\": %llu, \"mean\": ", (unsigned long long)s->n);
    number(out, mean_of(s));
    fputs(", \"std\": ", out);
    number(out, std_of(s));
    fputs(", \"min\": ", out);
    number(out, s->n ? (double)s->min / scale : NAN);
    fputs(", \"max\": ", out);
    number(out, s->n ? (double)s->max / scale : NAN);
}

static void write_metrics(const struct gen_metrics_truth *t, FILE *out)
{
    fputs(",\n  \"metrics\": [", out);
    for (int m = 0; m < GEN_METRICS; m++) {
        struct sums all = {0};
        for (int n = 0; n < t->nodes; n++)
            sums_merge(&all, &t->node[n].m[m]);
        fprintf(out, "%s\n    {\"metric\": \"%s\"", m ? "," : "", gen_metric_names[m]);
        moments(out, &all);
        fprintf(out, ", \"missing\": %llu, \"non_numeric\": %llu}", (unsigned long long)t->missing[m],
                (unsigned long long)t->text[m]);
    }
    fputs("\n  ],\n  \"groups\": [", out);
    for (int n = 0; n < t->nodes; n++)
        for (int m = 0; m < GEN_METRICS; m++) {
            fprintf(out, "%s\n    {\"node\": \"node%d\", \"metric\": \"%s\"", n || m ? "," : "", n + 1,
                    gen_metric_names[m]);
            moments(out, &t->node[n].m[m]);
            fputc('}', out);
        }
    fputs("\n  ]", out);
}

/* by_hour (by_weekday false) or by_weekday: rows and means over the other key. */
static void write_profile(const struct gen_metrics_truth *t, FILE *out, bool by_weekday)
{
    fprintf(out, ",\n  \"%s\": [", by_weekday ? "by_weekday" : "by_hour");
    int nkeys = by_weekday ? 7 : 24, nother = by_weekday ? 24 : 7;
    bool first = true;
    for (int key = 0; key < nkeys; key++) {
        uint64_t rows = 0;
        struct sums s[GEN_METRICS] = {0};
        for (int o = 0; o < nother; o++) {
            int slot = by_weekday ? key * 24 + o : o * 24 + key;
            rows += t->slot_rows[slot];
            for (int m = 0; m < GEN_METRICS; m++)
                sums_merge(&s[m], &t->slot[slot][m]);
        }
        if (!rows)
            continue;
        fprintf(out, "%s\n    {", first ? "" : ",");
        first = false;
        if (by_weekday)
            fprintf(out, "\"weekday\": \"%s\"", weekday_names[key]);
        else
            fprintf(out, "\"hour\": %d", key);
        fprintf(out, ", \"rows\": %llu", (unsigned long long)rows);
        for (int m = 0; m < GEN_METRICS; m++) {
            fprintf(out, ", \"%s\": ", gen_metric_names[m]);
            number(out, mean_of(&s[m]));
        }
        fputc('}', out);
    }
    fputs("\n  ]", out);
}

static void write_corr(const struct gen_metrics_truth *t, FILE *out)
{
    fputs(",\n  \"corr\": [", out);
    for (int i = 0; i < GEN_METRICS; i++) {
        fprintf(out, "%s\n    {\"metric\": \"%s\"", i ? "," : "", gen_metric_names[i]);
        for (int j = 0; j < GEN_METRICS; j++) {
            fprintf(out, ", \"%s\": ", gen_metric_names[j]);
            number(out, i == j ? 1.0 : r_of(i < j ? &t->pair[i][j] : &t->pair[j][i]));
        }
        fputc('}', out);
    }
    fputs("\n  ],\n  \"pairs\": [", out);
    bool first = true;
    for (int i = 0; i < GEN_METRICS; i++)
        for (int j = i + 1; j < GEN_METRICS; j++) {
            double r = r_of(&t->pair[i][j]);
            if (!(fabs(r) > 0.7))
                continue;
            fprintf(out, "%s\n    {\"metric_a\": \"%s\", \"metric_b\": \"%s\", \"r\": ", first ? "" : ",",
                    gen_metric_names[i], gen_metric_names[j]);
            number(out, r);
            fprintf(out, ", \"rows\": %llu}", (unsigned long long)t->pair[i][j].n);
            first = false;
        }
    fputs("\n  ]", out);
}

static void write_resample(const struct gen_metrics_truth *t, FILE *out)
{
    fputs(",\n  \"resample\": [", out);
    bool first = true;
    for (int n = 0; n < t->nodes; n++)
        for (size_t i = 0; i < t->node[n].nbuckets; i++) {
            const struct bucket *b = &t->node[n].buckets[i];
            int64_t s = b->hour * 3600, day = s / 86400;
            /* civil date from days since 1970 (Howard Hinnant's algorithm) */
            int64_t z = day + 719468, era = z / 146097, doe = z - era * 146097;
            int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365, doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
            int64_t mp = (5 * doy + 2) / 153, d = doy - (153 * mp + 2) / 5 + 1, mo = mp < 10 ? mp + 3 : mp - 9;
            int64_t y = yoe + era * 400 + (mo <= 2);
            fprintf(out, "%s\n    {\"node\": \"node%d\", \"start\": \"%04lld-%02lld-%02lldT%02lld:00:00Z\", \"rows\": %llu",
                    first ? "" : ",", n + 1, (long long)y, (long long)mo, (long long)d, (long long)(s % 86400 / 3600),
                    (unsigned long long)b->rows);
            first = false;
            for (int m = 0; m < GEN_METRICS; m++) {
                fprintf(out, ", \"%s\": ", gen_metric_names[m]);
                number(out, mean_of(&b->m[m]));
            }
            fputc('}', out);
        }
    fputs("\n  ]", out);
}

static void write_headroom(const struct gen_metrics_truth *t, FILE *out)
{
    const double target = 0.65;
    fputs(",\n  \"headroom\": [", out);
    struct sums all = {0};
    for (int n = 0; n <= t->nodes; n++) {
        const struct sums *s = n < t->nodes ? &t->node[n].m[0] : &all;
        double mean = mean_of(s);
        if (n < t->nodes) {
            sums_merge(&all, s);
            fprintf(out, "\n    {\"node\": \"node%d\"", n + 1);
        } else {
            fputs("\n    {\"node\": \"(all)\"", out);
        }
        fprintf(out, ", \"count\": %llu, \"mean\": ", (unsigned long long)s->n);
        number(out, mean);
        fputs(", \"target\": 0.65, \"headroom\": ", out);
        number(out, mean != 0 ? (mean - target) / mean : NAN);
        fputs(n < t->nodes ? "}," : "}", out);
    }
    fputs("\n  ]", out);
}

void gen_metrics_truth_write(const struct gen_metrics_truth *t, FILE *out, uint64_t skipped)
{
    fprintf(out, "{\n  \"format\": \"spoor-gen-metrics-truth/1\",\n  \"rows\": %llu,\n  \"skipped\": %llu",
            (unsigned long long)t->rows, (unsigned long long)skipped);
    write_metrics(t, out);
    write_profile(t, out, false);
    write_profile(t, out, true);
    write_corr(t, out);
    write_resample(t, out);
    write_headroom(t, out);
    fputs("\n}\n", out);
}
