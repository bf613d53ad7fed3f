/* Output files that appear whole or not at all: rows go to a temporary file
 * in the target's directory, renamed over the target on success and removed
 * on failure, so an error never leaves a truncated file behind (nor destroys
 * an existing one). A temporary a killed writer left behind is removed by the
 * next writer of the same target. A path of "-" or NULL means stdout. A path that names
 * something other than a regular file (/dev/null, a FIFO, /dev/stdout) is
 * written in place: renaming over it would replace the device. */
#ifndef SPOOR_ATOMIC_FILE_H
#define SPOOR_ATOMIC_FILE_H

#include <stdbool.h>
#include <stdio.h>

#include "spoor/error.h"

struct spoor_atomic_file {
    FILE *fp;               /* write here (a temporary's descriptor reads too) */
    char *path;             /* the target, NULL for stdout */
    char *tmp;              /* the temporary file, NULL when the target is written in place */
    int slot;               /* tmp's place in the list a signal handler removes */
};

/* Whether path exists and is neither a regular file nor a directory: a
 * device, FIFO or socket, which output goes to directly. */
bool spoor_path_is_special(const char *path);

/* The directory holding path, malloc'ed: "." for a bare name, "/" for /x. */
char *spoor_path_dir(const char *path);

int spoor_atomic_file_open(struct spoor_atomic_file *f, const char *path, struct spoor_error *err);
/* Flushes, closes and renames into place. On failure the temporary is removed. */
int spoor_atomic_file_commit(struct spoor_atomic_file *f, struct spoor_error *err);
/* Closes and removes the temporary; the target is left as it was. */
void spoor_atomic_file_abort(struct spoor_atomic_file *f);

/* Makes SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ and SIGXCPU remove every open temporary, then end the
 * process by the same signal. Signals that are ignored (nohup) stay ignored.
 * A program calls it once, before it starts threads. */
void spoor_atomic_file_cleanup_on_signals(void);

#endif
