/* Process names for `spoor report`: what each pid is called, from whatever
 * the inputs say about it, gathered in the same pass as the rest:
 *
 *   ps     a `ps aux` row (src/read/ps.c): its program (the row's name), the
 *          command line kept beside it;
 *   trace  the trace's own process names (process_name or PR metadata, the
 *          process lookup);
 *   comm   a row's `comm` column (bpftrace: the issuing process of a bio, the
 *          caller of an open), or the command of an nvidia-smi pmon row;
 *   log    a log record that carries a pid (pytext, mllog or any row with a
 *          `logger` column): its logger, else its input's file name.
 *
 * A pid takes its name from the first source in that order that names it
 * (a ps listing is what the user asked the system; a trace's names are
 * written by the traced program; a COMM is cut at 15 bytes and changes at
 * exec; a log's name says only where the record was written). Within one
 * source the name given most often wins, then the first by text, so the
 * answer is the same for any --threads and any order of batches. */
#ifndef SPOOR_ANALYZE_PROC_NAMES_H
#define SPOOR_ANALYZE_PROC_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "spoor/table.h"

/* The columns it reads. */
#define PROC_NAMES_ARG_KEYS "comm", "command", "logger"

enum proc_source { PROC_PS, PROC_TRACE, PROC_COMM, PROC_LOG, PROC_SOURCES };

struct proc_name {
    int64_t pid;
    const char *name;
    const char *command;        /* the ps command line; NULL unless from ps */
    enum proc_source source;
    uint64_t votes;             /* rows (or definitions) that gave this name */
};

struct proc_names {
    struct proc_name *v;        /* by pid */
    size_t n;
    struct spoor_strpool *pool; /* owns the texts */
};

struct proc_names_run;
struct proc_names_run *proc_names_begin(int threads);
/* A loader map(): any batch on any worker. */
void proc_names_add(struct proc_names_run *run, int worker, const struct spoor_table *batch);
/* Merges the workers into out and frees the run. */
void proc_names_end(struct proc_names_run *run, struct proc_names *out);
void proc_names_free(struct proc_names *n);
/* The pid's name, or NULL. */
const char *proc_names_of(const struct proc_names *n, int64_t pid);
const char *proc_source_name(enum proc_source s);

/* The `processes` sheet: pid, name, source, votes and the ps command. */
struct spoor_report;
void proc_names_sheet(struct spoor_report *r, const struct proc_names *n);

#endif
