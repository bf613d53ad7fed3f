/* Begin/end pairs: a B event and the E that ends it on the same pid and tid
 * become one row, in input order, across batches (pair.c). */
#ifndef SPOOR_READ_PAIR_H
#define SPOOR_READ_PAIR_H

#include <stdbool.h>

#include "spoor/error.h"
#include "spoor/load.h"
#include "spoor/table.h"
#include "io/input.h"

struct pair_state;

struct pair_state *pair_new(void);
void pair_free(struct pair_state *ps);
/* Whether the batch has B or E rows (then it must go through pair_batch
 * before any sink sees it). */
bool pair_batch_needs(const struct spoor_table *b);
/* Pairs the batch's rows in order (absolute lines): each B is held, each E
 * becomes the row of its pair (ts = B.ts, dur = E.ts - B.ts, ph 'X', B's
 * name, cat and line, the args of both, E's on a clash); an E with no open B
 * on its thread is dropped and counted in skips. *view is the batch without
 * those rows (b itself when none was dropped; else free it with
 * spoor_table_select_free). With strict, an unmatched E is an error. */
int pair_batch(struct pair_state *ps, struct spoor_table *b, struct spoor_skips *skips, const char *path,
               enum spoor_records records, bool strict, struct spoor_table **view, struct spoor_error *err);
/* At the end of the input: every B still open is counted in skips (an
 * error with strict). */
int pair_finish(struct pair_state *ps, struct spoor_skips *skips, const char *path, enum spoor_records records,
                bool strict, struct spoor_error *err);

#endif
