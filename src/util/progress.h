/* A progress bar on stderr, drawn only when stderr is a terminal, redrawn at
 * most ten times a second so it costs nothing measurable. */
#ifndef SPOOR_PROGRESS_H
#define SPOOR_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct spoor_progress {
    bool active;
    const char *label;
    uint64_t total;
    double last_draw, start;
};

void spoor_progress_start(struct spoor_progress *p, bool enabled, const char *label, uint64_t total);
void spoor_progress_update(struct spoor_progress *p, uint64_t done);
/* Clears the bar line. */
void spoor_progress_finish(struct spoor_progress *p);

#endif
