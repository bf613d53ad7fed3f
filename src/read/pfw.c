/* The pfw reader's entry point and the small helpers its parts share. */
#include "read/pfw.h"

#include <stdlib.h>
#include <string.h>

static void pfw_release(struct spoor_dialect *d)
{
    free(d->state);
    d->state = NULL;
}

const struct spoor_format spoor_format_pfw = {
    .name = "pfw",
    .sniff = pfw_sniff,
    .detect = pfw_detect,
    .parse = pfw_parse,
    .reduced = pfw_reduced,
    .release = pfw_release,
};

enum pfw_field pfw_field_of(const char *p, size_t n)
{
    switch (n) {
    case 2:
        if (p[0] == 'p' && p[1] == 'h')
            return PFW_PH;
        if (p[0] == 't' && p[1] == 's')
            return PFW_TS;
        break;
    case 3:
        if (memcmp(p, "cat", 3) == 0)
            return PFW_CAT;
        if (memcmp(p, "dur", 3) == 0)
            return PFW_DUR;
        if (memcmp(p, "pid", 3) == 0)
            return PFW_PID;
        if (memcmp(p, "tid", 3) == 0)
            return PFW_TID;
        break;
    case 4:
        if (memcmp(p, "name", 4) == 0)
            return PFW_NAME;
        if (memcmp(p, "args", 4) == 0)
            return PFW_ARGS;
        break;
    }
    return PFW_EXTRA;
}

uint8_t pfw_phase(const struct spoor_json_tok *ph)
{
    if (ph->kind == SPOOR_JSON_STRING)
        return ph->n == 1 ? (uint8_t)ph->p[0] : 0;
    if (ph->kind != SPOOR_JSON_NUMBER || ph->n != 1)
        return 0;
    /* DFTracer's TracePhaseType wire values */
    switch (ph->p[0]) {
    case '1': return 'X';
    case '2': return 'C';
    case '3': return 'A';
    case '4': return 'M';
    default: return 0;
    }
}

const char *pfw_line_start(const char *p, const char *end, bool *structural)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '[' || *p == ','))
        p++;
    const char *q = p;
    while (q < end && (*q == ' ' || *q == '\t' || *q == '\r' || *q == '[' || *q == ']' || *q == ','))
        q++;
    *structural = q == end;
    return p;
}

uint32_t pfw_intern_tok(struct spoor_table *t, const struct spoor_json_tok *tok)
{
    if (tok->kind != SPOOR_JSON_STRING)
        return spoor_table_intern(t, tok->p, tok->n);
    struct spoor_value v;
    spoor_json_to_value(t, tok, false, NULL, &v);
    return v.str;
}

void pfw_cache_store(struct pfw_intern_cache *c, const struct spoor_json_tok *tok, uint32_t id)
{
    if (tok->n > UINT32_MAX)
        return;
    unsigned h = pfw_cache_slot(tok);
    char head[16] = {0};
    memcpy(head, tok->p, tok->n < 16 ? tok->n : 16);
    memcpy(c->slot[h].head, head, 16);
    c->slot[h].p = tok->p;
    c->slot[h].n = (uint32_t)tok->n;
    c->slot[h].id = id;
}

uint32_t pfw_cache_miss(struct pfw_intern_cache *c, struct spoor_table *t, const struct spoor_json_tok *tok)
{
    uint32_t id = pfw_intern_tok(t, tok);
    pfw_cache_store(c, tok, id);
    return id;
}
