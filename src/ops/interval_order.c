/* Start order for one group without a full sort when the disorder is
 * bounded. A writer in end-time order puts a parent right after its
 * descendants, so every row is at most one call tree away from its place: a
 * sliding min-heap of w rows emits them in order. If a row smaller than one
 * already emitted arrives, the window was too small: retry with a wider one,
 * then sort. */
#include "ops/interval_internal.h"

#include <stdlib.h>
#include <string.h>

static const size_t windows[] = {64, 4096};

static void sift_down(struct iv_item *h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < n && iv_before(&h[l], &h[m]))
            m = l;
        if (l + 1 < n && iv_before(&h[l + 1], &h[m]))
            m = l + 1;
        if (m == i)
            return;
        struct iv_item x = h[i];
        h[i] = h[m];
        h[m] = x;
        i = m;
    }
}

static void sift_up(struct iv_item *h, size_t i)
{
    while (i && iv_before(&h[i], &h[(i - 1) / 2])) {
        struct iv_item x = h[i];
        h[i] = h[(i - 1) / 2];
        h[(i - 1) / 2] = x;
        i = (i - 1) / 2;
    }
}

static struct iv_item pop(struct iv_item *h, size_t *n)
{
    struct iv_item top = h[0];
    h[0] = h[--*n];
    sift_down(h, *n, 0);
    return top;
}

/* Writes in[0..n) in start order to out; false when a row came more than w
 * places too late. */
static bool reorder(const struct iv_item *in, size_t n, size_t w, struct iv_item *out, struct iv_item *heap)
{
    size_t hn = 0, k = 0;
    for (size_t i = 0; i < n; i++) {
        heap[hn] = in[i];
        sift_up(heap, hn++);
        if (hn > w) {
            out[k] = pop(heap, &hn);
            if (k && iv_before(&out[k], &out[k - 1]))
                return false;
            k++;
        }
    }
    while (hn) {
        out[k] = pop(heap, &hn);
        if (k && iv_before(&out[k], &out[k - 1]))
            return false;
        k++;
    }
    return true;
}

static int by_start(const void *a, const void *b)
{
    return iv_before(a, b) ? -1 : iv_before(b, a) ? 1 : 0;
}

static bool in_order(const struct iv_item *v, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (iv_before(&v[i], &v[i - 1]))
            return false;
    return true;
}

void iv_order(struct iv_item *items, size_t n)
{
    if (in_order(items, n))
        return;
    struct iv_item *out = spoor_xmalloc(n * sizeof *out);
    bool done = false;
    for (size_t i = 0; i < sizeof windows / sizeof *windows && windows[i] < n && !done; i++) {
        struct iv_item *heap = spoor_xmalloc((windows[i] + 1) * sizeof *heap);
        done = reorder(items, n, windows[i], out, heap);
        free(heap);
    }
    if (done)
        memcpy(items, out, n * sizeof *out);
    else
        qsort(items, n, sizeof *items, by_start);
    free(out);
}
