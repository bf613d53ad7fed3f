/* The loader's steps shared by spoor_load (streaming) and spoor_load_table
 * (whole tables, which also write snapshots). */
#ifndef SPOOR_READ_LOADER_H
#define SPOOR_READ_LOADER_H

#include "spoor/load.h"

/* Detects the format of an opened input from its head (and tells the input
 * how its records divide); an error names the path. */
int load_detect(const char *path, struct spoor_input *in, const struct spoor_read_opts *read, struct spoor_dialect *d,
                struct spoor_error *err);

/* Parses one input through its reader on threads into the sink, filling rep. */
int load_parse(const char *path, size_t index, const struct spoor_load_opts *opts, const struct spoor_sink *sink,
               struct spoor_input_report *rep, struct spoor_error *err);

/* SPOOR_EUSAGE with err set when standard input ("-") is among paths more
 * than once: it can be read only once. */
int load_check_paths(const char *const *paths, size_t npaths, struct spoor_error *err);

/* An empty result with room for npaths inputs. */
void load_result_start(struct spoor_load_result *result, size_t npaths, const struct spoor_load_opts *opts);
/* The next input's report, named path. */
struct spoor_input_report *load_result_add(struct spoor_load_result *result, const char *path);

/* --align (spoor/load.h, struct spoor_boot_clock): *out is opts with the
 * boot clock's fit in out->read.boot when opts ask for it; read first from
 * the inputs (src/read/align.c). */
int load_align(const char *const *paths, size_t npaths, const struct spoor_load_opts *opts,
               struct spoor_load_opts *out, struct spoor_error *err);

#endif
