/* Comparisons of the interval engine with the brute-force reference, shared
 * by the interval tests. */
#ifndef SPOOR_TEST_INTERVAL_CHECK_H
#define SPOOR_TEST_INTERVAL_CHECK_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "attribute_reference.h"

static const enum spoor_iv_key check_keys[] = {SPOOR_IV_THREAD, SPOOR_IV_PID, SPOOR_IV_NONE};
static const enum spoor_attr_mode check_modes[] = {SPOOR_ATTR_SELF, SPOOR_ATTR_OVERLAP, SPOOR_ATTR_INCLUSIVE,
                                                   SPOOR_ATTR_NOTEBOOK};

/* spoor_nesting_build on 1 and 2 threads equals the reference. */
static inline void check_nesting(const struct spoor_table *t, const uint32_t *rows, size_t n, enum spoor_iv_key key)
{
    size_t cap = t->nrows ? t->nrows : 1;
    int32_t *depth = malloc(cap * sizeof *depth);
    uint32_t *parent = malloc(cap * sizeof *parent);
    int64_t *self = malloc(cap * sizeof *self);
    ref_nesting(t, rows, n, key, depth, parent, self);
    for (int threads = 1; threads <= 2; threads++) {
        struct spoor_nesting got;
        struct spoor_error err = {0};
        assert_int_equal(spoor_nesting_build(t, rows, n, key, threads, &got, &err), SPOOR_OK);
        for (size_t r = 0; r < t->nrows; r++) {
            if (got.depth[r] != depth[r] || got.parent[r] != parent[r] || got.self[r] != self[r])
                fail_msg("key %d row %zu: depth %d/%d parent %u/%u self %lld/%lld", (int)key, r, got.depth[r],
                         depth[r], got.parent[r], parent[r], (long long)got.self[r], (long long)self[r]);
        }
        spoor_nesting_free(&got);
    }
    free(depth);
    free(parent);
    free(self);
}

/* spoor_attribute on 1 and 2 threads equals the reference, every key and mode;
 * returns how many (call, function) entries were compared. */
static inline size_t check_attribution(const struct spoor_table *t, const uint32_t *calls, size_t ncalls,
                                       const uint32_t *events, size_t nevents)
{
    size_t compared = 0;
    for (size_t k = 0; k < sizeof check_keys / sizeof *check_keys; k++)
        for (size_t m = 0; m < sizeof check_modes / sizeof *check_modes; m++) {
            struct ref_call *want = ref_attribute(t, calls, ncalls, events, nevents, check_keys[k], check_modes[m]);
            size_t nc = calls ? ncalls : t->nrows;
            for (int threads = 1; threads <= 2; threads++) {
                struct spoor_attr_opts o = {check_keys[k], check_modes[m], threads};
                struct spoor_attribution got;
                struct spoor_error err = {0};
                assert_int_equal(spoor_attribute(t, calls, ncalls, events, nevents, &o, &got, &err), SPOOR_OK);
                assert_int_equal(got.ncalls, nc);
                for (size_t i = 0; i < nc; i++) {
                    size_t n = got.first[i + 1] - got.first[i];
                    if (got.covered[i] != want[i].covered || got.unattributed[i] != want[i].unattributed ||
                        n != want[i].n)
                        fail_msg("key %d mode %d call %zu: covered %lld/%lld unattributed %lld/%lld fns %zu/%zu",
                                 (int)check_keys[k], (int)check_modes[m], i, (long long)got.covered[i],
                                 (long long)want[i].covered, (long long)got.unattributed[i],
                                 (long long)want[i].unattributed, n, want[i].n);
                    for (size_t f = 0; f < n; f++) {
                        const struct spoor_attr_fn *g = &got.fns[got.first[i] + f];
                        const struct ref_fn *w = &want[i].fns[f];
                        if (g->name != w->name || g->cat != w->cat || g->ns != w->ns)
                            fail_msg("key %d mode %d call %zu fn %zu: %s.%s %lld, want %s.%s %lld",
                                     (int)check_keys[k], (int)check_modes[m], i, f, spoor_table_str(t, g->cat),
                                     spoor_table_str(t, g->name), (long long)g->ns, spoor_table_str(t, w->cat),
                                     spoor_table_str(t, w->name), (long long)w->ns);
                    }
                    compared += n;
                }
                spoor_attribution_free(&got);
            }
            ref_calls_free(want, nc);
        }
    return compared;
}

/* Rows whose cat is one of cats (NULL-terminated). */
static inline uint32_t *check_rows_of_cats(const struct spoor_table *t, const char *const *cats, size_t *n)
{
    uint32_t *rows = malloc((t->nrows ? t->nrows : 1) * sizeof *rows);
    *n = 0;
    for (size_t r = 0; r < t->nrows; r++)
        for (const char *const *c = cats; *c; c++)
            if (strcmp(spoor_table_str(t, t->cat[r]), *c) == 0) {
                rows[(*n)++] = (uint32_t)r;
                break;
            }
    return rows;
}

#endif
