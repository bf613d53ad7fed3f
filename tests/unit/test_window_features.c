/* The window features' accumulator (features/window_features.h), which
 * libspoor and the kernel module share, on handmade request sequences whose
 * features are worked out by hand in the comments: buckets and their floors,
 * the 128-bit mul-div, one window of reads, distances across windows,
 * devices with their own tracks in one window, percentiles, and windows
 * that start empty after one that used far buckets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "features/window_features.h"

enum { R = SPOOR_WF_READ, W = SPOOR_WF_WRITE };
#define Q16(x) ((uint64_t)(x) << SPOOR_WF_Q)
#define MS 1000000u

/* Each value's bucket floor: itself below 32, else its 5 leading bits. */
static void buckets_keep_five_bits(void **state)
{
    (void)state;
    for (uint64_t v = 0; v < 32; v++)
        assert_int_equal(spoor_wf_bucket_floor(spoor_wf_bucket(v)), v);
    assert_int_equal(spoor_wf_bucket(31), 31);
    assert_int_equal(spoor_wf_bucket(32), 32);           /* the first shared bucket follows the exact ones */
    assert_int_equal(spoor_wf_bucket_floor(spoor_wf_bucket(33)), 32);   /* 100001 -> 10000 0 */
    assert_int_equal(spoor_wf_bucket_floor(spoor_wf_bucket(4096)), 4096);
    assert_int_equal(spoor_wf_bucket_floor(spoor_wf_bucket(12288)), 12288);
    assert_int_equal(spoor_wf_bucket_floor(spoor_wf_bucket(8000)), 7936);   /* 11111 01000000 */
    assert_int_equal(spoor_wf_bucket_floor(spoor_wf_bucket(10000)), 9728);  /* 10011 100010000 */
    /* clamped below 2^40: the last bucket */
    assert_int_equal(spoor_wf_bucket((uint64_t)1 << 40), SPOOR_WF_BUCKETS - 1);
    assert_int_equal(spoor_wf_bucket(UINT64_MAX), SPOOR_WF_BUCKETS - 1);
    assert_int_equal(spoor_wf_bucket_floor(SPOOR_WF_BUCKETS - 1), (uint64_t)31 << 35);
    /* every bucket's floor is in it, and floors rise with buckets */
    for (unsigned b = 0; b < SPOOR_WF_BUCKETS; b++) {
        assert_int_equal(spoor_wf_bucket(spoor_wf_bucket_floor(b)), b);
        if (b)
            assert_true(spoor_wf_bucket_floor(b) > spoor_wf_bucket_floor(b - 1));
    }
    /* at most 1/16 below the value */
    uint64_t seed = 88172645463325252u;
    for (int i = 0; i < 100000; i++) {
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        uint64_t v = seed >> (24 + i % 40), f = spoor_wf_bucket_floor(spoor_wf_bucket(v));
        assert_true(f <= v);
        assert_true(v - f <= f / 16);
    }
}

static void mul_div_has_128_bits(void **state)
{
    (void)state;
    assert_int_equal(spoor_wf_mul_div(10, 3, 4), 7);
    assert_int_equal(spoor_wf_mul_div(0, 3, 4), 0);
    assert_int_equal(spoor_wf_mul_div(UINT64_MAX, UINT64_MAX, UINT64_MAX), UINT64_MAX);
    assert_int_equal(spoor_wf_mul_div(1000000000000000000u, 1000, 1000000), 1000000000000000u);
    /* (2^63 + 1) * 6 / 4 = 1.5 * 2^63 + 1.5 */
    assert_int_equal(spoor_wf_mul_div(((uint64_t)1 << 63) + 1, 6, 4), ((uint64_t)3 << 62) + 1);
    /* a quotient of 2^64 or more saturates */
    assert_int_equal(spoor_wf_mul_div((uint64_t)1 << 63, 4, 2), UINT64_MAX);
    assert_int_equal(spoor_wf_mul_div(UINT64_MAX, 2, 1), UINT64_MAX);
}

/* Four reads of one device in one 1 ms window: sectors 0 (4 KiB, depth 1), 8
 * (4 KiB, depth 2: sequential), 10000 (8 KiB, depth 1: 9984 from 16, a jump)
 * and 100 (4 KiB, depth 3: 9916 from 10016, a jump); three completions of
 * 1000, 3000 and 2000 ns. */
static void one_window_of_reads(void **state)
{
    (void)state;
    struct spoor_wf_window *w = malloc(sizeof *w);
    struct spoor_wf_track t = {0};
    struct spoor_wf_features f[SPOOR_WF_NOPS];
    spoor_wf_clear(w);
    spoor_wf_issue(w, &t, R, 0, 4096, 1);
    spoor_wf_issue(w, &t, R, 8, 4096, 2);
    spoor_wf_complete(w, R, 1000);
    spoor_wf_issue(w, &t, R, 10000, 8192, 1);
    spoor_wf_complete(w, R, 3000);
    spoor_wf_issue(w, &t, R, 100, 4096, 3);
    spoor_wf_complete(w, R, 2000);
    spoor_wf_finish(w, MS, f);

    assert_int_equal(f[R].requests, 4);
    assert_int_equal(f[R].bytes, 20480);
    assert_int_equal(f[R].size_mean_q16, Q16(5120));
    assert_int_equal(f[R].size_median, 4096);           /* rank 2 of 4096 4096 4096 8192 */
    assert_int_equal(f[R].iops_q16, Q16(4000));         /* 4 in 1 ms */
    assert_int_equal(f[R].bandwidth_q16, Q16(20480000));
    assert_int_equal(f[R].completions, 3);
    assert_int_equal(f[R].latency_mean_q16, Q16(2000));
    assert_int_equal(f[R].latency_p50, 1984);           /* rank 2: 2000 = 11111 010000 */
    assert_int_equal(f[R].latency_p99, 2944);           /* rank 3: 3000 = 10111 0111000 */
    assert_int_equal(f[R].with_previous, 3);
    assert_int_equal(f[R].distance_mean_q16, Q16(19900) / 3);   /* (0 + 9984 + 9916) / 3 */
    assert_int_equal(f[R].jump_ratio_q16, Q16(2) / 3);
    assert_int_equal(f[R].sequential_ratio_q16, Q16(1) / 3);
    assert_int_equal(f[R].queue_depth_mean_q16, Q16(7) / 4);
    struct spoor_wf_features zero = {0};
    assert_memory_equal(&f[W], &zero, sizeof zero);

    /* the next window starts empty, but the track remembers where 100 + 8 ended */
    spoor_wf_issue(w, &t, R, 108, 512, 1);
    spoor_wf_finish(w, 2 * MS, f);
    assert_int_equal(f[R].requests, 1);
    assert_int_equal(f[R].completions, 0);
    assert_int_equal(f[R].latency_mean_q16, 0);
    assert_int_equal(f[R].with_previous, 1);
    assert_int_equal(f[R].sequential_ratio_q16, Q16(1));
    assert_int_equal(f[R].iops_q16, Q16(500));          /* 1 in 2 ms */
    assert_int_equal(f[R].size_median, 512);
    free(w);
}

/* Two devices in one window, each with its own track: device A writes 8 KiB
 * at 0 then at 16 (sequential), device B 4 KiB at 16 (its first: no
 * distance) then at 0 (24 back from its previous end). A device's reads have
 * their own end too. */
static void devices_keep_their_tracks(void **state)
{
    (void)state;
    struct spoor_wf_window *w = malloc(sizeof *w);
    struct spoor_wf_track a = {0}, b = {0};
    struct spoor_wf_features f[SPOOR_WF_NOPS];
    spoor_wf_clear(w);
    spoor_wf_issue(w, &a, W, 0, 8192, 1);
    spoor_wf_issue(w, &b, W, 16, 4096, 1);
    spoor_wf_issue(w, &a, W, 16, 8192, 1);
    spoor_wf_issue(w, &a, R, 5000, 4096, 2);   /* a's first read: no distance */
    spoor_wf_issue(w, &b, W, 0, 4096, 2);
    spoor_wf_finish(w, 3 * MS, f);
    assert_int_equal(f[W].requests, 4);
    assert_int_equal(f[W].with_previous, 2);
    assert_int_equal(f[W].distance_mean_q16, Q16(12));  /* (0 + 24) / 2 */
    assert_int_equal(f[W].sequential_ratio_q16, Q16(1) / 2);
    assert_int_equal(f[W].jump_ratio_q16, 0);
    assert_int_equal(f[W].size_median, 4096);           /* rank 2 of 4096 4096 8192 8192 */
    assert_int_equal(f[W].iops_q16, Q16(4000) / 3);     /* 4 in 3 ms */
    assert_int_equal(f[R].requests, 1);
    assert_int_equal(f[R].with_previous, 0);
    assert_int_equal(f[R].distance_mean_q16, 0);
    assert_int_equal(f[R].queue_depth_mean_q16, Q16(2));
    free(w);
}

/* p50 and p99 of 1..100 ns: ranks 50 and 99, 50 (exact: 11001 0) and 99
 * read as 96 (11000 11); of 10..70, p50 is the 4th (40 = 10100 0) and p99
 * the 7th (70 = 10001 10 reads 68). */
static void percentiles_by_nearest_rank(void **state)
{
    (void)state;
    struct spoor_wf_window *w = malloc(sizeof *w);
    struct spoor_wf_features f[SPOOR_WF_NOPS];
    spoor_wf_clear(w);
    for (uint64_t v = 100; v >= 1; v--)
        spoor_wf_complete(w, W, v);
    spoor_wf_finish(w, MS, f);
    assert_int_equal(f[W].latency_p50, 50);
    assert_int_equal(f[W].latency_p99, 96);
    assert_int_equal(f[W].latency_mean_q16, Q16(5050) / 100);
    assert_int_equal(f[W].requests, 0);
    for (uint64_t v = 1; v <= 7; v++)
        spoor_wf_complete(w, W, v * 10);
    spoor_wf_finish(w, MS, f);
    assert_int_equal(f[W].latency_p50, 40);
    assert_int_equal(f[W].latency_p99, 68);
    /* a finished window forgets its far buckets: 2^30 does not come back */
    spoor_wf_complete(w, W, 5);
    spoor_wf_complete(w, W, (uint64_t)1 << 30);
    spoor_wf_finish(w, MS, f);
    assert_int_equal(f[W].latency_p99, (uint64_t)1 << 30);
    spoor_wf_complete(w, W, 100);
    spoor_wf_finish(w, MS, f);
    assert_int_equal(f[W].latency_p50, 100);
    assert_int_equal(f[W].latency_p99, 100);
    assert_int_equal(f[W].completions, 1);
    for (unsigned b = 0; b < SPOOR_WF_BUCKETS; b++)
        assert_int_equal(w->ops[W].latency.count[b], 0);
    free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(buckets_keep_five_bits),
        cmocka_unit_test(mul_div_has_128_bits),
        cmocka_unit_test(one_window_of_reads),
        cmocka_unit_test(devices_keep_their_tracks),
        cmocka_unit_test(percentiles_by_nearest_rank),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
