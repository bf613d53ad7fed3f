/* The k-way merges' tournament (see summary_internal.h). */
#include "summary_internal.h"

#include <stdlib.h>

void tournament_init(struct tournament *t, size_t n)
{
    t->leaves = 2;
    while (t->leaves < n)
        t->leaves *= 2;
    t->start = spoor_xmalloc(t->leaves * sizeof *t->start);
    t->loser = spoor_xmalloc(t->leaves * sizeof *t->loser);
    for (size_t leaf = 0; leaf < t->leaves; leaf++)
        t->start[leaf] = TOURNAMENT_DONE;
}

uint32_t tournament_build(struct tournament *t)
{
    /* winner[leaves + i] = i; each match's winner goes up, its loser stays */
    uint32_t *winner = spoor_xmalloc(2 * t->leaves * sizeof *winner);
    for (uint32_t leaf = 0; leaf < t->leaves; leaf++)
        winner[t->leaves + leaf] = leaf;
    for (size_t node = t->leaves - 1; node; node--) {
        uint32_t a = winner[2 * node], b = winner[2 * node + 1];
        bool b_wins = t->start[b] < t->start[a];
        winner[node] = b_wins ? b : a;
        t->loser[node] = b_wins ? a : b;
    }
    t->loser[0] = winner[1];
    free(winner);
    return t->loser[0];
}

void tournament_free(struct tournament *t)
{
    free(t->start);
    free(t->loser);
}
