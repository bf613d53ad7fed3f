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
#include "util/bytes.h"

enum { BEFORE, WRAPPER, EVENTS, AFTER };

static const char EVENTS_KEY[] = "traceEvents";

static inline bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The end of the string text from i on: its closing quote, or len. memchr
 * finds the quotes; a quote after an odd run of backslashes is text. */
static size_t string_text(struct io_events_doc *d, const char *buf, size_t i, size_t len)
{
    if (d->escaped && i < len) {
        d->escaped = false;
        i++;
    }
    while (i < len) {
        const char *q = memchr(buf + i, '"', len - i);
        size_t stop = q ? (size_t)(q - buf) : len, run = 0;
        while (stop - run > i && buf[stop - run - 1] == '\\')
            run++;
        if (!q) {
            d->escaped = run % 2 == 1;
            return len;
        }
        if (run % 2 == 0)
            return stop;
        i = stop + 1;
    }
    return len;
}

/* Bytes the scan stops at outside strings; everything else is skipped. */
static const bool SPECIAL[256] = {
    ['"'] = true, ['{'] = true, ['}'] = true, ['['] = true, [']'] = true, [','] = true, [':'] = true,
    ['\n'] = true,
};

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

/* Bytes [from, len) one by one; returns the last cut, or `cut`. */
static size_t scan_bytes(struct io_events_doc *d, char *buf, size_t from, size_t len, size_t cut)
{
    for (size_t i = from; i < len; i++) {
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
        while (i < len && !SPECIAL[(unsigned char)buf[i]]) {
            if (!blank(buf[i]))
                d->key_events = false;
            i++;
        }
        if (i == len)
            break;
        char c = buf[i];
        if (c == '\n') {
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
    return cut;
}

/* The events array, 64 bytes at a time (SSE2): masks of the quotes and of
 * the brackets, commas and newlines; a prefix XOR of the quotes marks the
 * bytes inside strings, and only the structural bytes outside them are
 * visited. A block with a backslash goes byte by byte. */
#if defined(__SSE2__)
#include <emmintrin.h>

static inline uint64_t byte_mask(const __m128i x[4], char c)
{
    __m128i v = _mm_set1_epi8(c);
    uint64_t m = 0;
    for (int k = 0; k < 4; k++)
        m |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x[k], v)) << (16 * k);
    return m;
}

/* False when the block at buf + i needs the byte loop. */
static bool scan_block(struct io_events_doc *d, char *buf, size_t i, size_t *cut)
{
    __m128i x[4];
    for (int k = 0; k < 4; k++)
        x[k] = _mm_loadu_si128((const __m128i *)(buf + i + 16 * k));
    if (byte_mask(x, '\\'))
        return false;
    uint64_t inside = spoor_prefix_xor(byte_mask(x, '"')) ^ (d->in_string ? ~(uint64_t)0 : 0);
    d->in_string = inside >> 63;
    uint64_t structural = (byte_mask(x, '{') | byte_mask(x, '}') | byte_mask(x, '[') | byte_mask(x, ']') |
                           byte_mask(x, ',') | byte_mask(x, '\n')) & ~inside;
    for (; structural; structural &= structural - 1) {
        size_t at = i + (size_t)__builtin_ctzll(structural);
        char c = buf[at];
        if (c == '\n') {
            buf[at] = ' ';
        } else if (c == '{' || c == '[') {
            d->depth++;
        } else if (c == ',') {
            if (d->phase == EVENTS && d->depth == d->events_depth) {
                buf[at] = '\n';
                *cut = at + 1;
            }
        } else if (d->depth > 0) {
            if (d->phase == EVENTS && d->depth == d->events_depth) {
                if (c == '}')
                    continue;
                d->phase = AFTER;
                buf[at] = '\n';
                *cut = at + 1;
            }
            d->depth--;
        }
    }
    return true;
}
#else
static bool scan_block(struct io_events_doc *d, char *buf, size_t i, size_t *cut)
{
    (void)d, (void)buf, (void)i, (void)cut;
    return false;
}
#endif

size_t io_events_scan(struct io_events_doc *d, char *buf, size_t len)
{
    size_t cut = 0, i = d->scanned;
    while (i < len) {
        size_t to = len - i >= 64 ? i + 64 : len;
        if (to - i == 64 && d->phase >= EVENTS && !d->escaped && scan_block(d, buf, i, &cut)) {
            i = to;
            continue;
        }
        cut = scan_bytes(d, buf, i, to, cut);
        i = to;
    }
    d->scanned = len;
    return cut;
}
