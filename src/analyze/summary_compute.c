/* When no event is of the compute list, the summary names what looks like
 * compute in the trace, so that a writer's own name for it (DLIO's
 * "train-compute", "computation", an app phase "app.compute_step") is found
 * and given with --compute-cats instead of reading "compute 0 ns". */
#include "summary_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIKE_MAX 8

/* Whether s holds (ASCII case aside) a word that names compute. */
static bool looks_like_compute(const char *s)
{
    static const char *const words[] = {"comput", "cpu", "gpu", "train", "forward", "backward"};
    size_t n = strlen(s);
    char *lower = spoor_xmalloc(n + 1);
    for (size_t i = 0; i <= n; i++)
        lower[i] = (char)tolower((unsigned char)s[i]);
    bool like = false;
    for (size_t w = 0; w < sizeof words / sizeof *words && !like; w++)
        like = strstr(lower, words[w]) != NULL;
    free(lower);
    return like;
}

static void append(char *list, size_t cap, const char *a, const char *b)
{
    size_t len = strlen(list);
    snprintf(list + len, cap - len, "%s%s%s%s", len ? "," : "", a, b ? "." : "", b ? b : "");
}

void summary_compute_like(const struct summary_acc *acc, struct spoor_summary *out)
{
    if (acc->compute_rows)
        return;
    size_t n = 0, cap = 1;
    for (size_t c = 0; c < acc->cats_cap; c++)
        if (acc->cats[c].count)
            cap += strlen(spoor_strpool_get(acc->strings, (uint32_t)c, NULL)) + 1;
    for (uint32_t f = 0; f < acc->fns.n; f++)
        cap += strlen(spoor_strpool_get(acc->strings, (uint32_t)(acc->fns.keys[f] >> 32), NULL)) +
               strlen(spoor_strpool_get(acc->strings, (uint32_t)acc->fns.keys[f], NULL)) + 2;
    char *list = spoor_xcalloc(cap, 1);
    /* Cats first, in order of first sight; then functions of other cats. */
    bool *like_cat = spoor_xcalloc(acc->cats_cap + 1, sizeof *like_cat);
    for (size_t c = 0; c < acc->cats_cap && n < LIKE_MAX; c++) {
        const char *cat = spoor_strpool_get(acc->strings, (uint32_t)c, NULL);
        if (acc->cats[c].count && looks_like_compute(cat)) {
            like_cat[c] = true;
            append(list, cap, cat, NULL);
            n++;
        }
    }
    for (uint32_t f = 0; f < acc->fns.n && n < LIKE_MAX; f++) {
        uint32_t cat = (uint32_t)(acc->fns.keys[f] >> 32);
        const char *name = spoor_strpool_get(acc->strings, (uint32_t)acc->fns.keys[f], NULL);
        if (!like_cat[cat] && looks_like_compute(name)) {
            append(list, cap, spoor_strpool_get(acc->strings, cat, NULL), name);
            n++;
        }
    }
    if (n)
        out->compute_like = summary_own(out, list);
    free(like_cat);
    free(list);
}
