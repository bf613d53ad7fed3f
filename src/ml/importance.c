#include "spoor/ml.h"

#include <stdlib.h>
#include <string.h>

#include "spoor/error.h"
#include "ml/importance.h"

void spoor_importance_shares(const double *score, size_t n, double *share)
{
    double total = 0;
    for (size_t j = 0; j < n; j++)
        total += score[j] > 0 ? score[j] : 0;
    for (size_t j = 0; j < n; j++)
        share[j] = total > 0 && score[j] > 0 ? score[j] / total : 0;
}

struct scored {
    double score;
    size_t index;
};

static int by_score_desc(const void *a, const void *b)
{
    const struct scored *x = a, *y = b;
    if (x->score != y->score)
        return x->score < y->score ? 1 : -1;
    return (x->index > y->index) - (x->index < y->index);
}

void spoor_importance_order(const double *score, size_t n, size_t *order)
{
    struct scored *s = spoor_xmalloc((n + 1) * sizeof *s);
    for (size_t j = 0; j < n; j++)
        s[j] = (struct scored){score[j], j};
    qsort(s, n, sizeof *s, by_score_desc);
    for (size_t j = 0; j < n; j++)
        order[j] = s[j].index;
    free(s);
}

size_t spoor_importance_cumulative(const double *share, const size_t *order, size_t n, double threshold)
{
    double sum = 0;
    for (size_t k = 0; k < n; k++) {
        sum += share[order[k]];
        /* A hair of slack so that "reaches 1.0" survives rounding of the shares. */
        if (sum >= threshold - 1e-12)
            return k + 1;
    }
    return n;
}

size_t spoor_importance_layer(const char *name, char sep, const char **layer)
{
    if (sep == 0)
        return strchr(name, '.') ? spoor_importance_layer(name, '.', layer) : spoor_importance_layer(name, '-', layer);
    if (sep == '-') {
        const char *last = strrchr(name, '-');
        if (!last || last == name || !last[1])
            return 0;
        *layer = last + 1;
        return strlen(last + 1);
    }
    const char *first = strchr(name, sep);
    if (!first || first == name || !first[1])
        return 0;
    *layer = name;
    return (size_t)(first - name);
}
