/* The check every writing command makes after parsing: no output may be an
 * input (same file, or the same path once symlinks are resolved), an input's
 * gzip index or snapshot sidecar, or another output. Writing there would
 * replace the data the run reads, or that the next run trusts. */
#ifndef SPOOR_OUTPUT_GUARD_H
#define SPOOR_OUTPUT_GUARD_H

#include <stddef.h>

/* The outputs a command writes (NULL entries and "-" are stdout; devices such
 * as /dev/null are never checked) against its inputs ("-" is stdin and is
 * skipped). cache_dir is --cache-dir, or NULL. Returns 0 when they are apart;
 * otherwise prints "spoor CMD: ..." naming both and returns 2. */
int output_guard(const char *cmd, const char *const *outputs, size_t noutputs, const char *const *inputs,
                 size_t ninputs, const char *cache_dir);

/* One output: output_guard(cmd, &output, 1, ...). */
int output_guard1(const char *cmd, const char *output, const char *const *inputs, size_t ninputs,
                  const char *cache_dir);

#endif
