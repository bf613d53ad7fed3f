/* The readahead policy the module and spoor tune share
 * (features/readahead_policy.h), and the window columns by name
 * (features/window_columns.h): hysteresis, idle windows, bounds, and the
 * model inputs of a window's features. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "features/readahead_policy.h"
#include "features/window_columns.h"

enum { SEQ = 0, RAND = 1, MIXED = 2 };
static const uint32_t action_kb[] = {[SEQ] = 1024, [RAND] = 4, [MIXED] = 64};

static enum spoor_rap_decision step(const struct spoor_rap_config *c, struct spoor_rap_state *s, uint64_t reads,
                                    int cls)
{
    return spoor_rap_step(c, s, reads, cls, action_kb[cls]);
}

/* Two windows in a row before a change; a lone odd window changes nothing. */
static void hysteresis_waits_for_a_run(void **state)
{
    (void)state;
    struct spoor_rap_config c = {.hysteresis = 2, .min_kb = 0, .max_kb = 4096, .min_requests = 8};
    struct spoor_rap_state s;
    spoor_rap_start(&s, 128);
    assert_int_equal(step(&c, &s, 100, SEQ), SPOOR_RAP_WAIT);
    assert_int_equal(s.kb, 128);
    assert_int_equal(s.applied, -1);
    assert_int_equal(step(&c, &s, 100, SEQ), SPOOR_RAP_SET);
    assert_int_equal(s.kb, 1024);
    assert_int_equal(s.applied, SEQ);
    assert_int_equal(step(&c, &s, 100, SEQ), SPOOR_RAP_KEEP);
    assert_int_equal(step(&c, &s, 100, RAND), SPOOR_RAP_WAIT);  /* one odd window */
    assert_int_equal(step(&c, &s, 100, SEQ), SPOOR_RAP_WAIT);   /* the run starts over */
    assert_int_equal(step(&c, &s, 100, SEQ), SPOOR_RAP_KEEP);
    assert_int_equal(s.kb, 1024);
    assert_int_equal(step(&c, &s, 100, RAND), SPOOR_RAP_WAIT);
    assert_int_equal(step(&c, &s, 100, RAND), SPOOR_RAP_SET);
    assert_int_equal(s.kb, 4);
    assert_int_equal(s.applied, RAND);
    assert_string_equal(spoor_rap_decision_name(SPOOR_RAP_SET), "set");
    assert_string_equal(spoor_rap_decision_name(SPOOR_RAP_IDLE), "idle");
}

/* Windows with too few reads are not classified and do not break a run. */
static void idle_windows_neither_count_nor_break(void **state)
{
    (void)state;
    struct spoor_rap_config c = {.hysteresis = 3, .min_kb = 0, .max_kb = 4096, .min_requests = 8};
    struct spoor_rap_state s;
    spoor_rap_start(&s, 128);
    assert_int_equal(step(&c, &s, 8, MIXED), SPOOR_RAP_WAIT);
    assert_int_equal(step(&c, &s, 7, RAND), SPOOR_RAP_IDLE);
    assert_int_equal(step(&c, &s, 0, SEQ), SPOOR_RAP_IDLE);
    assert_int_equal(step(&c, &s, 9, MIXED), SPOOR_RAP_WAIT);
    assert_int_equal(s.streak, 2);
    assert_int_equal(step(&c, &s, 9, MIXED), SPOOR_RAP_SET);
    assert_int_equal(s.kb, 64);
}

/* The action is clamped to the bounds; hysteresis 1 acts at once; a class
 * whose readahead is already in force is kept, not set again. */
static void bounds_clamp_the_action(void **state)
{
    (void)state;
    struct spoor_rap_config c = {.hysteresis = 1, .min_kb = 16, .max_kb = 512, .min_requests = 1};
    struct spoor_rap_state s;
    spoor_rap_start(&s, 512);
    assert_int_equal(step(&c, &s, 1, SEQ), SPOOR_RAP_KEEP);     /* 1024 clamps to 512, in force */
    assert_int_equal(s.applied, SEQ);
    assert_int_equal(step(&c, &s, 1, RAND), SPOOR_RAP_SET);
    assert_int_equal(s.kb, 16);
    assert_int_equal(step(&c, &s, 1, MIXED), SPOOR_RAP_SET);
    assert_int_equal(s.kb, 64);
    /* the streak saturates: a very long run cannot wrap it */
    c.hysteresis = 2;
    for (int i = 0; i < 1000; i++)
        step(&c, &s, 1, MIXED);
    assert_int_equal(s.streak, 2);
}

/* Names as spoor windows writes them, and values as Q16 model inputs. */
static void columns_by_name(void **state)
{
    (void)state;
    unsigned op, col;
    assert_true(spoor_wf_find_column("read_requests", &op, &col));
    assert_int_equal(op, SPOOR_WF_READ);
    assert_string_equal(spoor_wf_columns[col].name, "requests");
    assert_true(spoor_wf_find_column("write_queue_depth_mean", &op, &col));
    assert_int_equal(op, SPOOR_WF_WRITE);
    assert_int_equal(col, SPOOR_WF_NCOLUMNS - 1);
    assert_false(spoor_wf_find_column("read_", &op, &col));
    assert_false(spoor_wf_find_column("read_requestsx", &op, &col));
    assert_false(spoor_wf_find_column("readrequests", &op, &col));
    assert_false(spoor_wf_find_column("requests", &op, &col));
    assert_false(spoor_wf_find_column("trace_sector_jump_ratio", &op, &col));

    struct spoor_wf_features f[SPOOR_WF_NOPS];
    memset(f, 0, sizeof f);
    f[SPOOR_WF_READ].requests = 64;
    f[SPOOR_WF_READ].jump_ratio_q16 = 49152; /* 0.75 */
    f[SPOOR_WF_WRITE].latency_p99 = (uint64_t)1 << 50;
    assert_true(spoor_wf_find_column("read_requests", &op, &col));
    assert_int_equal(spoor_wf_column_q16(f, op, col), 64 << 16);
    assert_true(spoor_wf_find_column("read_jump_ratio", &op, &col));
    assert_int_equal(spoor_wf_column_q16(f, op, col), 49152);
    assert_true(spoor_wf_find_column("write_latency_p99", &op, &col));
    assert_int_equal(spoor_wf_column_q16(f, op, col), INT64_MAX);    /* saturates */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hysteresis_waits_for_a_run),
        cmocka_unit_test(idle_windows_neither_count_nor_break),
        cmocka_unit_test(bounds_clamp_the_action),
        cmocka_unit_test(columns_by_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
