#include "util/progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void spoor_progress_start(struct spoor_progress *p, bool enabled, const char *label, uint64_t total)
{
    p->active = enabled && isatty(STDERR_FILENO);
    p->label = label;
    p->total = total;
    p->start = p->last_draw = now();
}

void spoor_progress_update(struct spoor_progress *p, uint64_t done)
{
    if (!p->active)
        return;
    double t = now();
    /* Only long work shows a bar: nothing in the first half second. */
    if (t - p->last_draw < 0.1 || t - p->start < 0.5)
        return;
    p->last_draw = t;
    double frac = p->total ? (double)done / (double)p->total : 0;
    if (frac > 1)
        frac = 1;
    int width = 30, fill = (int)(frac * width);
    fprintf(stderr, "\r%-24.24s [", p->label);
    for (int i = 0; i < width; i++)
        fputc(i < fill ? '#' : '.', stderr);
    fprintf(stderr, "] %3d%%", (int)(frac * 100));
    fflush(stderr);
}

void spoor_progress_finish(struct spoor_progress *p)
{
    if (p->active && p->last_draw > p->start)
        fprintf(stderr, "\r%70s\r", "");
    p->active = false;
}
