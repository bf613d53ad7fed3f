/* Shared helpers for the cmocka unit tests. */
#ifndef SPOOR_TESTUTIL_H
#define SPOOR_TESTUTIL_H

#include <stddef.h>

/* Full path of a file under ../shared/data (SPOOR_DATA). When the shared data
 * folder is absent (a user's clone), prints why and exits 77, which CTest
 * reports as skipped. The returned string is static storage, valid until the next call. */
const char *testutil_data(const char *relative);

/* A fresh scratch directory for this test process (under SPOOR_TMP or /tmp). */
const char *testutil_tmpdir(void);

/* Writes len bytes to dir/name and returns the full path (static storage). */
const char *testutil_write(const char *name, const void *data, size_t len);

#endif
