/* The rules that choose an attribution's kernel events (spoor/attribute.h,
 * struct spoor_attr_select): which cats are kernel-side, and the caller rule.
 * Shared by attribute_select.c and attribute_callers.c, and tested alone. */
#ifndef SPOOR_ANALYZE_ATTRIBUTE_RULES_H
#define SPOOR_ANALYZE_ATTRIBUTE_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/table.h"

/* Whether a cat is kernel-side: a kernel subsystem (sys, os_cache, vfs,
 * ext4, xfs, block, nvme, mm, ...) or a probe kind (kprobe..., kretprobe...,
 * tracepoint..., kern...), case aside. User-space cats (DataCrumbs' c and
 * app, DFTracer's POSIX and STDIO, any application's own) are not. */
bool spoor_attr_kernel_cat(const char *cat, size_t len);

/* The caller rule: removes from events[0..nevents) every event that encloses
 * (ts no later, end no earlier) a call on its own pid and tid: the call's
 * caller, never its kernel function. Keeps the order; returns how many stay. */
size_t spoor_attr_drop_callers(const struct spoor_table *t, const uint32_t *calls, size_t ncalls, uint32_t *events,
                               size_t nevents);

#endif
