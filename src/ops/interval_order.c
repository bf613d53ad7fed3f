/* Start order for one group without a full sort when the disorder is
 * bounded. A writer in end-time order puts a parent right after its
 * descendants, so every row is at most one call tree away from its place:
 * insertion from the end moves each row back over the few that start after
 * it. When the rows so far took more than MOVES_PER_ROW moves each (plus a
 * start-up allowance), the disorder is not of that kind and a full sort
 * decides; so a shuffled input costs a few hundred rows of insertion, and one
 * long event written far after its start costs one long move. (A sliding
 * min-heap of 64 rows took ~3 times as long on the attribute bench: six
 * unpredictable levels a row.) */
#include "ops/interval_internal.h"

#include <stdlib.h>

enum { MOVES_PER_ROW = 64, MOVES_AT_START = 4096 };

/* Sorts items[0..n) in place by insertion; false (items then in some order)
 * when the moves outgrow the bound above. */
static bool insert_in_order(struct iv_item *items, size_t n)
{
    size_t moves = 0;
    for (size_t i = 1; i < n; i++) {
        if (!iv_before(&items[i], &items[i - 1]))
            continue;
        struct iv_item x = items[i];
        size_t j = i;
        do {
            items[j] = items[j - 1];
            j--;
        } while (j > 0 && iv_before(&x, &items[j - 1]));
        items[j] = x;
        moves += i - j;
        if (moves > MOVES_PER_ROW * i + MOVES_AT_START)
            return false;
    }
    return true;
}

static int by_start(const void *a, const void *b)
{
    return iv_before(a, b) ? -1 : iv_before(b, a) ? 1 : 0;
}

void iv_order(struct iv_item *items, size_t n)
{
    if (!insert_in_order(items, n))
        qsort(items, n, sizeof *items, by_start);
}
