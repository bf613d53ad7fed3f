/* The temporaries being written right now, so that SIGINT, SIGTERM, SIGHUP and
 * SIGPIPE can remove them before the process dies (spoor_atomic_file_cleanup_on_signals
 * in spoor/write.h). A fixed table filled in advance: the signal handler
 * may only read memory and call async-signal-safe functions. */
#ifndef SPOOR_UTIL_TEMP_REGISTRY_H
#define SPOOR_UTIL_TEMP_REGISTRY_H

/* Creates a new file PREFIX + NNNNNN (O_EXCL, mode 0600, open read-write) whose name is in the
 * table before the file exists, so a signal at any moment finds every file it
 * must remove. Returns the descriptor and sets *path (malloc'ed) and *slot
 * (-1 when the table is full or the path too long: that temporary then
 * outlives a signal, and the next writer removes it); -1 with errno set. */
int spoor_temp_create(const char *prefix, char **path, int *slot);
/* After the temporary was renamed or removed; slot -1 is ignored. */
void spoor_temp_unregister(int slot);

#endif
