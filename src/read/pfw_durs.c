/* What the durations in the head of a pfw file say about their unit.
 *
 * How long a system call, a libc I/O call or a traced kernel function lasts
 * is known to within a few orders of magnitude: hundreds of ns to ms. Their
 * median in the head therefore tells a dur unit that cannot be right: read
 * in ns, a median of 3 means the writer wrote µs; a median of minutes means
 * the unit is too coarse. Application events (steps, epochs) last anything,
 * so they are not used. */
#include "read/pfw.h"
#include "spoor/report.h"

#include <stdio.h>
#include <stdlib.h>

/* Below this, no traced call ends: a tracer's own probe costs more. */
#define SHORTEST_CALL_NS 100.0
/* Above this as a median, the calls are not what the unit says. */
#define LONGEST_MEDIAN_NS 10e9

static bool tok_starts(const struct spoor_json_tok *t, const char *s)
{
    size_t n = strlen(s);
    return t->n >= n && memcmp(t->p, s, n) == 0;
}

/* System calls and libc I/O calls (DFTracer's POSIX and STDIO, DataCrumbs'
 * sys), by name; kernel functions by the prefixes of the subsystems tracers
 * probe, or by the categories DataCrumbs and `spoor gen` give them. */
static bool well_known(const struct spoor_json_tok *name, const struct spoor_json_tok *cat)
{
    static const char *const calls[] = {
        "read", "write", "pread", "pwrite", "pread64", "pwrite64", "readv", "writev", "open", "open64",
        "openat", "close", "lseek", "lseek64", "stat", "fstat", "lstat", "fstatat", "newfstatat", "statx",
        "fsync", "fdatasync", "mmap", "munmap", "unlink", "mkdir", "rmdir", "access", "fcntl", "opendir",
        "closedir", "readdir", "getdents64", "fopen", "fopen64", "fclose", "fread", "fwrite", "fseek",
        "ftell", "fflush"};
    static const char *const kernel_prefixes[] = {"vfs_", "ksys_", "__x64_sys_", "do_sys_", "ext4_", "xfs_",
                                                  "nfs_", "filemap_", "folio_", "page_cache_", "blk_",
                                                  "submit_bio", "mark_page_accessed", "generic_file_"};
    static const char *const kernel_cats[] = {"os_cache", "vfs", "ext4", "block", "kprobe", "kernel"};
    for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
        if (pfw_tok_is(name, calls[i]))
            return true;
    for (size_t i = 0; i < sizeof kernel_prefixes / sizeof *kernel_prefixes; i++)
        if (tok_starts(name, kernel_prefixes[i]))
            return true;
    for (size_t i = 0; cat->p && i < sizeof kernel_cats / sizeof *kernel_cats; i++)
        if (pfw_tok_is(cat, kernel_cats[i]))
            return true;
    return false;
}

void pfw_durs_note(struct pfw_durs *d, uint8_t phase, const struct spoor_json_tok *name,
                   const struct spoor_json_tok *cat, const struct spoor_json_tok *dur)
{
    if (phase != 'X')
        return;
    d->x_events++;
    double v;
    if (!dur->p || dur->kind == SPOOR_JSON_NULL) {
        d->x_without_dur++;
        return;
    }
    if (!name->p || d->nknown == PFW_DUR_SAMPLES || !spoor_json_double(dur->p, dur->n, &v) || !(v >= 0))
        return;
    if (well_known(name, cat))
        d->known[d->nknown++] = v;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of the well-known calls' durations as written; -1 when too
 * few were seen to tell. Sorts the samples. */
static double median(struct pfw_durs *d)
{
    if (d->nknown < PFW_DUR_MIN_SAMPLES)
        return -1;
    qsort(d->known, d->nknown, sizeof *d->known, by_value);
    return d->known[d->nknown / 2];
}

bool pfw_durs_in_us(struct pfw_durs *d)
{
    double m = median(d);
    return d->x_events >= PFW_DUR_MIN_SAMPLES && d->x_without_dur * 2 > d->x_events && m >= 0 &&
           m < SHORTEST_CALL_NS;
}

bool pfw_durs_doubt(struct pfw_durs *d, enum spoor_unit unit, char *buf, size_t cap)
{
    double m = median(d);
    if (m < 0)
        return false;
    double ns = m * (double)spoor_unit_ns(unit);
    /* 0 is a call shorter than the unit, whatever the unit */
    bool too_short = ns > 0 && ns < SHORTEST_CALL_NS, too_long = ns > LONGEST_MEDIAN_NS;
    if (!too_short && !too_long)
        return false;
    char shown[32];
    spoor_fmt_duration(shown, sizeof shown, ns);
    snprintf(buf, cap,
             "system calls and kernel functions last %s (median of %zu) with dur in %s: too %s to be right; "
             "give the unit with --dur-unit",
             shown, d->nknown, spoor_unit_name(unit), too_short ? "short" : "long");
    return true;
}
