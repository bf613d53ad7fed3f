/* What `spoor lifecycle` computes: stages, delays, groups, fill rule and the
 * ranking, from options or from a preset for the cascade scheduler's log. */
#include "spoor/lifecycle.h"
#include "ops/lifecycle_pivot.h"

#include <stdlib.h>
#include <string.h>

/* Keeps a copy of s in the spec's storage list (freed with the spec). */
static const char *keep(struct spoor_lc_spec *s, const char *text, size_t len)
{
    /* Storage is a chain of blocks: each starts with the previous block's pointer. */
    char *block = spoor_xmalloc(sizeof(char *) + len + 1);
    memcpy(block, &s->storage, sizeof(char *));
    memcpy(block + sizeof(char *), text, len);
    block[sizeof(char *) + len] = '\0';
    s->storage = block;
    return block + sizeof(char *);
}

void spoor_lc_spec_free(struct spoor_lc_spec *s)
{
    char *block = s->storage;
    while (block) {
        char *prev;
        memcpy(&prev, block, sizeof prev);
        free(block);
        block = prev;
    }
    memset(s, 0, sizeof *s);
}

static int stage_index(const struct spoor_lc_spec *s, const char *name, size_t len)
{
    for (size_t i = 0; i < s->nstages; i++)
        if (strlen(s->stages[i]) == len && memcmp(s->stages[i], name, len) == 0)
            return (int)i;
    return -1;
}

int spoor_lc_spec_stages(struct spoor_lc_spec *s, const char *list, struct spoor_error *err)
{
    s->nstages = 0;
    for (const char *p = list;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (!len)
            return spoor_fail(err, SPOOR_EUSAGE, "--stages '%s': empty stage name", list);
        if (s->nstages == SPOOR_LC_MAX_STAGES)
            return spoor_fail(err, SPOOR_EUSAGE, "--stages '%s': at most %d stages", list, SPOOR_LC_MAX_STAGES);
        if (stage_index(s, p, len) >= 0)
            return spoor_fail(err, SPOOR_EUSAGE, "--stages '%s': stage '%.*s' twice", list, (int)len, p);
        s->stages[s->nstages++] = keep(s, p, len);
        if (!comma)
            return SPOOR_OK;
        p = comma + 1;
    }
}

/* The stage named by text[0..len), or an error naming the option. */
static int need_stage(const struct spoor_lc_spec *s, const char *opt, const char *def, const char *name, size_t len,
                      int *out, struct spoor_error *err)
{
    *out = stage_index(s, name, len);
    if (*out < 0)
        return spoor_fail(err, SPOOR_EUSAGE, "%s '%s': '%.*s' is not one of the --stages", opt, def, (int)len, name);
    return SPOOR_OK;
}

int spoor_lc_spec_delay(struct spoor_lc_spec *s, const char *def, struct spoor_error *err)
{
    const char *eq = strchr(def, '=');
    const char *minus = eq ? strchr(eq + 1, '-') : NULL;
    if (!eq || eq == def || !minus)
        return spoor_fail(err, SPOOR_EUSAGE, "--delay '%s': expected NAME=B-A (stage names)", def);
    if (s->ndelays == SPOOR_LC_MAX_DELAYS)
        return spoor_fail(err, SPOOR_EUSAGE, "--delay '%s': at most %d delays", def, SPOOR_LC_MAX_DELAYS);
    int to, from;
    if (need_stage(s, "--delay", def, eq + 1, (size_t)(minus - eq - 1), &to, err) ||
        need_stage(s, "--delay", def, minus + 1, strlen(minus + 1), &from, err))
        return err->code;
    for (size_t i = 0; i < s->ndelays; i++)
        if (strlen(s->delay[i].name) == (size_t)(eq - def) && !memcmp(s->delay[i].name, def, (size_t)(eq - def)))
            return spoor_fail(err, SPOOR_EUSAGE, "--delay '%s': a delay of that name exists", def);
    s->delay[s->ndelays].name = keep(s, def, (size_t)(eq - def));
    s->delay[s->ndelays].to = to;
    s->delay[s->ndelays].from = from;
    s->ndelays++;
    return SPOOR_OK;
}

int spoor_lc_spec_fill(struct spoor_lc_spec *s, const char *def, struct spoor_error *err)
{
    const char *eq = strchr(def, '=');
    if (!eq)
        return spoor_fail(err, SPOOR_EUSAGE, "--fill '%s': expected MISSING=SOURCE (stage names)", def);
    if (s->nfills == SPOOR_LC_MAX_FILLS)
        return spoor_fail(err, SPOOR_EUSAGE, "--fill '%s': at most %d fills", def, SPOOR_LC_MAX_FILLS);
    int missing, source;
    if (need_stage(s, "--fill", def, def, (size_t)(eq - def), &missing, err) ||
        need_stage(s, "--fill", def, eq + 1, strlen(eq + 1), &source, err))
        return err->code;
    s->fill[s->nfills].missing = missing;
    s->fill[s->nfills].source = source;
    s->nfills++;
    return SPOOR_OK;
}

int spoor_lc_spec_fill_if(struct spoor_lc_spec *s, const char *def, struct spoor_error *err)
{
    const char *eq = strchr(def, '=');
    if (!eq || eq == def)
        return spoor_fail(err, SPOOR_EUSAGE, "--fill-if '%s': expected FIELD=VALUE", def);
    s->fill_field = keep(s, def, (size_t)(eq - def));
    s->fill_value = keep(s, eq + 1, strlen(eq + 1));
    return SPOOR_OK;
}

int spoor_lc_spec_by(struct spoor_lc_spec *s, const char *field, struct spoor_error *err)
{
    if (!*field)
        return spoor_fail(err, SPOOR_EUSAGE, "--by: empty field name");
    if (s->nby == SPOOR_LC_MAX_BY)
        return spoor_fail(err, SPOOR_EUSAGE, "--by '%s': at most %d --by fields", field, SPOOR_LC_MAX_BY);
    s->by[s->nby++] = keep(s, field, strlen(field));
    return SPOOR_OK;
}

int spoor_lc_spec_top_by(struct spoor_lc_spec *s, const char *name, struct spoor_error *err)
{
    for (size_t i = 0; i < s->ndelays; i++)
        if (!strcmp(s->delay[i].name, name)) {
            s->top_delay = (int)i;
            s->top_named = true;
            return SPOOR_OK;
        }
    return spoor_fail(err, SPOOR_EUSAGE, "--top-by '%s': no delay of that name", name);
}

int spoor_lc_spec_finish(struct spoor_lc_spec *s, struct spoor_error *err)
{
    if (!s->nstages)
        return spoor_fail(err, SPOOR_EUSAGE, "no --stages (or --preset) given");
    if (!s->ndelays)
        return spoor_fail(err, SPOOR_EUSAGE, "no --delay NAME=B-A (or --preset) given");
    if (s->nfills && !s->fill_field)
        return spoor_fail(err, SPOOR_EUSAGE, "--fill needs --fill-if FIELD=VALUE");
    if (!s->top_named) {
        s->top_delay = 0;
        for (size_t i = 0; i < s->ndelays; i++)
            if (!strcmp(s->delay[i].name, "total"))
                s->top_delay = (int)i;
    }
    return SPOOR_OK;
}

/* Appends field to out[0..n) unless it is there; returns the new n. */
static size_t add_field(const char **out, size_t n, const char *field)
{
    size_t i = 0;
    while (i < n && strcmp(out[i], field))
        i++;
    if (i == n)
        out[n++] = field;
    return n;
}

size_t spoor_lc_spec_fields(const struct spoor_lc_spec *s, const char **out)
{
    size_t n = 0;
    for (size_t i = 0; i < s->nby; i++)
        out[n++] = s->by[i];
    const char *more[] = {s->fill_field, s->worker_field, s->host_field};
    for (size_t i = 0; i < 3; i++)
        if (more[i])
            n = add_field(out, n, more[i]);
    return n;
}

struct preset {
    const char *name, *entity, *stages, *delays[6], *fills[3], *fill_if;
    bool entity_worker;
};

/* The cascade scheduler's two entity kinds, as its log names them
 * (docs/cli.md): a task record names its `task`, a transfer record its
 * `dataset`; a transfer is one dataset to one worker, in the mode last
 * logged for the pair. A local transfer logs only Planned and Finished: its
 * Started and Loaded are its Finished. */
static const struct preset presets[] = {
    {"cascade-tasks", "task", "taskPlanned,taskEnqueued,taskStarted,taskFinished",
     {"comm=taskEnqueued-taskPlanned", "queue=taskStarted-taskEnqueued", "runtime=taskFinished-taskStarted",
      "onworker=taskFinished-taskEnqueued", "total=taskFinished-taskPlanned"},
     {0}, NULL, false},
    {"cascade-transmits", "dataset", "transmitPlanned,transmitStarted,transmitLoaded,transmitFinished",
     {"comm=transmitStarted-transmitPlanned", "load=transmitLoaded-transmitStarted",
      "transmit=transmitFinished-transmitLoaded", "total=transmitFinished-transmitPlanned"},
     {"transmitStarted=transmitFinished", "transmitLoaded=transmitFinished"}, "mode=local", true},
};

int spoor_lc_spec_preset(struct spoor_lc_spec *s, const char *name, struct spoor_error *err)
{
    for (size_t i = 0; i < sizeof presets / sizeof *presets; i++) {
        const struct preset *p = &presets[i];
        if (strcmp(p->name, name))
            continue;
        int st = spoor_lc_spec_stages(s, p->stages, err);
        for (size_t k = 0; st == SPOOR_OK && k < 6 && p->delays[k]; k++)
            st = spoor_lc_spec_delay(s, p->delays[k], err);
        for (size_t k = 0; st == SPOOR_OK && k < 3 && p->fills[k]; k++)
            st = spoor_lc_spec_fill(s, p->fills[k], err);
        if (st == SPOOR_OK && p->fill_if)
            st = spoor_lc_spec_fill_if(s, p->fill_if, err);
        if (st == SPOOR_OK && !s->nby) {
            st = spoor_lc_spec_by(s, "worker", err);
            if (st == SPOOR_OK)
                st = spoor_lc_spec_by(s, "mode", err);
        }
        s->entity_field = p->entity;
        s->worker_field = "worker";
        s->host_field = "host";
        s->controller = "controller";
        s->last_field = "mode";
        s->entity_worker = p->entity_worker;
        return st;
    }
    return spoor_fail(err, SPOOR_EUSAGE, "--preset '%s': expected cascade-tasks or cascade-transmits", name);
}
