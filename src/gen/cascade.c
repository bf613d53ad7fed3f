/* The cascade scheduler log generator (see spoor/gen.h): windows of
 * tasks and their transfers, records sorted by time within a window, written
 * as JSON lines or Python logging lines in the scheduler's own shapes, with
 * faults injected on request and every entity folded into the truth of its
 * preset as it is written. */
#include "spoor/gen.h"
#include "gen/cascade_truth.h"
#include "util/rng.h"
#include "spoor/write.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WINDOW = 256, STAGES = 4, MAX_RECORDS_PER_ENTITY = STAGES + 1, MAX_TRANSFERS = 2 };

static const char *const task_stage[STAGES] = {"taskPlanned", "taskEnqueued", "taskStarted", "taskFinished"};
static const char *const transmit_stage[STAGES] = {"transmitPlanned", "transmitStarted", "transmitLoaded",
                                                   "transmitFinished"};
static const char *const kinds[] = {"retrieve", "mean", "threshold", "plot"};

/* A task, or a transfer: one dataset (a task's output, named as the task)
 * to one worker. */
struct entity {
    char name[96];          /* the task or dataset */
    char worker[32];        /* "hH:wW" */
    size_t host_len;        /* "hH" */
    const char *planned, *mode; /* transfer: the mode planned, the one it ran in */
    bool transmit;
    int64_t first[STAGES];
    uint32_t seen[STAGES];
    int64_t mode_at;        /* the latest record logging a mode, and that mode */
    const char *last_mode;
};

struct record {
    int64_t at;
    uint32_t entity, seq;
    uint8_t stage;
};

struct gen {
    const struct spoor_gen_cascade_opts *o;
    struct spoor_gen_cascade_result *res;
    FILE *out;
    bool pylog;
    struct spoor_rng times, faults;
    struct entity ent[(1 + MAX_TRANSFERS) * WINDOW];
    size_t nent;
    struct record rec[(1 + MAX_TRANSFERS) * WINDOW * MAX_RECORDS_PER_ENTITY];
    size_t nrec;
    uint64_t task_records, transmit_records;
};

/* Placement depends only on the entity's index, so every seed runs the same workflow. */
static uint64_t placement(uint64_t index, uint64_t salt)
{
    uint64_t x = index * 4 + salt;
    return spoor_splitmix64(&x);
}

static void add_record(struct gen *g, uint32_t e, uint8_t stage, int64_t at)
{
    g->rec[g->nrec] = (struct record){.at = at, .entity = e, .seq = (uint32_t)g->nrec, .stage = stage};
    g->nrec++;
}

/* The entity's records at the given times (SPOOR_NULL: not logged), with one
 * dropped or one repeated when faults are on. */
static void add_records(struct gen *g, uint32_t e, const int64_t *at)
{
    int logged[STAGES], n = 0;
    for (int s = 0; s < STAGES; s++)
        if (at[s] != SPOOR_NULL)
            logged[n++] = s;
    int drop = -1;
    if (g->o->faults && spoor_rng_chance(&g->faults, 2))
        drop = logged[spoor_rng_range(&g->faults, 0, n - 1)];
    for (int i = 0; i < n; i++)
        if (logged[i] != drop)
            add_record(g, e, (uint8_t)logged[i], at[logged[i]]);
    if (g->o->faults && spoor_rng_chance(&g->faults, 2)) {
        int s = logged[spoor_rng_range(&g->faults, 0, n - 1)];
        if (s != drop)
            add_record(g, e, (uint8_t)s, at[s] + spoor_rng_range(&g->faults, 1, 5000));
    }
}

static uint32_t new_entity(struct gen *g, bool transmit, const char *name, unsigned host, unsigned worker)
{
    struct entity *e = &g->ent[g->nent];
    memset(e, 0, sizeof *e);
    e->transmit = transmit;
    for (int s = 0; s < STAGES; s++)
        e->first[s] = SPOOR_NULL;
    snprintf(e->name, sizeof e->name, "%s", name);
    snprintf(e->worker, sizeof e->worker, "h%u:w%u", host, worker);
    e->host_len = strcspn(e->worker, ":");
    e->mode_at = SPOOR_NULL;
    return (uint32_t)g->nent++;
}

/* Transfer j of task i's output to a worker (host * workers + worker),
 * placed by the task's index only; its modes. */
static void add_transfer(struct gen *g, const char *dataset, uint64_t i, int j, int64_t after)
{
    const struct spoor_gen_cascade_opts *o = g->o;
    unsigned nworkers = o->hosts * o->workers;
    uint64_t q = placement(i, 2 + (uint64_t)j);
    unsigned to = (unsigned)(q / 2 % nworkers);
    if (j) { /* a second worker for the same dataset */
        if (nworkers == 1)
            return;
        unsigned first = (unsigned)(placement(i, 2) / 2 % nworkers);
        to = to == first ? (to + 1) % nworkers : to;
    }
    uint32_t x = new_entity(g, true, dataset, to / o->workers, to % o->workers);
    struct entity *tr = &g->ent[x];
    unsigned m = (unsigned)(q / 65536 % 10);
    tr->mode = m < 4 ? "local" : m < 9 ? "remote" : "redundant";
    /* The controller sometimes plans one mode and the transfer ends in another. */
    tr->planned = m == 5 ? "redundant" : m == 9 ? "remote" : tr->mode;
    int64_t tt[STAGES];
    tt[0] = after + spoor_rng_range(&g->times, 100, 20000);
    tt[1] = tt[0] + spoor_rng_range(&g->times, 1000, 100000);
    tt[2] = tt[1] + spoor_rng_range(&g->times, 1000, 2000000);
    tt[3] = tt[2] + spoor_rng_range(&g->times, 500, 300000);
    if (tr->mode[1] == 'o') { /* local: only planned and finished are logged */
        tt[3] = tt[0] + spoor_rng_range(&g->times, 100, 5000);
        tt[1] = tt[2] = SPOOR_NULL;
    }
    add_records(g, x, tt);
}

static void add_task(struct gen *g, uint64_t i)
{
    const struct spoor_gen_cascade_opts *o = g->o;
    uint64_t p = placement(i, 0);
    char name[96];
    snprintf(name, sizeof name, "%s(%" PRIu64 ", %" PRIu64 "):%08" PRIx64, kinds[p % 4], i / 100, i % 100,
             placement(i, 1) & 0xffffffffu);
    uint32_t t = new_entity(g, false, name, (unsigned)(p / 4 % o->hosts), (unsigned)(p / 64 % o->workers));
    int64_t at[STAGES];
    at[0] = 1000000000000 + (int64_t)i * 20000 + spoor_rng_range(&g->times, 0, 19999);
    at[1] = at[0] + spoor_rng_range(&g->times, 1000, 50000);
    at[2] = at[1] + spoor_rng_range(&g->times, 0, 200000);
    at[3] = at[2] + spoor_rng_range(&g->times, 10000, 5000000);
    add_records(g, t, at);
    /* About half the outputs go to one worker, an eighth to a second one too. */
    uint64_t q = placement(i, 2);
    for (int j = 0; j < (q % 2 ? 0 : q % 8 ? 1 : MAX_TRANSFERS); j++)
        add_transfer(g, name, i, j, at[3]);
}

static int by_time(const void *a, const void *b)
{
    const struct record *x = a, *y = b;
    if (x->at != y->at)
        return x->at < y->at ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* A record as the scheduler logs it: `task` or `dataset`; the controller
 * logs the Planned stages with host "controller" and the worker's full name,
 * the workers the others with their host and their own short name. A
 * transfer's mode is on the controller's record (as planned) and on the
 * worker's transmitFinished (as run). */
static void write_record(struct gen *g, const struct record *r)
{
    struct entity *e = &g->ent[r->entity];
    const char *action = (e->transmit ? transmit_stage : task_stage)[r->stage];
    bool controller = r->stage == 0;
    const char *mode = !e->transmit ? NULL : controller ? e->planned : r->stage == STAGES - 1 ? e->mode : NULL;
    char host_name[16];
    snprintf(host_name, sizeof host_name, "%.*s", (int)e->host_len, e->worker);
    const char *host = controller ? "controller" : host_name;
    const char *worker = controller ? e->worker : e->worker + e->host_len + 1;
    const char *field = e->transmit ? "dataset" : "task";
    int n;
    if (g->pylog) {
        int64_t ms = r->at / 1000000;
        n = fprintf(g->out, "2024-05-01 %02d:%02d:%02d,%03d:INFO:cascade.scheduler:4711:"
                        "%s=%s;action=%s;worker=%s;host=%s%s%s;at=%" PRId64 "\n",
                (int)(ms / 3600000 % 24), (int)(ms / 60000 % 60), (int)(ms / 1000 % 60), (int)(ms % 1000), field,
                e->name, action, worker, host, mode ? ";mode=" : "", mode ? mode : "", r->at);
    } else {
        n = fprintf(g->out, "{\"%s\": \"%s\", \"action\": \"%s\", \"worker\": \"%s\", \"host\": \"%s\"%s%s%s, "
                        "\"at\": %" PRId64 "}\n",
                field, e->name, action, worker, host, mode ? ", \"mode\": \"" : "", mode ? mode : "",
                mode ? "\"" : "", r->at);
    }
    /* The mode the pivot keeps: the latest logged (at equal times the smaller). */
    if (mode && (e->mode_at == SPOOR_NULL || r->at > e->mode_at ||
                 (r->at == e->mode_at && strcmp(mode, e->last_mode) < 0))) {
        e->mode_at = r->at;
        e->last_mode = mode;
    }
    g->res->bytes += n > 0 ? (uint64_t)n : 0; /* counted: stdout may be a pipe, where ftello fails */
    g->res->lines++;
    g->res->records++;
    if (e->transmit)
        g->transmit_records++;
    else
        g->task_records++;
}

static void write_bad_line(struct gen *g)
{
    const char *line = g->pylog ? "Traceback (most recent call last):\n" : "{\"task\": \"retrieve(7, \n";
    fputs(line, g->out);
    g->res->bytes += strlen(line);
    g->res->lines++;
    g->res->bad_lines++;
}

/* Writes a window's records in time order and folds its entities into the truth. */
static void flush_window(struct gen *g, struct cascade_truth *truth[2])
{
    qsort(g->rec, g->nrec, sizeof *g->rec, by_time);
    for (size_t i = 0; i < g->nrec; i++) {
        if (g->o->faults && spoor_rng_range(&g->faults, 0, 999) == 0)
            write_bad_line(g);
        write_record(g, &g->rec[i]);
        struct entity *e = &g->ent[g->rec[i].entity];
        uint8_t s = g->rec[i].stage;
        if (e->first[s] == SPOOR_NULL || g->rec[i].at < e->first[s])
            e->first[s] = g->rec[i].at;
        e->seen[s]++;
    }
    for (size_t i = 0; i < g->nent; i++) {
        struct entity *e = &g->ent[i];
        if (e->transmit)
            g->res->transfers++;
        else
            g->res->tasks++;
        if (!truth[e->transmit])
            continue;
        char name[sizeof e->name + sizeof e->worker + 3];
        snprintf(name, sizeof name, "%s @ %s", e->name, e->worker);
        cascade_truth_entity(truth[e->transmit], e->transmit ? name : e->name, e->first, e->seen, e->worker,
                             e->last_mode ? e->last_mode : "");
    }
    g->nent = g->nrec = 0;
}

void spoor_gen_cascade_truth_path(const char *path, bool transmits, char *out, size_t cap)
{
    snprintf(out, cap, "%s.truth-%s.csv", path, transmits ? "transmits" : "tasks");
}

static int write_truths(struct gen *g, const char *path, struct cascade_truth *truth[2], struct spoor_error *err)
{
    const struct spoor_gen_cascade_result *r = g->res;
    int st = SPOOR_OK;
    for (int k = 0; k < 2 && st == SPOOR_OK; k++) {
        char p[4096];
        spoor_gen_cascade_truth_path(path, k, p, sizeof p);
        st = cascade_truth_write(truth[k], p, r->lines, r->bad_lines, r->records,
                                 k ? g->transmit_records : g->task_records, err);
    }
    return st;
}

int spoor_gen_cascade_write(const char *path, const struct spoor_gen_cascade_opts *opts,
                            struct spoor_gen_cascade_result *result, struct spoor_error *err)
{
    memset(result, 0, sizeof *result);
    struct spoor_gen_cascade_opts o = *opts;
    o.hosts = o.hosts ? o.hosts : 4;
    o.workers = o.workers ? o.workers : 4;
    struct cascade_truth *truth[2] = {NULL, NULL};
    if (o.truth) {
        truth[0] = cascade_truth_new("cascade-tasks", o.top, err);
        truth[1] = truth[0] ? cascade_truth_new("cascade-transmits", o.top, err) : NULL;
        if (!truth[1]) {
            cascade_truth_free(truth[0]);
            return err->code;
        }
    }
    struct gen *g = spoor_xcalloc(1, sizeof *g);
    g->o = &o;
    g->res = result;
    size_t len = strlen(path);
    g->pylog = len >= 4 && !strcmp(path + len - 4, ".log");
    spoor_rng_seed(&g->times, o.seed);
    spoor_rng_seed(&g->faults, o.seed ^ 0x5eedfa17u);
    struct spoor_atomic_file out = {0};
    int st = spoor_atomic_file_open(&out, path, err);
    if (st == SPOOR_OK) {
        g->out = out.fp;
        for (uint64_t i = 0; result->records < o.records;) {
            for (int k = 0; k < WINDOW; k++)
                add_task(g, i++);
            flush_window(g, truth);
        }
        st = spoor_atomic_file_commit(&out, err);
    }
    if (st == SPOOR_OK && o.truth)
        st = write_truths(g, path, truth, err);
    cascade_truth_free(truth[0]);
    cascade_truth_free(truth[1]);
    free(g);
    return st;
}
