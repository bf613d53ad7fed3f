/* Fitting the boot clock to a wall clock printed beside it (--align).
 *
 * A row gives a pair: its stamp b in ns since boot, and the local wall clock's
 * second of the day s at the same instant (printed HH:MM:SS, no date). The
 * offset o = wall - boot then lies in [s - b, s + 1 s - b), taken modulo a
 * day (the date comes later, from another input). The fit intersects those
 * intervals over every pair: the offset is the middle of what is left and
 * the error bound half its width.
 *
 * bpftrace formats the wall clock in user space when it prints the row, a
 * little after the stamp, so a pair's lower end can come out too high by that
 * lag and the intervals can cross: the middle of the crossing is taken then,
 * half its width is the bound, and the crossing is reported. */
#ifndef SPOOR_READ_WALL_FIT_H
#define SPOOR_READ_WALL_FIT_H

#include <stdint.h>

#include "read/wall_clock.h"

struct spoor_wall_fit {
    uint64_t pairs;
    int64_t lo, hi;         /* the intersection, in ns of the first pair's day */
    int64_t first_boot;     /* the smallest stamp */
};

static inline void spoor_wall_fit_add(struct spoor_wall_fit *f, int64_t boot_ns, int64_t tod_s)
{
    int64_t at = ((tod_s * 1000000000LL - boot_ns) % SPOOR_DAY_NS + SPOOR_DAY_NS) % SPOOR_DAY_NS;
    if (!f->pairs) {
        f->lo = at;
        f->hi = at + 1000000000LL;
        f->first_boot = boot_ns;
    }
    /* a day rolled between the two: the same offset a day apart */
    int64_t ref = f->lo;
    if (at - ref > SPOOR_DAY_NS / 2)
        at -= SPOOR_DAY_NS;
    else if (ref - at > SPOOR_DAY_NS / 2)
        at += SPOOR_DAY_NS;
    f->lo = at > f->lo ? at : f->lo;
    f->hi = at + 1000000000LL < f->hi ? at + 1000000000LL : f->hi;
    f->first_boot = boot_ns < f->first_boot ? boot_ns : f->first_boot;
    f->pairs++;
}

#endif
