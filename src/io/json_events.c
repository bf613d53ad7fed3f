/* The cutter of a JSON events document: a whole-file array of events, or an
 * object whose "traceEvents" member is one (Chrome, the PyTorch profiler,
 * Perfetto's JSON export), written as one line of any length or many.
 *
 * Such a file has no line structure to split at, so it is read in order and
 * each chunk is cut after the last event that ends in it. Where an event
 * ends depends on every byte before it (a '}' or ',' inside a string is
 * text), so the bytes are scanned once, in order, for quotes, backslashes
 * and brackets only: a loop of a few instructions per byte, ahead of the
 * parse on other threads. While scanning, the chunk is rewritten in place,
 * byte for byte, into the one-event-per-line layout the pfw parser reads
 * (see spoor_input_set_records): offsets stay those of the file. */
#include <string.h>

#include "io/internal.h"

enum { BEFORE, WRAPPER, EVENTS, AFTER };

static const char EVENTS_KEY[] = "traceEvents";

static inline bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The end of the string text from i on: its closing quote, or len. */
static size_t string_text(struct io_events_doc *d, const char *buf, size_t i, size_t len)
{
    while (i < len) {
        if (d->escaped) {
            d->escaped = false;
        } else if (buf[i] == '\\') {
            d->escaped = true;
        } else if (buf[i] == '"') {
            return i;
        }
        i++;
    }
    return len;
}

static void open_bracket(struct io_events_doc *d, char *c, bool key_events)
{
    if (d->phase == BEFORE) {
        /* the document's own bracket: an object's becomes the ',' that marks
         * its members as not events; an array's is the events array */
        d->depth = 1;
        if (*c == '{') {
            d->phase = WRAPPER;
            *c = ',';
        } else {
            d->phase = EVENTS;
            d->events_depth = 1;
            *c = ' ';
        }
        return;
    }
    d->depth++;
    if (d->phase == WRAPPER && *c == '[' && d->depth == 2 && key_events) {
        d->phase = EVENTS;
        d->events_depth = 2;
        *c = '\n';
    }
}

size_t io_events_scan(struct io_events_doc *d, char *buf, size_t len)
{
    size_t cut = 0;
    for (size_t i = d->scanned; i < len; i++) {
        if (d->in_string) {
            i = string_text(d, buf, i, len);
            if (i == len)
                break;
            d->in_string = false;
            if (d->phase == WRAPPER && d->depth == 1)
                d->key_events = i - d->key_start == sizeof EVENTS_KEY - 1 &&
                                memcmp(buf + d->key_start, EVENTS_KEY, sizeof EVENTS_KEY - 1) == 0;
            continue;
        }
        char c = buf[i];
        if (blank(c)) {
            if (c == '\n')
                buf[i] = ' ';
            continue;
        }
        bool key_events = d->key_events;
        if (c != ':')
            d->key_events = false;
        switch (c) {
        case '"':
            d->in_string = true;
            d->key_start = i + 1;
            break;
        case '{':
        case '[':
            open_bracket(d, &buf[i], key_events);
            break;
        case '}':
        case ']':
            if (d->depth == 0)
                break;
            if (d->phase == EVENTS && d->depth == d->events_depth) {
                if (c == ']') { /* the end of the events array */
                    d->phase = AFTER;
                    buf[i] = '\n';
                    cut = i + 1;
                } else {
                    break; /* a stray '}' in the array: the parser reports the event */
                }
            }
            d->depth--;
            break;
        case ',':
            if (d->phase == EVENTS && d->depth == d->events_depth) {
                buf[i] = '\n';
                cut = i + 1;
            }
            break;
        default:
            break;
        }
    }
    d->scanned = len;
    return cut;
}
