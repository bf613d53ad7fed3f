/* Writers of a `spoor lifecycle` result: long-form CSV (section,by,key,delay,
 * count,sum_ns,mean_ns,min_ns,max_ns,other_sum_ns,diff_ns,rel_diff), JSON, and
 * text tables for a terminal. docs/cli.md shows each. */
#ifndef SPOOR_LIFECYCLE_WRITE_H
#define SPOOR_LIFECYCLE_WRITE_H

#include <stdint.h>
#include <stdio.h>

#include "spoor/lifecycle.h"

/* Lines read and skipped over all inputs of the (first) log. */
struct spoor_lc_input {
    uint64_t lines, skipped;
};

void spoor_lc_write_csv(FILE *out, const struct spoor_lc_spec *s, const struct spoor_lc_result *r,
                        const struct spoor_lc_input *in);
void spoor_lc_write_json(FILE *out, const struct spoor_lc_spec *s, const struct spoor_lc_result *r,
                         const struct spoor_lc_input *in);
void spoor_lc_write_table(FILE *out, const struct spoor_lc_spec *s, const struct spoor_lc_result *r,
                          const struct spoor_lc_input *in);

#endif
