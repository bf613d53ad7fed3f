/* Output files that appear whole or not at all: rows go to a temporary file
 * in the target's directory, renamed over the target on success and removed
 * on failure, so an error never leaves a truncated file behind (nor destroys
 * an existing one). A path of "-" or NULL means stdout. */
#ifndef SPOOR_ATOMIC_FILE_H
#define SPOOR_ATOMIC_FILE_H

#include <stdio.h>

#include "spoor/error.h"

struct spoor_atomic_file {
    FILE *fp;               /* write here */
    char *path;             /* the target, NULL for stdout */
    char *tmp;              /* the temporary file */
};

int spoor_atomic_file_open(struct spoor_atomic_file *f, const char *path, struct spoor_error *err);
/* Flushes, closes and renames into place. On failure the temporary is removed. */
int spoor_atomic_file_commit(struct spoor_atomic_file *f, struct spoor_error *err);
/* Closes and removes the temporary; the target is left as it was. */
void spoor_atomic_file_abort(struct spoor_atomic_file *f);

#endif
