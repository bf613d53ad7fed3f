/* The readahead policy (readahead_policy.h). */
#include "readahead_policy.h"

void spoor_rap_start(struct spoor_rap_state *s, uint32_t device_kb)
{
    s->candidate = -1;
    s->streak = 0;
    s->applied = -1;
    s->kb = device_kb;
}

enum spoor_rap_decision spoor_rap_step(const struct spoor_rap_config *c, struct spoor_rap_state *s, uint64_t reads,
                                       int32_t cls, uint32_t action_kb)
{
    if (reads < c->min_requests)
        return SPOOR_RAP_IDLE;
    if (cls == s->candidate) {
        if (s->streak < c->hysteresis)
            s->streak++;
    } else {
        s->candidate = cls;
        s->streak = 1;
    }
    if (s->streak < c->hysteresis)
        return SPOOR_RAP_WAIT;
    uint32_t kb = action_kb < c->min_kb ? c->min_kb : action_kb > c->max_kb ? c->max_kb : action_kb;
    s->applied = cls;
    if (kb == s->kb)
        return SPOOR_RAP_KEEP;
    s->kb = kb;
    return SPOOR_RAP_SET;
}

const char *spoor_rap_decision_name(enum spoor_rap_decision d)
{
    static const char *const names[] = {"idle", "wait", "keep", "set"};
    return names[d];
}
