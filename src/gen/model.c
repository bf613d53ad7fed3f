/* Builds the synthetic workload phase by phase. Spans are opened and closed
 * like a call stack: a span's event is appended when it closes, so children
 * precede their parent (end-time order) and every child lies strictly inside
 * its parent: it starts at least 1 µs after the parent and ends before it. */
#include "gen/model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spoor/error.h"

const struct gen_kind gen_kinds[GEN_NKINDS] = {
    [K_HH] = {"dftracer", "HH", GEN_CLASS_META},
    [K_FH] = {"dftracer", "FH", GEN_CLASS_META},
    [K_APP_LOAD_BATCH] = {"app", "load_batch", GEN_CLASS_APP},
    [K_APP_COMPUTE] = {"app", "compute", GEN_CLASS_APP},
    [K_APP_SAVE_CHECKPOINT] = {"app", "save_checkpoint", GEN_CLASS_APP},
    [K_APP_READ_CONFIG] = {"app", "read_config", GEN_CLASS_APP},
    [K_SYS_OPENAT] = {"sys", "openat", GEN_CLASS_SYS},
    [K_SYS_READ] = {"sys", "read", GEN_CLASS_SYS},
    [K_SYS_WRITE] = {"sys", "write", GEN_CLASS_SYS},
    [K_SYS_CLOSE] = {"sys", "close", GEN_CLASS_SYS},
    [K_SYS_LSEEK] = {"sys", "lseek", GEN_CLASS_SYS},
    [K_SYS_FSYNC] = {"sys", "fsync", GEN_CLASS_SYS},
    [K_VFS_READ] = {"vfs", "vfs_read", GEN_CLASS_KERNEL},
    [K_VFS_WRITE] = {"vfs", "vfs_write", GEN_CLASS_KERNEL},
    [K_VFS_DO_FILP_OPEN] = {"vfs", "do_filp_open", GEN_CLASS_KERNEL},
    [K_VFS_OPEN] = {"vfs", "vfs_open", GEN_CLASS_KERNEL},
    [K_VFS_FILP_CLOSE] = {"vfs", "filp_close", GEN_CLASS_KERNEL},
    [K_VFS_FSYNC_RANGE] = {"vfs", "vfs_fsync_range", GEN_CLASS_KERNEL},
    [K_EXT4_FILE_READ_ITER] = {"ext4", "ext4_file_read_iter", GEN_CLASS_KERNEL},
    [K_EXT4_FILE_WRITE_ITER] = {"ext4", "ext4_file_write_iter", GEN_CLASS_KERNEL},
    [K_EXT4_FILE_OPEN] = {"ext4", "ext4_file_open", GEN_CLASS_KERNEL},
    [K_EXT4_LLSEEK] = {"ext4", "ext4_llseek", GEN_CLASS_KERNEL},
    [K_EXT4_DA_WRITE_BEGIN] = {"ext4", "ext4_da_write_begin", GEN_CLASS_KERNEL},
    [K_EXT4_DA_WRITE_END] = {"ext4", "ext4_da_write_end", GEN_CLASS_KERNEL},
    [K_EXT4_SYNC_FILE] = {"ext4", "ext4_sync_file", GEN_CLASS_KERNEL},
    [K_EXT4_WRITEPAGES] = {"ext4", "ext4_writepages", GEN_CLASS_KERNEL},
    [K_JBD2_COMPLETE_TRANSACTION] = {"ext4", "jbd2_complete_transaction", GEN_CLASS_KERNEL},
    [K_PC_FILEMAP_GET_PAGES] = {"os_cache", "filemap_get_pages", GEN_CLASS_KERNEL},
    [K_PC_SYNC_RA] = {"os_cache", "page_cache_sync_ra", GEN_CLASS_KERNEL},
    [K_PC_MARK_PAGE_ACCESSED] = {"os_cache", "mark_page_accessed", GEN_CLASS_KERNEL},
    [K_PC_GET_FOLIO] = {"os_cache", "__filemap_get_folio", GEN_CLASS_KERNEL},
    [K_PC_FOLIO_MARK_DIRTY] = {"os_cache", "folio_mark_dirty", GEN_CLASS_KERNEL},
    [K_PC_WRITE_AND_WAIT] = {"os_cache", "filemap_write_and_wait_range", GEN_CLASS_KERNEL},
    [K_PC_WB_WORKFN] = {"os_cache", "wb_workfn", GEN_CLASS_KERNEL},
    [K_BLK_SUBMIT_BIO] = {"block", "submit_bio", GEN_CLASS_KERNEL},
    [K_BLK_MQ_SUBMIT_BIO] = {"block", "blk_mq_submit_bio", GEN_CLASS_KERNEL},
    [K_BLK_COMPLETE_REQUEST] = {"block", "blk_mq_complete_request", GEN_CLASS_KERNEL},
};

enum {
    THREADS_PER_PROC = 3,
    KWORKERS = 2,
    DATASET_FILES = 64,
    CONFIG_FILES = 4,
    US = 1000,
    MS = 1000 * 1000,
};

static const char *const config_paths[CONFIG_FILES] = {
    "/etc/unet3d/config.yaml",
    "/home/user/.config/unet3d/settings.json",
    "/proc/self/status",
    "/usr/lib/python3/dist-packages/unet3d/__init__.py",
};

static void random_hash(struct spoor_rng *r, char *dst, uint8_t *len)
{
    uint64_t hi = spoor_rng_next(r), lo = spoor_rng_next(r);
    *len = (uint8_t)gen_fmt_u128(dst, hi, lo);
}

static void file_set(struct gen_file *f, struct spoor_rng *r, const char *path, uint64_t size)
{
    size_t n = strlen(path);
    if (n >= sizeof f->path)
        n = sizeof f->path - 1;
    memcpy(f->path, path, n);
    f->path_len = (uint8_t)n;
    random_hash(r, f->hash, &f->hash_len);
    f->size = size;
}

void gen_model_init(struct gen_model *m, const struct spoor_gen_opts *opts)
{
    memset(m, 0, sizeof *m);
    m->opts = *opts;
    if (m->opts.procs <= 0)
        m->opts.procs = 4;
    spoor_rng_seed(&m->rng, opts->seed);
    struct spoor_rng *r = &m->rng;
    int procs = m->opts.procs;

    snprintf(m->host_name, sizeof m->host_name, "node%02d", (int)spoor_rng_range(r, 1, 64));
    random_hash(r, m->host_hash, &m->host_hash_len);

    m->ndataset = DATASET_FILES;
    m->nconfig = CONFIG_FILES;
    m->nfiles = DATASET_FILES + CONFIG_FILES + (size_t)procs;
    m->files = spoor_xcalloc(m->nfiles, sizeof *m->files);
    char path[96];
    for (size_t i = 0; i < DATASET_FILES; i++) {
        snprintf(path, sizeof path, "/lus/datasets/unet3d/train/case_%05zu.npz", i);
        file_set(&m->files[i], r, path, (uint64_t)spoor_rng_range(r, 8, 140) << 20);
    }
    for (size_t i = 0; i < CONFIG_FILES; i++)
        file_set(&m->files[DATASET_FILES + i], r, config_paths[i], (uint64_t)spoor_rng_range(r, 200, 4000));
    for (int p = 0; p < procs; p++) {
        snprintf(path, sizeof path, "/scratch/unet3d/ckpt/rank_%d.pt", p);
        file_set(&m->files[DATASET_FILES + CONFIG_FILES + p], r, path, 0);
    }
    m->fh_seen = spoor_xcalloc((size_t)procs * m->nfiles, 1);
    m->file_named = spoor_xcalloc(m->nfiles, 1);

    m->nthreads = (size_t)procs * THREADS_PER_PROC + KWORKERS;
    m->threads = spoor_xcalloc(m->nthreads, sizeof *m->threads);
    int64_t base_pid = spoor_rng_range(r, 20000, 60000);
    size_t t = 0;
    for (int p = 0; p < procs; p++)
        for (int k = 0; k < THREADS_PER_PROC; k++, t++) {
            m->threads[t].pid = base_pid + 53 * p;
            m->threads[t].tid = m->threads[t].pid + k;
            m->threads[t].proc = p;
        }
    for (int k = 0; k < KWORKERS; k++, t++) {
        m->threads[t].pid = m->threads[t].tid = 187 + 31 * k;
        m->threads[t].proc = -1;
    }
    for (t = 0; t < m->nthreads; t++)
        m->threads[t].clock_ns = spoor_rng_range(r, 1, 2000) * US;
    m->next_call_id = 1;
}

void gen_model_free(struct gen_model *m)
{
    free(m->files);
    free(m->fh_seen);
    free(m->file_named);
    free(m->threads);
    free(m->ev);
    memset(m, 0, sizeof *m);
}

static struct gen_event *push(struct gen_model *m, uint16_t kind)
{
    if (m->nev == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 256;
        m->ev = spoor_xrealloc(m->ev, m->cap * sizeof *m->ev);
    }
    struct gen_event *e = &m->ev[m->nev++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->size = -1;
    if (m->thread) {
        e->pid = m->thread->pid;
        e->tid = m->thread->tid;
    } else {
        e->pid = e->tid = -1;
    }
    /* 128 + 384 random bits per event: measured, gzip -6 then compresses the
     * trace 3.4-3.5:1 (one 128-bit value alone gives ~6.4:1). */
    if (m->opts.random_hashes && gen_kinds[kind].cls != GEN_CLASS_META) {
        e->random_args = true;
        e->rid_hi = spoor_rng_next(&m->rng);
        e->rid_lo = spoor_rng_next(&m->rng);
        for (int i = 0; i < GEN_DIGEST_WORDS; i++)
            e->digest[i] = spoor_rng_next(&m->rng);
    }
    return e;
}

static int64_t ceil_us(int64_t ns) { return (ns + US - 1) / US * US; }

static void advance(struct gen_model *m, int64_t lo, int64_t hi) { m->now_ns += spoor_rng_range(&m->rng, lo, hi); }

static void span_open(struct gen_model *m, uint16_t kind)
{
    /* A gap of at least 1 ns, then the next whole µs: a child starts >= 1 µs
     * after its parent, whose start is itself a whole µs. */
    m->now_ns = ceil_us(m->now_ns + spoor_rng_range(&m->rng, 50, 1500));
    if (gen_kinds[kind].cls == GEN_CLASS_SYS)
        m->open_call = m->next_call_id++;
    m->open[m->depth].kind = kind;
    m->open[m->depth].start_ns = m->now_ns;
    m->open[m->depth].child_ns = 0;
    m->open[m->depth].first = m->nev;
    m->depth++;
}

static struct gen_event *span_close(struct gen_model *m)
{
    advance(m, 100, 2000);
    m->depth--;
    uint16_t kind = m->open[m->depth].kind;
    struct gen_event *e = push(m, kind);
    e->start_ns = m->open[m->depth].start_ns;
    e->dur_ns = m->now_ns - e->start_ns;
    e->self_ns = e->dur_ns - m->open[m->depth].child_ns;
    e->first_nested = m->open[m->depth].first;
    e->call_id = m->open_call;
    if (gen_kinds[kind].cls == GEN_CLASS_SYS)
        m->open_call = 0;
    if (m->depth > 0)
        m->open[m->depth - 1].child_ns += e->dur_ns;
    return e;
}

static void leaf(struct gen_model *m, uint16_t kind, int64_t lo, int64_t hi)
{
    span_open(m, kind);
    advance(m, lo, hi);
    span_close(m);
}

/* submit_bio { blk_mq_submit_bio }, the way every path reaches the disk. */
static void submit_bio(struct gen_model *m)
{
    span_open(m, K_BLK_SUBMIT_BIO);
    leaf(m, K_BLK_MQ_SUBMIT_BIO, 400, 3000);
    span_close(m);
}

/* User time between two calls of a phase. */
static void think(struct gen_model *m) { advance(m, 1 * US, 30 * US); }

/* An FH event before the first use of a file by a process. A fresh file
 * (--random-hashes) is new by construction. */
static void note_file(struct gen_model *m, const struct gen_file *f)
{
    if (f != &m->thread->fresh) {
        size_t file = (size_t)(f - m->files);
        uint8_t *seen = &m->fh_seen[(size_t)m->thread->proc * m->nfiles + file];
        if (*seen)
            return;
        *seen = 1;
        m->distinct_files += !m->file_named[file];
        m->file_named[file] = 1;
    } else {
        m->distinct_files++;
    }
    push(m, K_FH)->file = f;
}

static void sys_openat(struct gen_model *m, const struct gen_file *f)
{
    note_file(m, f);
    span_open(m, K_SYS_OPENAT);
    span_open(m, K_VFS_DO_FILP_OPEN);
    span_open(m, K_VFS_OPEN);
    leaf(m, K_EXT4_FILE_OPEN, 500, 4000);
    span_close(m);
    span_close(m);
    span_close(m)->file = f;
}

static void sys_read(struct gen_model *m, const struct gen_file *f, int64_t size)
{
    span_open(m, K_SYS_READ);
    span_open(m, K_VFS_READ);
    span_open(m, K_EXT4_FILE_READ_ITER);
    span_open(m, K_PC_FILEMAP_GET_PAGES);
    if (size > 0 && spoor_rng_chance(&m->rng, 20)) {
        span_open(m, K_PC_SYNC_RA);
        submit_bio(m);
        advance(m, 20 * US, 300 * US); /* waiting for the disk */
        span_close(m);
    }
    span_close(m);
    int64_t pages = size == 0 ? 0 : 1 + size / (256 * 1024);
    for (int64_t p = 0; p < pages; p++)
        leaf(m, K_PC_MARK_PAGE_ACCESSED, 300, 3500);
    span_close(m);
    span_close(m);
    struct gen_event *e = span_close(m);
    e->file = f;
    e->size = size;
}

static void sys_write(struct gen_model *m, const struct gen_file *f, int64_t size)
{
    span_open(m, K_SYS_WRITE);
    span_open(m, K_VFS_WRITE);
    span_open(m, K_EXT4_FILE_WRITE_ITER);
    int64_t pages = 1 + size / (512 * 1024);
    for (int64_t p = 0; p < pages; p++) {
        span_open(m, K_EXT4_DA_WRITE_BEGIN);
        leaf(m, K_PC_GET_FOLIO, 300, 2500);
        span_close(m);
        span_open(m, K_EXT4_DA_WRITE_END);
        leaf(m, K_PC_FOLIO_MARK_DIRTY, 200, 1500);
        span_close(m);
    }
    span_close(m);
    span_close(m);
    struct gen_event *e = span_close(m);
    e->file = f;
    e->size = size;
}

static void sys_fsync(struct gen_model *m, const struct gen_file *f)
{
    span_open(m, K_SYS_FSYNC);
    span_open(m, K_VFS_FSYNC_RANGE);
    span_open(m, K_EXT4_SYNC_FILE);
    span_open(m, K_PC_WRITE_AND_WAIT);
    int64_t bios = spoor_rng_range(&m->rng, 1, 4);
    for (int64_t b = 0; b < bios; b++)
        submit_bio(m);
    advance(m, 50 * US, 500 * US);
    span_close(m);
    leaf(m, K_JBD2_COMPLETE_TRANSACTION, 2 * US, 80 * US);
    span_close(m);
    span_close(m);
    span_close(m)->file = f;
}

static void sys_simple(struct gen_model *m, uint16_t sys, uint16_t kernel, const struct gen_file *f)
{
    span_open(m, sys);
    leaf(m, kernel, 300, 3000);
    span_close(m)->file = f;
}

/* --random-hashes: every open is of a file never seen before. */
static const struct gen_file *fresh_file(struct gen_model *m)
{
    struct gen_file *f = &m->thread->fresh;
    char path[96];
    snprintf(path, sizeof path, "/lus/datasets/unet3d/train/case_%016llx.npz",
             (unsigned long long)spoor_rng_next(&m->rng));
    file_set(f, &m->rng, path, (uint64_t)spoor_rng_range(&m->rng, 8, 140) << 20);
    return f;
}

static void phase_load_batch(struct gen_model *m)
{
    const struct gen_file *f = m->opts.random_hashes
                                   ? fresh_file(m)
                                   : &m->files[spoor_rng_range(&m->rng, 0, (int64_t)m->ndataset - 1)];
    span_open(m, K_APP_LOAD_BATCH);
    sys_openat(m, f);
    if (spoor_rng_chance(&m->rng, 30)) {
        think(m);
        sys_simple(m, K_SYS_LSEEK, K_EXT4_LLSEEK, f);
    }
    int64_t reads = spoor_rng_range(&m->rng, 2, 10);
    int64_t chunk = (int64_t)4096 << spoor_rng_range(&m->rng, 0, 8);
    for (int64_t i = 0; i < reads; i++) {
        think(m);
        sys_read(m, f, chunk);
    }
    if (spoor_rng_chance(&m->rng, 50)) {
        think(m);
        sys_read(m, f, 0);
    }
    think(m);
    sys_simple(m, K_SYS_CLOSE, K_VFS_FILP_CLOSE, f);
    span_close(m);
}

static void phase_read_config(struct gen_model *m)
{
    const struct gen_file *f = &m->files[m->ndataset + (size_t)spoor_rng_range(&m->rng, 0, (int64_t)m->nconfig - 1)];
    span_open(m, K_APP_READ_CONFIG);
    sys_openat(m, f);
    think(m);
    sys_read(m, f, (int64_t)f->size);
    think(m);
    sys_read(m, f, 0);
    think(m);
    sys_simple(m, K_SYS_CLOSE, K_VFS_FILP_CLOSE, f);
    span_close(m);
}

static void phase_save_checkpoint(struct gen_model *m)
{
    const struct gen_file *f = &m->files[m->ndataset + m->nconfig + (size_t)m->thread->proc];
    span_open(m, K_APP_SAVE_CHECKPOINT);
    sys_openat(m, f);
    int64_t writes = spoor_rng_range(&m->rng, 2, 8);
    for (int64_t i = 0; i < writes; i++) {
        think(m);
        sys_write(m, f, (int64_t)1 << 20);
    }
    think(m);
    sys_fsync(m, f);
    think(m);
    sys_simple(m, K_SYS_CLOSE, K_VFS_FILP_CLOSE, f);
    span_close(m);
}

/* Writeback and completions on a kworker: kernel events outside any call. */
static void phase_kworker(struct gen_model *m)
{
    if (spoor_rng_chance(&m->rng, 60)) {
        span_open(m, K_PC_WB_WORKFN);
        span_open(m, K_EXT4_WRITEPAGES);
        int64_t bios = spoor_rng_range(&m->rng, 1, 4);
        for (int64_t b = 0; b < bios; b++)
            submit_bio(m);
        span_close(m);
        span_close(m);
    } else {
        int64_t n = spoor_rng_range(&m->rng, 1, 3);
        for (int64_t i = 0; i < n; i++)
            leaf(m, K_BLK_COMPLETE_REQUEST, 500, 6000);
    }
}

void gen_model_prologue(struct gen_model *m)
{
    m->nev = 0;
    m->thread = NULL;
    push(m, K_HH);
}

void gen_model_next_phase(struct gen_model *m)
{
    struct gen_thread *t = &m->threads[0];
    for (size_t i = 1; i < m->nthreads; i++)
        if (m->threads[i].clock_ns < t->clock_ns)
            t = &m->threads[i];
    m->thread = t;
    t->ran = true;
    m->nev = 0;
    m->depth = 0;
    m->open_call = 0;
    m->now_ns = t->clock_ns;
    if (t->proc < 0) {
        phase_kworker(m);
        t->clock_ns = m->now_ns + spoor_rng_range(&m->rng, 500 * US, 20 * MS);
        return;
    }
    unsigned pick = (unsigned)(spoor_rng_next(&m->rng) % 100);
    if (pick < 45)
        phase_load_batch(m);
    else if (pick < 75)
        leaf(m, K_APP_COMPUTE, 200 * US, 5 * MS);
    else if (pick < 88)
        phase_read_config(m);
    else
        phase_save_checkpoint(m);
    t->clock_ns = m->now_ns + spoor_rng_range(&m->rng, 5 * US, 200 * US);
}

void gen_model_count_threads(const struct gen_model *m, uint64_t *threads, uint64_t *processes)
{
    *threads = *processes = 0;
    for (size_t i = 0; i < m->nthreads; i++) {
        if (!m->threads[i].ran)
            continue;
        (*threads)++;
        bool pid_seen = false;
        for (size_t j = 0; j < i; j++)
            pid_seen |= m->threads[j].ran && m->threads[j].pid == m->threads[i].pid;
        *processes += !pid_seen;
    }
}
