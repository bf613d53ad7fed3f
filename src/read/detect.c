/* Chooses the reader for an input: the one the user named, or the one whose
 * sniffer is most confident about the first bytes. */
#include "spoor/read.h"

#include <string.h>

static const struct spoor_format *const formats[] = {
    &spoor_format_pfw,
    &spoor_format_jsonl,
    &spoor_format_csv,
    &spoor_format_pylog,
};

int spoor_detect(const char *head, size_t len, const struct spoor_read_opts *opts,
                 struct spoor_dialect *d, struct spoor_error *err)
{
    memset(d, 0, sizeof *d);
    /* Text traces never hold NUL bytes; a database or an image does. */
    const char *nul = memchr(head, '\0', len);
    if (nul)
        return spoor_fail(err, SPOOR_EFORMAT, "binary data at byte %zu: not a text trace",
                          (size_t)(nul - head));
    const struct spoor_format *best = NULL;
    if (opts->format) {
        for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
            if (strcmp(formats[i]->name, opts->format) == 0)
                best = formats[i];
        if (!best)
            return spoor_fail(err, SPOOR_EUSAGE, "unknown format '%s' (expected pfw, jsonl, csv or pylog)",
                              opts->format);
    } else if (opts->field_ts || opts->field_name) {
        /* Naming fields means the user describes a generic table. */
        best = spoor_format_csv.sniff(head, len) > spoor_format_jsonl.sniff(head, len)
                   ? &spoor_format_csv : &spoor_format_jsonl;
        if (spoor_format_pylog.sniff(head, len) > best->sniff(head, len))
            best = &spoor_format_pylog;
    } else {
        int best_score = -1;
        for (size_t i = 0; i < sizeof formats / sizeof *formats; i++) {
            int score = formats[i]->sniff(head, len);
            if (score > best_score) {
                best_score = score;
                best = formats[i];
            }
        }
    }
    d->format = best;
    return best->detect(head, len, opts, d, err);
}

void spoor_dialect_release(struct spoor_dialect *d)
{
    if (d->format && d->format->release)
        d->format->release(d);
    d->state = NULL;
}
