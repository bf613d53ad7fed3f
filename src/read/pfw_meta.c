/* Metadata events ("ph":"M") to lookups: which file, host or string a hash
 * stands for, and the names of processes and threads.
 *
 * Writers disagree on the shapes, so each is read as found:
 *   FH, HH (file, host)      args.name = the text, args.value = its hash
 *   SH (DFTracer)            args.name = the string, args.value = its hash
 *   SH (DataCrumbs C++)      args.value = the string, args.hash = its hash
 *   process_name             args.name = the name, keyed by the event's pid
 *   PR (DFTracer)            args.name = an attribute ("rank"), args.value = its
 *                            value ("0"): the process is named "rank 0"
 *   thread_name              args.name = the name, keyed by the event's tid
 *                            (DFTracer 2024 writes the tid itself as the name and
 *                            "thread_name" as args.value)
 * A hash key is its text as written, so it matches the interned text of the
 * hhash/fhash arg columns. A definition is recorded with its input and line:
 * it holds in that input only, from that line on (spoor/table.h). */
#include "read/pfw.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static bool key_is(const struct spoor_json_tok *k, const char *s, size_t n)
{
    return k->n == n && memcmp(k->p, s, n) == 0;
}

bool pfw_meta_key(const struct spoor_json_tok *key)
{
    return key_is(key, "name", 4) || key_is(key, "value", 5) || key_is(key, "hash", 4);
}

void pfw_meta_note(struct pfw_meta *m, const struct spoor_json_tok *key, const struct spoor_json_tok *val)
{
    if (key_is(key, "name", 4)) {
        m->name = *val;
        m->has_name = true;
    } else if (key_is(key, "value", 5)) {
        m->value = *val;
        m->has_value = true;
    } else if (key_is(key, "hash", 4)) {
        m->hash = *val;
        m->has_hash = true;
    }
}

static uint32_t intern_int(struct spoor_table *t, int64_t v)
{
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%" PRId64, v);
    return spoor_table_intern(t, buf, (size_t)n);
}

/* "rank 0" from args {"name":"rank","value":"0"}. */
static uint32_t attribute_name(struct spoor_table *t, const struct pfw_meta *m)
{
    uint32_t name = pfw_intern_tok(t, &m->name);
    if (!m->has_value)
        return name;
    uint32_t value = pfw_intern_tok(t, &m->value);
    size_t nlen, vlen;
    const char *ns = spoor_strpool_get(t->pool, name, &nlen);
    const char *vs = spoor_strpool_get(t->pool, value, &vlen);
    char buf[512];
    int n = snprintf(buf, sizeof buf, "%.*s %.*s", (int)(nlen < 250 ? nlen : 250), ns,
                     (int)(vlen < 250 ? vlen : 250), vs);
    return spoor_table_intern(t, buf, (size_t)n);
}

void pfw_meta_apply(struct spoor_table *t, const struct spoor_json_tok *event_name, const struct pfw_meta *m,
                    int64_t pid, int64_t tid, uint32_t src, uint64_t line)
{
    const struct spoor_json_tok *e = event_name;
    int kind = key_is(e, "FH", 2) ? SPOOR_LOOKUP_FILE
             : key_is(e, "HH", 2) ? SPOOR_LOOKUP_HOST
             : key_is(e, "SH", 2) ? SPOOR_LOOKUP_STRING
             : key_is(e, "PR", 2) || key_is(e, "process_name", 12) ? SPOOR_LOOKUP_PROCESS
             : key_is(e, "thread_name", 11) ? SPOOR_LOOKUP_THREAD
             : -1;
    if (kind < 0)
        return;
    uint32_t key, value;
    if (kind == SPOOR_LOOKUP_PROCESS || kind == SPOOR_LOOKUP_THREAD) {
        int64_t who = kind == SPOOR_LOOKUP_PROCESS ? pid : tid;
        if (who == SPOOR_NULL || !m->has_name)
            return;
        key = intern_int(t, who);
        value = key_is(e, "PR", 2) ? attribute_name(t, m) : pfw_intern_tok(t, &m->name);
    } else if (m->has_hash && m->has_value) {
        key = pfw_intern_tok(t, &m->hash);
        value = pfw_intern_tok(t, &m->value);
    } else if (m->has_value && m->has_name) {
        key = pfw_intern_tok(t, &m->value);
        value = pfw_intern_tok(t, &m->name);
    } else {
        return;
    }
    spoor_lookup_put(&t->lookups[kind], src, key, value, line);
}
