/* Helpers shared by the table's own files; not part of the public API. */
#ifndef SPOOR_TABLE_INTERNAL_H
#define SPOOR_TABLE_INTERNAL_H

#include "spoor/table.h"

void spoor_table_reserve(struct spoor_table *t, size_t rows);
/* Grows a column's storage from old_cap to new_cap rows, new rows invalid. */
void spoor_column_reserve(struct spoor_column *col, size_t old_cap, size_t new_cap);
/* Inline: adding a row clears every column's bit, so a call per column was a
 * measurable part of reading a wide table. */
static inline void spoor_column_unset(struct spoor_column *col, size_t row)
{
    col->valid[row / 64] &= ~(1ULL << (row % 64));
}
void spoor_lookup_reset(struct spoor_lookup *l);

#endif
