/* Chooses the reader for an input: the one the user named, or the one whose
 * sniffer is most confident about the first bytes. */
#include "read/field_map.h"
#include "spoor/load.h"

#include <stdio.h>
#include <string.h>

static const struct spoor_format *const formats[] = {
    &spoor_format_pfw,
    &spoor_format_jsonl,
    &spoor_format_csv,
    &spoor_format_pylog,
    &spoor_format_bpftrace,
    &spoor_format_ps,
    &spoor_format_blkparse,
    &spoor_format_ftrace,
    &spoor_format_lttng,
    &spoor_format_mpstat,
    &spoor_format_pmon,
    &spoor_format_pytext,
    &spoor_format_mllog,
};

const struct spoor_format *spoor_format_named(const char *name)
{
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
        if (strcmp(formats[i]->name, name) == 0)
            return formats[i];
    return NULL;
}

void spoor_format_names(char *buf, size_t size)
{
    size_t n = sizeof formats / sizeof *formats, used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i == 0 ? "" : i + 1 < n ? ", " : " or ",
                                 formats[i]->name);
}

/* Whether head holds anything besides blanks and a BOM (an empty input is
 * read by any reader as no events). */
static bool has_text(const char *head, size_t len)
{
    for (size_t i = spoor_bom_len(head, len); i < len; i++)
        if (head[i] != ' ' && head[i] != '\t' && head[i] != '\r' && head[i] != '\n')
            return true;
    return false;
}

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
    int best_score = -1;
    if (opts->format) {
        best = spoor_format_named(opts->format);
        if (!best) {
            char names[256];
            spoor_format_names(names, sizeof names);
            return spoor_fail(err, SPOOR_EUSAGE, "unknown format '%s' (expected %s)", opts->format, names);
        }
    } else if (opts->input_columns) {
        best = &spoor_format_bpftrace; /* only bpftrace tables are described by their columns */
    } else {
        /* Naming fields means the user describes a generic table. */
        bool generic = opts->field_ts || opts->field_name;
        for (size_t i = 0; i < sizeof formats / sizeof *formats; i++) {
            if (generic && formats[i] == &spoor_format_pfw)
                continue;
            int score = formats[i]->sniff(head, len);
            if (score > best_score) {
                best_score = score;
                best = formats[i];
            }
        }
        /* No reader knows this text: say so rather than read it wrongly. */
        if (best_score == 0 && has_text(head, len))
            return spoor_fail(err, SPOOR_EFORMAT, "could not detect the format (use --input-format)");
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
