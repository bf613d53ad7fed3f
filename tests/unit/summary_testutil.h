/* What the summary tests share: two summaries compared layer by layer.
 * Include after cmocka.h. */
#ifndef SPOOR_TEST_SUMMARY_TESTUTIL_H
#define SPOOR_TEST_SUMMARY_TESTUTIL_H

#include <stddef.h>
#include <string.h>

#include "spoor/summary.h"

/* The same layers, every figure. */
static inline void assert_same_layers(const struct spoor_summary *a, const struct spoor_summary *b)
{
    assert_int_equal(a->nlayers, b->nlayers);
    for (size_t i = 0; i < a->nlayers; i++) {
        const struct spoor_summary_layer *x = &a->layers[i], *y = &b->layers[i];
        assert_string_equal(x->cat, y->cat);
        assert_memory_equal(&x->count, &y->count,
                            offsetof(struct spoor_summary_layer, parent) - offsetof(struct spoor_summary_layer, count));
        assert_true(!x->parent == !y->parent && (!x->parent || !strcmp(x->parent, y->parent)));
        assert_true(x->parent_share == y->parent_share);
    }
}

#endif
