/* The temporaries being written right now, so that SIGINT, SIGTERM, SIGHUP and
 * SIGPIPE can remove them before the process dies (spoor_atomic_file_cleanup_on_signals
 * in spoor/atomic_file.h). A fixed table filled in advance: the signal handler
 * may only read memory and call async-signal-safe functions. */
#ifndef SPOOR_UTIL_TEMP_REGISTRY_H
#define SPOOR_UTIL_TEMP_REGISTRY_H

/* Returns the slot holding path, or -1 when the table is full or the path too
 * long (that temporary then outlives a signal, and the next writer removes it). */
int spoor_temp_register(const char *path);
/* After the temporary was renamed or removed; slot -1 is ignored. */
void spoor_temp_unregister(int slot);

#endif
