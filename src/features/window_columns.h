/* The window features as named columns: the names `spoor windows` writes
 * ("read_size_mean", "write_iops", ...), and each one's value as a model
 * input in Q16, for the kernel module (which maps an exported model's
 * feature names onto its windows with these) and `spoor tune`. Freestanding,
 * as window_features.c. */
#ifndef SPOOR_FEATURES_WINDOW_COLUMNS_H
#define SPOOR_FEATURES_WINDOW_COLUMNS_H

#include "window_features.h"

/* The columns of one operation, in spoor windows' order; the CSV holds the
 * read ones, then the write ones, each prefixed by its operation. */
enum { SPOOR_WF_NCOLUMNS = 14 };

struct spoor_wf_column {
    const char *name;   /* without the "read_" or "write_" prefix */
    unsigned offset;    /* of its uint64_t in struct spoor_wf_features */
    bool q16;           /* held in Q16 (else a whole number) */
};

extern const struct spoor_wf_column spoor_wf_columns[SPOOR_WF_NCOLUMNS];
extern const char *const spoor_wf_op_names[SPOOR_WF_NOPS];   /* "read", "write" */

/* The column a full name ("read_jump_ratio") names: its operation and index.
 * False for any other name. */
bool spoor_wf_find_column(const char *name, unsigned *op, unsigned *column);

/* The column's value in Q16, floor(value * 2^16), as exported models take
 * their inputs: as held for a Q16 column, shifted for a whole number;
 * saturating at the largest int64_t (never reached by real windows). */
int64_t spoor_wf_column_q16(const struct spoor_wf_features f[SPOOR_WF_NOPS], unsigned op, unsigned column);

#endif
