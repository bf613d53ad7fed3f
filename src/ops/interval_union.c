/* Exact unions of spans (int64 ns). */
#include "spoor/interval.h"

#include <stdbool.h>
#include <stdlib.h>

static int by_start(const void *a, const void *b)
{
    const struct spoor_span *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return (x->end > y->end) - (x->end < y->end);
}

static bool sorted_by_start(const struct spoor_span *s, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (s[i].start < s[i - 1].start)
            return false;
    return true;
}

size_t spoor_spans_union(struct spoor_span *s, size_t n)
{
    if (!sorted_by_start(s, n))
        qsort(s, n, sizeof *s, by_start);
    size_t out = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i].end <= s[i].start)
            continue;
        if (out && s[i].start <= s[out - 1].end) {
            if (s[i].end > s[out - 1].end)
                s[out - 1].end = s[i].end;
        } else {
            s[out++] = s[i];
        }
    }
    return out;
}

int64_t spoor_spans_length(const struct spoor_span *s, size_t n)
{
    int64_t len = 0;
    for (size_t i = 0; i < n; i++)
        len += s[i].end - s[i].start;
    return len;
}

int64_t spoor_spans_covered(const struct spoor_span *s, size_t n, int64_t lo, int64_t hi)
{
    size_t a = 0, b = n; /* first span ending after lo */
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (s[mid].end <= lo)
            a = mid + 1;
        else
            b = mid;
    }
    int64_t len = 0;
    for (size_t i = a; i < n && s[i].start < hi; i++) {
        int64_t from = s[i].start > lo ? s[i].start : lo;
        int64_t to = s[i].end < hi ? s[i].end : hi;
        len += to - from;
    }
    return len;
}
