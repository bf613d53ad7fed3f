/* Chrome trace documents: a whole-file JSON array of events, or an object
 * whose "traceEvents" member is one (Chrome's about:tracing, the PyTorch
 * profiler, Perfetto's JSON export), as opposed to the one-event-per-line
 * layout of DFTracer and DataCrumbs. The io layer cuts and rewrites such a
 * document so that every event is one line (SPOOR_RECORDS_JSON_EVENTS);
 * here the head is told apart, and the document's own members (everything
 * but the events) become metadata rows. */
#include "read/pfw.h"

#include <string.h>

/* Past blanks; line breaks too when `lines` (a rewritten member line has none). */
static const char *skip_blanks(const char *p, const char *end, bool lines)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || (lines && *p == '\n')))
        p++;
    return p;
}

/* Past a byte order mark and blank lines: where the document starts. */
static const char *skip_head(const char *p, const char *end)
{
    if (end - p >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
        p += 3;
    return skip_blanks(p, end, true);
}

/* An object document: `"traceEvents"` then ':' and '[' somewhere in the
 * head (other members, such as PyTorch's deviceProperties, may come first). */
static bool has_events_member(const char *p, const char *end)
{
    static const char key[] = "\"traceEvents\"";
    for (const char *k; (k = memmem(p, (size_t)(end - p), key, sizeof key - 1)); p = k + 1) {
        const char *q = skip_blanks(k + sizeof key - 1, end, true);
        if (q < end && *q == ':') {
            q = skip_blanks(q + 1, end, true);
            if (q < end && *q == '[')
                return true;
        }
    }
    return false;
}

/* An array document rather than one event per line: its first event spans
 * lines, or the next one starts on the line where it ends. A first line
 * with anything else after its event (a stray '}') is a broken line of a
 * line-per-event trace, not a document. p is past '['. */
static bool array_document(const char *p, const char *end)
{
    p = skip_blanks(p, end, true);
    if (p == end || *p != '{')
        return false;
    int depth = 0;
    bool in_string = false, escaped = false;
    for (; p < end; p++) {
        char c = *p;
        if (in_string) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                in_string = false;
            continue;
        }
        if (c == '"') {
            in_string = true;
        } else if (c == '\n') {
            return true;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if ((c == '}' || c == ']') && --depth == 0) {
            /* the next event on the same line: `},{` (blanks allowed) */
            p = skip_blanks(p + 1, end, false);
            if (p == end || *p != ',')
                return false;
            p = skip_blanks(p + 1, end, false);
            return p < end && *p == '{';
        }
    }
    return true; /* a first event longer than the head: not a line per event */
}

bool pfw_document(const char *head, size_t len)
{
    const char *end = head + len, *p = skip_head(head, end);
    if (p == end)
        return false;
    if (*p == '{')
        return has_events_member(p, end);
    return *p == '[' && array_document(p + 1, end);
}

bool pfw_document_member_line(const char *p, const char *end)
{
    p = skip_blanks(p, end, false);
    return p < end && (*p == ',' || *p == '}');
}

/* `"traceEvents":` with nothing after it: the key of the events array. */
static bool events_key_left(const char *p, const char *end)
{
    static const char key[] = "\"traceEvents\"";
    p = skip_blanks(p, end, false);
    if ((size_t)(end - p) < sizeof key - 1 || memcmp(p, key, sizeof key - 1) != 0)
        return false;
    p = skip_blanks(p + sizeof key - 1, end, false);
    if (p == end || *p != ':')
        return false;
    return skip_blanks(p + 1, end, false) == end;
}

const char *pfw_document_members(const char *p, const char *end, void (*member)(void *ctx,
                                 const struct spoor_json_tok *key, const struct spoor_json_tok *val), void *ctx)
{
    while (p < end && *p != ',' && *p != '}')
        p++;
    if (p == end || *p == '}')
        return NULL; /* the document's closing '}' alone */
    /* the members as those of an object: the ',' before the first one read as its '{' */
    struct spoor_json_iter it = {.p = p + 1, .end = end, .failed = false};
    struct spoor_json_tok key, val;
    for (;;) {
        if (events_key_left(it.p, end))
            return NULL;
        int r = spoor_json_next(&it, &key, &val);
        if (r <= 0)
            return r == 0 ? NULL : "malformed JSON";
        member(ctx, &key, &val);
    }
}
