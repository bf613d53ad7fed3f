/* Accounting of skipped lines: counts by reason plus the first few samples,
 * so a report can say what was skipped and where. */
#include "spoor/load.h"
#include "io/input.h"

#include <stdio.h>
#include <string.h>

static void count(struct spoor_skips *s, const char *reason, uint64_t n)
{
    s->total += n;
    for (size_t i = 0; i < s->nreasons; i++)
        if (s->reason[i] == reason || strcmp(s->reason[i], reason) == 0) {
            s->count[i] += n;
            return;
        }
    size_t i = s->nreasons < SPOOR_SKIP_REASONS_MAX ? s->nreasons++ : SPOOR_SKIP_REASONS_MAX - 1;
    if (i == SPOOR_SKIP_REASONS_MAX - 1 && s->reason[i] && strcmp(s->reason[i], reason) != 0)
        reason = "other";
    s->reason[i] = reason;
    s->count[i] += n;
}

static void sample(struct spoor_skips *s, uint64_t line, const char *reason, const char *detail,
                   size_t detail_len)
{
    if (s->nsamples == SPOOR_SKIP_SAMPLES)
        return;
    size_t k = s->nsamples++;
    s->sample[k].line = line;
    s->sample[k].reason = reason;
    s->sample[k].byte = 0;
    size_t n = detail_len < sizeof s->sample[k].detail - 1 ? detail_len : sizeof s->sample[k].detail - 1;
    if (detail)
        memcpy(s->sample[k].detail, detail, n);
    else
        n = 0;
    s->sample[k].detail[n] = '\0';
}

void spoor_skips_add(struct spoor_skips *s, uint64_t line, const char *reason, const char *detail,
                     size_t detail_len)
{
    spoor_skips_add_lines(s, line, 1, reason, detail, detail_len);
}

void spoor_skips_add_lines(struct spoor_skips *s, uint64_t line, uint64_t n, const char *reason,
                           const char *detail, size_t detail_len)
{
    count(s, reason, n);
    sample(s, line, reason, detail, detail_len);
}

void spoor_skips_merge(struct spoor_skips *a, const struct spoor_skips *b, uint64_t line_offset)
{
    for (size_t i = 0; i < b->nreasons; i++)
        count(a, b->reason[i], b->count[i]);
    for (size_t k = 0; k < b->nsamples && a->nsamples < SPOOR_SKIP_SAMPLES; k++) {
        sample(a, b->sample[k].line + line_offset, b->sample[k].reason, b->sample[k].detail,
               strlen(b->sample[k].detail));
        a->sample[a->nsamples - 1].byte = b->sample[k].byte;
    }
}

void spoor_skip_where(char *buf, size_t cap, const char *path, enum spoor_records records, uint64_t line,
                      uint64_t byte)
{
    if (records != SPOOR_RECORDS_JSON_EVENTS)
        snprintf(buf, cap, "%s:%llu", path, (unsigned long long)line);
    else if (byte)
        snprintf(buf, cap, "%s: event %llu (byte %llu)", path, (unsigned long long)line,
                 (unsigned long long)(byte - 1));
    else
        snprintf(buf, cap, "%s: event %llu", path, (unsigned long long)line);
}

int spoor_skip_or_fail(struct spoor_skips *skips, const char *path, enum spoor_records records, bool strict,
                       uint64_t line, const char *reason, struct spoor_error *err)
{
    if (strict) {
        char where[600];
        spoor_skip_where(where, sizeof where, path, records, line, 0);
        return spoor_fail(err, SPOOR_ESTRICT, "%s: %s (--strict)", where, reason);
    }
    spoor_skips_add(skips, line, reason, NULL, 0);
    return SPOOR_OK;
}
