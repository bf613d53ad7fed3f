/* spoor tune live (tune_live.h). The instance is made as
 * bench/capture/blk_capture.sh makes its own: the three block_rq events,
 * filtered on the device's dev_t, in a buffer of ours (never the global
 * one), here on the monotonic clock so that trace times and the wall time
 * that closes an idle window are one time line. */
#include "tune_live.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#define TRACEFS "/sys/kernel/tracing"
#define TRACEFS_MAGIC 0x74726163
/* How long after its time a trace line may still come (trace_pipe wakes its
 * reader as events are written; this covers the scheduling): the windows
 * ending before now minus this are finished. */
#define LINE_DELAY_NS 100000000LL
/* The longest wait for a line: an idle disk's windows finish this late. */
#define POLL_NS 50000000LL
/* Reads stop when the buffer has less room than a page of trace_pipe. */
#define READ_ROOM 4096

static const char *const events[] = {"block_rq_issue", "block_rq_complete", "block_rq_requeue"};

static bool read_line_of(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    bool ok = fgets(buf, (int)cap, f) != NULL;
    fclose(f);
    buf[strcspn(buf, "\n")] = 0;
    return ok;
}

static bool write_text(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_TRUNC);
    if (fd < 0)
        return false;
    size_t n = strlen(text);
    bool ok = write(fd, text, n) == (ssize_t)n;
    return close(fd) == 0 && ok;
}

/* d from the sysfs folder of a disk (realpath of /sys/class/block/X). */
static bool disk_of(const char *sys, const char *arg, struct tune_device *d)
{
    char path[PATH_MAX + 32], disk[PATH_MAX], numbers[32];
    snprintf(path, sizeof path, "%s/partition", sys);
    snprintf(disk, sizeof disk, "%s", sys);
    if (access(path, F_OK) == 0)
        *strrchr(disk, '/') = 0;
    const char *name = strrchr(disk, '/') + 1;
    snprintf(path, sizeof path, "%s/dev", disk);
    if (strlen(name) >= sizeof d->name || !read_line_of(path, numbers, sizeof numbers) ||
        sscanf(numbers, "%u:%u", &d->major, &d->minor) != 2) {
        fprintf(stderr, "spoor tune: %s: cannot read %s\n", arg, path);
        return false;
    }
    snprintf(d->name, sizeof d->name, "%s", name);
    snprintf(d->readahead, sizeof d->readahead, "/sys/block/%s/queue/read_ahead_kb", d->name);
    snprintf(d->trace_name, sizeof d->trace_name, "%u,%u", d->major, d->minor);
    if (strcmp(sys, disk))
        fprintf(stderr, "spoor tune: %s is a partition: tuning the readahead of its disk %s (%u:%u)\n", arg, d->name,
                d->major, d->minor);
    return true;
}

bool tune_device_find(const char *arg, struct tune_device *d)
{
    unsigned major, minor;
    char extra, link[PATH_MAX + 32], sys[PATH_MAX];
    if (sscanf(arg, "%u:%u%c", &major, &minor, &extra) == 2)
        snprintf(link, sizeof link, "/sys/dev/block/%u:%u", major, minor);
    else if (*arg && !strchr(arg, '/') && strcmp(arg, ".") && strcmp(arg, ".."))
        snprintf(link, sizeof link, "/sys/class/block/%s", arg);
    else
        link[0] = 0;
    if (!link[0] || !realpath(link, sys)) {
        fprintf(stderr, "spoor tune: no block device '%s' (a name in /sys/class/block, or MAJ:MIN)\n", arg);
        return false;
    }
    return disk_of(sys, arg, d);
}

bool tune_readahead_read(const struct tune_device *d, uint32_t *kb)
{
    char text[32];
    unsigned long v;
    if (!read_line_of(d->readahead, text, sizeof text) || sscanf(text, "%lu", &v) != 1 || v > UINT32_MAX) {
        fprintf(stderr, "spoor tune: cannot read the readahead of %s from %s\n", d->name, d->readahead);
        return false;
    }
    *kb = (uint32_t)v;
    return true;
}

bool tune_readahead_write(const struct tune_device *d, uint32_t kb)
{
    char text[16];
    snprintf(text, sizeof text, "%u", kb);
    if (write_text(d->readahead, text))
        return true;
    fprintf(stderr, "spoor tune: cannot set %s to %u: %s\n", d->readahead, kb, strerror(errno));
    return false;
}

bool tune_readahead_writable(const struct tune_device *d)
{
    if (access(d->readahead, W_OK) == 0)
        return true;
    fprintf(stderr, "spoor tune: applying readahead to %s needs root (or --dry-run to print only)\n", d->readahead);
    return false;
}

static volatile sig_atomic_t stop_signal;
static void on_stop(int sig) { stop_signal = sig; }

/* SIGINT, SIGTERM and SIGHUP end the loop (poll returns) instead of the
 * process, and a closed output (SIGPIPE ignored) fails the row's write, so
 * that the instance is removed and the readahead put back in every case. */
static const int caught[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
enum { NCAUGHT = sizeof caught / sizeof caught[0] };

static void catch_stop_signals(struct sigaction old[NCAUGHT])
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NCAUGHT; i++) {
        sa.sa_handler = caught[i] == SIGPIPE ? SIG_IGN : on_stop;
        sigaction(caught[i], &sa, &old[i]);
    }
}

static void restore_signals(const struct sigaction old[NCAUGHT])
{
    for (size_t i = 0; i < NCAUGHT; i++)
        sigaction(caught[i], &old[i], NULL);
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

struct instance {
    char dir[128];
    bool made;
};

static bool instance_set(const struct instance *in, const char *file, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", in->dir, file);
    if (write_text(path, text))
        return true;
    fprintf(stderr, "spoor tune: cannot write '%s' to %s: %s\n", text, path, strerror(errno));
    return false;
}

static void instance_remove(struct instance *in)
{
    if (!in->made)
        return;
    instance_set(in, "tracing_on", "0");
    if (rmdir(in->dir) != 0)
        fprintf(stderr, "spoor tune: could not remove the tracefs instance %s: %s\n", in->dir, strerror(errno));
    in->made = false;
}

/* The instance: the device's request events on the monotonic clock. */
static bool instance_make(struct instance *in, const struct tune_device *d)
{
    struct statfs fs;
    if (statfs(TRACEFS, &fs) != 0 || fs.f_type != TRACEFS_MAGIC) {
        fprintf(stderr, "spoor tune: tracefs is not mounted at %s (mount -t tracefs nodev %s)\n", TRACEFS, TRACEFS);
        return false;
    }
    if (geteuid() != 0) {
        fprintf(stderr, "spoor tune: reading block tracepoints from %s needs root (or --replay TRACE)\n", TRACEFS);
        return false;
    }
    snprintf(in->dir, sizeof in->dir, "%s/instances/spoor-tune-%ld", TRACEFS, (long)getpid());
    if (mkdir(in->dir, 0755) != 0) {
        fprintf(stderr, "spoor tune: cannot make the tracefs instance %s: %s\n", in->dir, strerror(errno));
        return false;
    }
    in->made = true;
    char filter[64], file[96];
    snprintf(filter, sizeof filter, "dev == %u", d->major << 20 | d->minor); /* the kernel's dev_t */
    bool ok = instance_set(in, "tracing_on", "0") && instance_set(in, "trace_clock", "mono") &&
              instance_set(in, "buffer_size_kb", "4096");
    for (size_t i = 0; ok && i < sizeof events / sizeof events[0]; i++) {
        snprintf(file, sizeof file, "events/block/%s/filter", events[i]);
        ok = instance_set(in, file, filter);
        snprintf(file, sizeof file, "events/block/%s/enable", events[i]);
        ok = ok && instance_set(in, file, "1");
    }
    return ok && instance_set(in, "tracing_on", "1");
}

/* What the loop's rows do besides printing: apply a "set" (unless dry run). */
struct applier {
    const struct tune_device *d;
    const struct tune_live_opts *opts;
    bool applied, failed;
    uint32_t last_kb;
};

static int apply_row(void *ctx, const struct spoor_tune_row *row)
{
    struct applier *a = ctx;
    int st = a->opts->row(a->opts->ctx, row);
    if (st || a->opts->dry_run || strcmp(row->decision, "set"))
        return st;
    if (!tune_readahead_write(a->d, row->readahead_kb)) {
        a->failed = true;
        return 1;
    }
    a->applied = true;
    a->last_kb = row->readahead_kb;
    return 0;
}

/* Reads trace_pipe until the end (duration, signal), feeding whole lines
 * and finishing windows as time passes, when the disk is idle too. */
static bool trace_loop(struct spoor_tuner *t, int fd, int64_t t0, const struct tune_live_opts *opts,
                       struct applier *a)
{
    size_t cap = 1 << 20, held = 0;
    char *buf = malloc(cap);
    bool ok = buf != NULL;
    int64_t end = opts->duration_ns ? t0 + opts->duration_ns : INT64_MAX;
    while (ok && !stop_signal) {
        int64_t now = now_ns();
        if (now >= end)
            break;
        int64_t wait = end - now < POLL_NS ? end - now : POLL_NS;
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int r = poll(&p, 1, (int)(wait / 1000000) + 1);
        if (r < 0 && errno != EINTR) {
            fprintf(stderr, "spoor tune: trace_pipe: %s\n", strerror(errno));
            ok = false;
            break;
        }
        if (r > 0) {
            /* all there is (trace_pipe gives a page at most per read), then one feed */
            ssize_t n = 0;
            while (cap - held >= READ_ROOM && (n = read(fd, buf + held, cap - held)) > 0)
                held += (size_t)n;
            if (n < 0 && errno != EAGAIN && errno != EINTR) {
                fprintf(stderr, "spoor tune: trace_pipe: %s\n", strerror(errno));
                ok = false;
                break;
            }
            char *last = held ? memrchr(buf, '\n', held) : NULL;
            if (last) {
                size_t whole = (size_t)(last - buf) + 1;
                spoor_tune_live_feed(t, buf, whole);
                memmove(buf, buf + whole, held - whole);
                held -= whole;
            } else if (cap - held < READ_ROOM) {
                held = 0; /* a line longer than the buffer is no event line */
            }
        }
        if (spoor_tune_live_advance(t, now_ns() - LINE_DELAY_NS, apply_row, a))
            ok = false;
    }
    free(buf);
    return ok;
}

int tune_live_run(struct spoor_tuner *t, const struct tune_device *d, const struct tune_live_opts *opts)
{
    uint32_t start_kb;
    if (!tune_readahead_read(d, &start_kb) || (!opts->dry_run && !tune_readahead_writable(d)))
        return 1;
    struct instance in = {0};
    struct sigaction old[NCAUGHT];
    stop_signal = 0;
    catch_stop_signals(old);
    int code = 1;
    if (instance_make(&in, d)) {
        char pipe[192];
        snprintf(pipe, sizeof pipe, "%s/trace_pipe", in.dir);
        int fd = open(pipe, O_RDONLY | O_NONBLOCK);
        if (fd < 0) {
            fprintf(stderr, "spoor tune: cannot open %s: %s\n", pipe, strerror(errno));
        } else {
            int64_t t0 = now_ns();
            spoor_tune_live_begin(t, t0, d->trace_name, start_kb);
            fprintf(stderr, "spoor tune: tracing %s (%u:%u), readahead %u KiB%s; Ctrl-C stops\n", d->name, d->major,
                    d->minor, start_kb, opts->dry_run ? ", dry run" : "");
            struct applier a = {.d = d, .opts = opts};
            code = trace_loop(t, fd, t0, opts, &a) ? 0 : 1;
            close(fd);
            uint32_t now_kb;
            if (a.applied && !opts->keep && tune_readahead_read(d, &now_kb)) {
                if (now_kb != a.last_kb)
                    fprintf(stderr, "spoor tune: %s's readahead is %u KiB, not the %u tune set: left as it is\n",
                            d->name, now_kb, a.last_kb);
                else if (now_kb != start_kb && tune_readahead_write(d, start_kb))
                    fprintf(stderr, "spoor tune: %s's readahead put back to %u KiB\n", d->name, start_kb);
            }
        }
    }
    instance_remove(&in);
    restore_signals(old);
    return code; /* a signal is how a run without --duration ends: not a failure */
}
