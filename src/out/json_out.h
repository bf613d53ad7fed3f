/* Writing JSON text: string escaping shared by every JSON/JSONL output. */
#ifndef SPOOR_JSON_OUT_H
#define SPOOR_JSON_OUT_H

#include <stddef.h>
#include <stdio.h>

/* Writes s as a quoted JSON string: quotes, backslashes and control bytes
 * escaped; invalid UTF-8 bytes replaced by U+FFFD so the output always parses. */
void spoor_json_write_string(FILE *out, const char *s, size_t len);

#endif
