/* `spoor gen`: a synthetic DataCrumbs trace with a ground-truth sidecar.
 *
 * The trace is in the DataCrumbs Python 2024 dialect (json.dumps spacing, a
 * first line "[", no closing "]", ts in µs, dur in ns, 128-bit integer hashes,
 * HH/FH metadata). Processes with a few threads each run application phases
 * (cat "app") made of system calls (cat "sys"); every system call carries a
 * unique args.call_id and has kernel-function events (cats vfs, ext4,
 * os_cache, block) nested strictly inside its time span on the same pid/tid;
 * kworker threads add background kernel events outside any call.
 *
 * Order: within a thread, events are written in end-time order, as an eBPF
 * writer emits them: a call's nested kernel events come before the call line,
 * and calls, app phases and kernel trees follow each other in time. Threads are
 * interleaved phase by phase, earliest clock first.
 *
 * The same options and seed always give the same bytes; a .gz path gives the
 * gzip of exactly those bytes. The sidecar PATH.truth.json (see docs) lists
 * totals, per (cat, name) counts and duration sums, and for every call the
 * line, name and duration of each kernel event nested in it. */
#ifndef SPOOR_GEN_H
#define SPOOR_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/error.h"

struct spoor_gen_opts {
    uint64_t size_bytes;    /* uncompressed target: stops after the phase that reaches it */
    int procs;              /* application processes; 0 = 4 */
    uint64_t seed;
    bool random_hashes;     /* a fresh file per open, and per event a random 128-bit
                               args.rid and 96-hex-digit args.digest: gzip -6
                               compresses ~3.5:1 instead of real traces' 10-25:1 */
    bool truth;             /* also write PATH.truth.json */
    int gzip_level;         /* for paths ending in .gz: 1..9; 0 = 6 */
};

struct spoor_gen_result {
    uint64_t lines;             /* "[" included */
    uint64_t events;            /* complete ("X") events */
    uint64_t metadata_events;   /* HH and FH */
    uint64_t calls;             /* system calls */
    uint64_t kernel_events;     /* nested in a call */
    uint64_t background_events; /* kernel events outside any call */
    uint64_t bytes;             /* uncompressed */
    uint64_t disk_bytes;        /* as written (compressed for .gz) */
};

/* Writes the trace to path (through a temporary file renamed at the end, so a
 * reader never sees half a trace) and, when opts->truth, its sidecar. Fails
 * with SPOOR_EUSAGE, before writing, when the size cannot fit in the free
 * space of path's filesystem. */
int spoor_gen_write(const char *path, const struct spoor_gen_opts *opts,
                    struct spoor_gen_result *result, struct spoor_error *err);

/* The sidecar path for a trace: PATH.truth.json. */
void spoor_gen_truth_path(const char *trace, char *out, size_t cap);

#endif
