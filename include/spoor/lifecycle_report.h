/* A `spoor lifecycle` result as a report: a table's lines and tables, JSON's
 * members, and CSV's long form (section,by,key,delay,count,sum_ns,mean_ns,
 * min_ns,max_ns,other_sum_ns,diff_ns,rel_diff: one value set per row, so it
 * pipes into any tool). docs/cli.md shows each. */
#ifndef SPOOR_LIFECYCLE_REPORT_H
#define SPOOR_LIFECYCLE_REPORT_H

#include <stdint.h>

#include "spoor/lifecycle.h"
#include "spoor/report.h"

/* Lines read and skipped over all inputs of the (first) log. */
struct spoor_lc_input {
    uint64_t lines, skipped;
};

/* The report of r; it points into s and r, which must outlive it. */
struct spoor_report *spoor_lc_report(const struct spoor_lc_spec *s, const struct spoor_lc_result *r,
                                     const struct spoor_lc_input *in);

#endif
