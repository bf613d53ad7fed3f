/* Where a trace's snapshot lives: beside it, or in a cache directory under a
 * name made from the trace's absolute path (traces in read-only directories). */
#include "spoor/load.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void spoor_snapshot_path(const char *trace, const char *cache_dir, char *out, size_t cap)
{
    if (!cache_dir) {
        snprintf(out, cap, "%s.spoor-snap", trace);
        return;
    }
    char *abs = realpath(trace, NULL);
    const char *name = abs ? abs : trace;
    snprintf(out, cap, "%s/%016" PRIx64 ".spoor-snap", cache_dir, spoor_hash_bytes(name, strlen(name)));
    free(abs);
}
