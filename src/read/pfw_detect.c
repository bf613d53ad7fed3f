/* Which writer made a pfw file, told from the first events: how numbers are
 * written, the spacing, the key order, the types of ph and of the hashes.
 * The dialect fixes the units of ts and dur and whether pid and tid are
 * swapped; the user's --dialect, --ts-unit and --dur-unit override it. */
#include "read/pfw.h"
#include "io/input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct pfw_dialect_info pfw_dialects[PFW_DIALECTS] = {
    [PFW_DFTRACER_2023] = {"dftracer-2023", SPOOR_UNIT_US, SPOOR_UNIT_US, false, true,
                           "numbers written as strings (DFTracer 2023)"},
    [PFW_DFTRACER_2024] = {"dftracer-2024", SPOOR_UNIT_US, SPOOR_UNIT_US, false, false,
                           "compact lines with numeric fields and hash metadata (DFTracer 2024)"},
    [PFW_DFTRACER_2025] = {"dftracer-2025", SPOOR_UNIT_US, SPOOR_UNIT_US, false, false,
                           "ph written as an integer or hashes as hex strings (newer DFTracer); "
                           "ph 1=X 2=C 3=A (aggregated) 4=M"},
    [PFW_DATACRUMBS_2024] = {"datacrumbs-2024", SPOOR_UNIT_US, SPOOR_UNIT_NS, false, false,
                             "json.dumps spacing (DataCrumbs Python writer)"},
    [PFW_DATACRUMBS_2024_US] = {"datacrumbs-2024-us", SPOOR_UNIT_US, SPOOR_UNIT_US, false, false,
                                "json.dumps spacing, most X events without dur and system calls lasting "
                                "a few units (DataCrumbs Python writer of October 2024: dur in us, left out "
                                "under 1 us)"},
    [PFW_DATACRUMBS_PROFILE] = {"datacrumbs-profile-2024", SPOOR_UNIT_US, SPOOR_UNIT_NS, false, false,
                                "json.dumps spacing with freq/time counters (DataCrumbs profile mode); "
                                "args.time stays in seconds"},
    [PFW_DATACRUMBS_CPP] = {"datacrumbs-cpp", SPOOR_UNIT_US, SPOOR_UNIT_US, true, false,
                            "keys in the order id,name,cat,ph,ts,dur,pid,tid (DataCrumbs C++ writer); "
                            "its pid field holds the thread and tid the process, so they are swapped; "
                            "ts counts from boot"},
    [PFW_CHROME] = {"chrome", SPOOR_UNIT_US, SPOOR_UNIT_US, false, false,
                    "plain Chrome trace events (the format's own unit)"},
};

enum { DETECT_LINES = 256 };

/* Evidence from the head, counted per event line. */
struct evidence {
    int events;
    int quoted_numbers;     /* "ts":"169..." */
    int ph_integer;         /* "ph":1 */
    int type_key;           /* newer DFTracer writes "type":<n> */
    int hash_text;          /* "hhash":"a1b2..." */
    int spaced;             /* {"pid": 1, ... */
    int freq_counters;      /* ph C with args.freq */
    int cpp_order;          /* id first, ph before ts, pid after dur */
    int sh_with_hash;       /* SH metadata with args.hash */
    int dftracer_marks;     /* cat "dftracer", hhash/fhash args, FH/HH metadata */
};

static bool is_digits(const struct spoor_json_tok *t)
{
    if (t->n == 0)
        return false;
    for (size_t i = 0; i < t->n; i++)
        if (t->p[i] < '0' || t->p[i] > '9')
            return false;
    return true;
}

static void look_at_args(const struct spoor_json_tok *args, bool counter, bool sh, struct evidence *ev)
{
    struct spoor_json_iter it;
    struct spoor_json_tok k, v;
    spoor_json_iter_init(&it, args->p, args->p + args->n);
    while (spoor_json_next(&it, &k, &v) == 1) {
        bool hash = pfw_tok_is(&k, "hhash") || pfw_tok_is(&k, "fhash");
        if (hash) {
            ev->dftracer_marks++;
            if (v.kind == SPOOR_JSON_STRING && !is_digits(&v))
                ev->hash_text++;
        }
        if (counter && pfw_tok_is(&k, "freq"))
            ev->freq_counters++;
        if (sh && pfw_tok_is(&k, "hash"))
            ev->sh_with_hash++;
    }
}

static void look_at_line(const char *p, const char *end, struct evidence *ev, struct pfw_durs *durs)
{
    struct spoor_json_iter it;
    struct spoor_json_tok k, v, args = {0}, ph = {0}, name = {0}, cat = {0}, dur = {0};
    spoor_json_iter_init(&it, p, end);
    int pos = 0, pos_ph = -1, pos_ts = -1, pos_dur = -1, pos_pid = -1, pos_id = -1;
    bool quoted = false;
    const char *first_key_end = NULL;
    int r;
    while ((r = spoor_json_next(&it, &k, &v)) == 1) {
        if (!first_key_end)
            first_key_end = k.p + k.n;
        if (pfw_tok_is(&k, "ph")) {
            ph = v;
            pos_ph = pos;
        } else if (pfw_tok_is(&k, "ts")) {
            pos_ts = pos;
        } else if (pfw_tok_is(&k, "dur")) {
            pos_dur = pos;
            dur = v;
        } else if (pfw_tok_is(&k, "pid")) {
            pos_pid = pos;
        } else if (pfw_tok_is(&k, "id")) {
            pos_id = pos;
        } else if (pfw_tok_is(&k, "type") && v.kind == SPOOR_JSON_NUMBER) {
            ev->type_key++;
        } else if (pfw_tok_is(&k, "name")) {
            name = v;
        } else if (pfw_tok_is(&k, "args") && v.kind == SPOOR_JSON_OBJECT) {
            args = v;
        } else if (pfw_tok_is(&k, "cat")) {
            cat = v;
            ev->dftracer_marks += pfw_tok_is(&v, "dftracer");
        }
        bool numeric_field = pfw_tok_is(&k, "ts") || pfw_tok_is(&k, "dur") || pfw_tok_is(&k, "pid") || pfw_tok_is(&k, "tid");
        if (numeric_field && v.kind == SPOOR_JSON_STRING && is_digits(&v))
            quoted = true;
        pos++;
    }
    if (r != 0 || pos == 0)
        return;
    ev->events++;
    ev->quoted_numbers += quoted;
    ev->ph_integer += ph.kind == SPOOR_JSON_NUMBER && ph.p;
    /* json.dumps writes '": ' after every key */
    ev->spaced += first_key_end && end - first_key_end > 3 && first_key_end[1] == ':' && first_key_end[2] == ' ';
    if (pos_id == 0 && pos_ph >= 0 && pos_ts > pos_ph && pos_dur >= 0 && pos_pid > pos_dur)
        ev->cpp_order++;
    uint8_t phase = ph.p ? pfw_phase(&ph) : 0;
    bool sh = phase == 'M' && pfw_tok_is(&name, "SH");
    if (phase == 'M' && (pfw_tok_is(&name, "FH") || pfw_tok_is(&name, "HH")))
        ev->dftracer_marks++;
    if (args.p)
        look_at_args(&args, phase == 'C', sh, ev);
    pfw_durs_note(durs, phase, &name, &cat, &dur);
}

static void add_evidence(struct evidence *ev, const struct evidence *line)
{
    ev->events += line->events;
    ev->quoted_numbers += line->quoted_numbers;
    ev->ph_integer += line->ph_integer;
    ev->type_key += line->type_key;
    ev->hash_text += line->hash_text;
    ev->spaced += line->spaced;
    ev->freq_counters += line->freq_counters;
    ev->cpp_order += line->cpp_order;
    ev->sh_with_hash += line->sh_with_hash;
    ev->dftracer_marks += line->dftracer_marks;
}

static enum pfw_dialect_id decide(const struct evidence *ev, struct pfw_durs *durs)
{
    if (ev->quoted_numbers)
        return PFW_DFTRACER_2023;
    if (ev->ph_integer || ev->type_key || ev->hash_text)
        return PFW_DFTRACER_2025;
    if (ev->spaced * 2 > ev->events)
        return ev->freq_counters ? PFW_DATACRUMBS_PROFILE
               : pfw_durs_in_us(durs) ? PFW_DATACRUMBS_2024_US : PFW_DATACRUMBS_2024;
    if (ev->cpp_order || ev->sh_with_hash)
        return PFW_DATACRUMBS_CPP;
    if (ev->dftracer_marks)
        return PFW_DFTRACER_2024;
    return PFW_CHROME;
}

int pfw_sniff(const char *head, size_t len)
{
    if (pfw_document(head, len))
        return 95;
    const char *end = head + len, *p = head;
    if (len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
        p += 3;
    bool saw_bracket = false;
    for (int lines = 0; p < end && lines < 8; lines++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        bool structural;
        const char *s = pfw_line_start(p, le, &structural);
        saw_bracket |= memchr(p, '[', (size_t)(le - p)) != NULL;
        if (!structural) {
            if (*s != '{')
                return 0;
            size_t n = (size_t)(le - s);
            bool chrome = memmem(s, n, "\"ph\"", 4) && (memmem(s, n, "\"ts\"", 4) || memmem(s, n, "\"name\"", 6));
            return chrome ? 90 : 20;
        }
        p = nl ? nl + 1 : end;
    }
    return saw_bracket ? 15 : 0;
}

static void append(char *buf, size_t cap, const char *fmt, const char *a, const char *b)
{
    size_t used = strlen(buf);
    if (used < cap)
        snprintf(buf + used, cap - used, fmt, a, b);
}

/* The dialect's name and the `assumed` line. */
static void describe(struct spoor_dialect *d, const struct pfw_state *st, enum pfw_dialect_id id)
{
    const struct pfw_dialect_info *info = &pfw_dialects[id];
    snprintf(d->name, sizeof d->name, "%s", info->name);
    snprintf(d->assumed, sizeof d->assumed, "pfw %s%s: %s", info->name, st->dialect_given ? " (given)" : "",
             info->why);
    append(d->assumed, sizeof d->assumed, "; ts in %s%s", spoor_unit_name(d->ts_unit),
           st->ts_given ? " (given)" : "");
    append(d->assumed, sizeof d->assumed, ", dur in %s%s", spoor_unit_name(d->dur_unit),
           st->dur_given ? " (given)" : "");
}

/* Evidence from the head's lines: the dialect's from its first events, the
 * durations' and counters' from all of it. */
static void read_head(const char *head, size_t len, struct evidence *ev, struct pfw_durs *durs)
{
    const char *p = head, *end = head + len;
    int counters = 0;
    for (int lines = 0; p < end; lines++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl && lines > 0)
            break; /* a head cut mid-line: the last line may be partial */
        const char *le = nl ? nl : end;
        bool structural;
        const char *s = pfw_line_start(p, le, &structural);
        if (!structural) {
            struct evidence line = {0};
            look_at_line(s, le, &line, durs);
            if (ev->events < DETECT_LINES)
                add_evidence(ev, &line);
            counters += line.freq_counters;
        }
        p = nl ? nl + 1 : end;
    }
    /* A profile may begin with metadata or a few X events: counters anywhere
     * in the head make it one. */
    ev->freq_counters = counters;
}

int pfw_detect(const char *head, size_t len, const struct spoor_read_opts *opts, struct spoor_dialect *d,
               struct spoor_error *err)
{
    enum pfw_dialect_id id = PFW_DIALECTS;
    bool document = pfw_document(head, len);
    d->records = document ? SPOOR_RECORDS_JSON_EVENTS : SPOOR_RECORDS_JSON_LINES;
    if (opts->dialect) {
        for (int i = 0; i < PFW_DIALECTS; i++)
            if (strcmp(opts->dialect, pfw_dialects[i].name) == 0)
                id = (enum pfw_dialect_id)i;
        if (id == PFW_DIALECTS)
            return spoor_fail(err, SPOOR_EUSAGE,
                              "unknown pfw dialect '%s' (expected dftracer-2023, dftracer-2024, dftracer-2025, "
                              "datacrumbs-2024, datacrumbs-2024-us, datacrumbs-profile-2024, datacrumbs-cpp or "
                              "chrome)",
                              opts->dialect);
    }
    struct evidence ev = {0};
    struct pfw_durs *durs = spoor_xcalloc(1, sizeof *durs);
    read_head(head, len, &ev, durs);
    if (!opts->dialect) /* a trace document has the layout of Chrome's own format, whoever wrote it */
        id = document ? PFW_CHROME : decide(&ev, durs);
    const struct pfw_dialect_info *info = &pfw_dialects[id];
    struct pfw_state *st = spoor_xcalloc(1, sizeof *st);
    st->id = id;
    st->swapped = info->pid_tid_swapped;
    st->quoted_numbers = info->quoted_numbers;
    st->dialect_given = opts->dialect != NULL;
    st->ts_given = opts->ts_unit != SPOOR_UNIT_AUTO;
    st->dur_given = opts->dur_unit != SPOOR_UNIT_AUTO;
    /* Profiles and traces of this writer share their units: only the label
     * waits for the counters past the head. */
    st->profile_unsure = id == PFW_DATACRUMBS_2024 && !st->dialect_given;
    d->ts_unit = st->ts_given ? opts->ts_unit : info->ts_unit;
    d->dur_unit = st->dur_given ? opts->dur_unit : info->dur_unit;
    st->ts_mul = spoor_unit_ns(d->ts_unit);
    st->dur_mul = spoor_unit_ns(d->dur_unit);
    d->pid_tid_swapped = st->swapped;
    d->state = st;
    describe(d, st, id);
    if (document)
        append(d->assumed, sizeof d->assumed, "%s%s", "; a JSON trace document (line counts its events, other members "
               "are metadata rows); displayTimeUnit is a display hint only",
               "");
    if (!st->dur_given)
        pfw_durs_doubt(durs, d->dur_unit, d->unit_warning, sizeof d->unit_warning);
    free(durs);
    return SPOOR_OK;
}

void pfw_reduced(struct spoor_dialect *d, const struct spoor_table *batch)
{
    struct pfw_state *st = d->state;
    if (!st->profile_unsure)
        return;
    bool was = st->counters > st->complete;
    for (size_t i = 0; i < batch->nrows; i++) {
        st->counters += batch->ph[i] == 'C';
        st->complete += batch->ph[i] == 'X';
    }
    bool profile = st->counters > st->complete;
    if (profile != was)
        describe(d, st, profile ? PFW_DATACRUMBS_PROFILE : PFW_DATACRUMBS_2024);
}
