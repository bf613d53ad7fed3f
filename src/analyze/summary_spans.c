/* Exact unions per group: rows bucketed by group with a counting sort in start
 * order, then each (sorted) bucket merged by spoor_spans_union. */
#include "summary_internal.h"

#include <stdlib.h>
#include <string.h>

static bool row_span(const struct spoor_table *t, size_t r, struct spoor_span *s)
{
    int64_t ts = t->ts[r], dur = t->dur[r];
    if (ts == SPOOR_NULL || dur == SPOOR_NULL || dur < 0 || ts > INT64_MAX - dur)
        return false;
    *s = (struct spoor_span){ts, ts + dur};
    return true;
}

void grouped_spans_build(const struct spoor_table *t, const struct summary_rows *rows, const uint32_t *group,
                         size_t ngroups, struct grouped_spans *out)
{
    size_t *first = spoor_xcalloc(ngroups + 1, sizeof *first);
    struct spoor_span s;
    for (size_t r = 0; r < t->nrows; r++)
        if (group[r] != SUMMARY_NO_GROUP && row_span(t, r, &s))
            first[group[r] + 1]++;
    for (size_t g = 0; g < ngroups; g++)
        first[g + 1] += first[g];
    struct spoor_span *spans = spoor_xmalloc((first[ngroups] ? first[ngroups] : 1) * sizeof *spans);
    size_t *fill = spoor_xmalloc((ngroups ? ngroups : 1) * sizeof *fill);
    memcpy(fill, first, ngroups * sizeof *fill);
    for (size_t i = 0; i < t->nrows; i++) {
        uint32_t r = rows->order[i];
        if (group[r] != SUMMARY_NO_GROUP && row_span(t, r, &s))
            spans[fill[group[r]]++] = s;
    }
    /* Union each bucket in place, then close the gaps. */
    size_t out_n = 0;
    for (size_t g = 0; g < ngroups; g++) {
        size_t n = spoor_spans_union(spans + first[g], first[g + 1] - first[g]);
        memmove(spans + out_n, spans + first[g], n * sizeof *spans);
        first[g] = out_n;
        out_n += n;
    }
    first[ngroups] = out_n;
    free(fill);
    *out = (struct grouped_spans){spans, first, ngroups};
}

int64_t grouped_spans_length(const struct grouped_spans *g, size_t group)
{
    return spoor_spans_length(g->spans + g->first[group], g->first[group + 1] - g->first[group]);
}

void grouped_spans_free(struct grouped_spans *g)
{
    free(g->spans);
    free(g->first);
    memset(g, 0, sizeof *g);
}

int64_t spans_intersection(const struct spoor_span *a, size_t na, const struct spoor_span *b, size_t nb)
{
    int64_t total = 0;
    size_t i = 0, j = 0;
    while (i < na && j < nb) {
        int64_t lo = a[i].start > b[j].start ? a[i].start : b[j].start;
        int64_t hi = a[i].end < b[j].end ? a[i].end : b[j].end;
        if (hi > lo)
            total += hi - lo;
        if (a[i].end < b[j].end)
            i++;
        else
            j++;
    }
    return total;
}
