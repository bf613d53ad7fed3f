/* The generator's event model: processes, threads and files, and the phases
 * each thread runs. A phase is built as a list of events in the order they are
 * written (end-time order within the thread: children before their parent). */
#ifndef SPOOR_GEN_MODEL_H
#define SPOOR_GEN_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gen/fmt.h"
#include "util/rng.h"
#include "spoor/gen.h"

enum gen_class { GEN_CLASS_META, GEN_CLASS_APP, GEN_CLASS_SYS, GEN_CLASS_KERNEL };

struct gen_kind {
    const char *cat, *name;
    enum gen_class cls;
};

/* Every (cat, name) the generator writes, indexed by enum gen_kind_id. */
extern const struct gen_kind gen_kinds[];

enum gen_kind_id {
    K_HH, K_FH,
    K_APP_LOAD_BATCH, K_APP_COMPUTE, K_APP_SAVE_CHECKPOINT, K_APP_READ_CONFIG,
    K_SYS_OPENAT, K_SYS_READ, K_SYS_WRITE, K_SYS_CLOSE, K_SYS_LSEEK, K_SYS_FSYNC,
    K_VFS_READ, K_VFS_WRITE, K_VFS_DO_FILP_OPEN, K_VFS_OPEN, K_VFS_FILP_CLOSE,
    K_VFS_FSYNC_RANGE,
    K_EXT4_FILE_READ_ITER, K_EXT4_FILE_WRITE_ITER, K_EXT4_FILE_OPEN, K_EXT4_LLSEEK,
    K_EXT4_DA_WRITE_BEGIN, K_EXT4_DA_WRITE_END, K_EXT4_SYNC_FILE, K_EXT4_WRITEPAGES,
    K_JBD2_COMPLETE_TRANSACTION,
    K_PC_FILEMAP_GET_PAGES, K_PC_SYNC_RA, K_PC_MARK_PAGE_ACCESSED, K_PC_GET_FOLIO,
    K_PC_FOLIO_MARK_DIRTY, K_PC_WRITE_AND_WAIT, K_PC_WB_WORKFN,
    K_BLK_SUBMIT_BIO, K_BLK_MQ_SUBMIT_BIO, K_BLK_COMPLETE_REQUEST,
    GEN_NKINDS
};

struct gen_file {
    char path[96];
    char hash[GEN_FMT_U128_MAX];
    uint8_t path_len, hash_len;
    uint64_t size;
};

struct gen_thread {
    int64_t pid, tid;
    int proc;                   /* index of its process; -1 for kworkers */
    int64_t clock_ns;           /* end of its last phase */
    bool ran;                   /* has run a phase */
    struct gen_file fresh;      /* --random-hashes: the file it works on now */
};

enum { GEN_DIGEST_WORDS = 6 };

/* One line of the trace. */
struct gen_event {
    uint16_t kind;
    int64_t pid, tid;           /* pid < 0: metadata without pid/tid (HH) */
    int64_t start_ns, dur_ns;   /* start is a whole µs: ts is written in µs */
    int64_t self_ns;            /* dur minus the durations of direct children */
    int64_t size;               /* args.size_sum, or -1 */
    const struct gen_file *file;/* args.fhash / FH path and value, or NULL */
    uint64_t call_id;           /* the enclosing call (its own id for a call); 0 = none */
    size_t first_nested;        /* calls: index in the phase of their first nested event */
    /* --random-hashes: args.rid (128-bit integer) and args.digest (96 hex
     * digits, the size of a SHA-384), fresh random bits on every event. */
    bool random_args;
    uint64_t rid_hi, rid_lo;
    uint64_t digest[GEN_DIGEST_WORDS];
};

enum { GEN_MAX_DEPTH = 8 };

struct gen_model {
    struct spoor_gen_opts opts;
    struct spoor_rng rng;
    char host_name[16];
    char host_hash[GEN_FMT_U128_MAX];
    uint8_t host_hash_len;

    struct gen_file *files;     /* shared dataset, configs, one checkpoint per process */
    size_t nfiles, ndataset, nconfig;
    uint8_t *fh_seen;           /* [proc * nfiles + file]: FH already written by that pid */
    uint8_t *file_named;        /* [file]: FH already written by any pid */
    uint64_t distinct_files;    /* files named by an FH event so far */

    struct gen_thread *threads;
    size_t nthreads;
    uint64_t next_call_id;

    /* The phase being built: its events in write order, the thread running it,
     * the spans opened and not yet closed (written when they close), the id
     * of the open system call (0 outside one) and the phase's clock. */
    struct gen_event *ev;
    size_t nev, cap;
    struct gen_thread *thread;
    struct {
        uint16_t kind;
        int64_t start_ns, child_ns;
        size_t first;           /* index of the first event nested in the span */
    } open[GEN_MAX_DEPTH];
    int depth;
    uint64_t open_call;
    int64_t now_ns;
};

void gen_model_init(struct gen_model *m, const struct spoor_gen_opts *opts);
void gen_model_free(struct gen_model *m);
/* The trace's first events (the host's HH) into m->ev. */
void gen_model_prologue(struct gen_model *m);
/* The next phase of the thread with the earliest clock into m->ev. */
void gen_model_next_phase(struct gen_model *m);
/* Threads and distinct pids that have run a phase so far. */
void gen_model_count_threads(const struct gen_model *m, uint64_t *threads, uint64_t *processes);

#endif
