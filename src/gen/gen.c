/* spoor_gen_write: runs the model phase by phase, formats each event into a big
 * buffer, and hands full buffers to the output (plain or deflate) while the
 * truth counts them. */
#include "spoor/gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "gen/emit.h"
#include "gen/model.h"
#include "gen/out.h"
#include "gen/truth.h"
#include "spoor/write.h"

enum { GEN_BUF_SIZE = 4 << 20 };

void spoor_gen_truth_path(const char *trace, char *out, size_t cap)
{
    snprintf(out, cap, "%s.truth.json", trace);
}

static int check_opts(const struct spoor_gen_opts *o, struct spoor_error *err)
{
    if (o->size_bytes == 0)
        return spoor_fail(err, SPOOR_EUSAGE, "the size target must be at least 1 byte");
    if (o->procs < 0 || o->procs > 4096)
        return spoor_fail(err, SPOOR_EUSAGE, "procs must be between 1 and 4096, not %d", o->procs);
    if (o->gzip_level < 0 || o->gzip_level > 9)
        return spoor_fail(err, SPOOR_EUSAGE, "gzip level must be between 1 and 9, not %d", o->gzip_level);
    return 0;
}

/* Refuses a size the target's filesystem cannot hold. A gzip target is
 * estimated at the best ratio these traces reach (~16:1, ~3.5:1 with random
 * hashes), so only a run that cannot fit is refused; one that turns out not to
 * fit fails on the full disk, and its temporary is removed. */
static int check_room(const char *path, int level, const struct spoor_gen_opts *o, struct spoor_error *err)
{
    if (!strcmp(path, "-") || spoor_path_is_special(path))
        return 0;
    char *dir = spoor_path_dir(path);
    struct statvfs fs;
    int known = statvfs(dir, &fs) == 0;
    free(dir);
    if (!known) /* a missing directory: the open says so */
        return 0;
    double room = (double)fs.f_bavail * (double)fs.f_frsize;
    double least = (double)o->size_bytes / (level ? (o->random_hashes ? 4 : 20) : 1);
    if (least <= room)
        return 0;
    char packed[64] = "";
    if (level)
        snprintf(packed, sizeof packed, " (at least %.0f MB gzip'ed)", least / 1e6);
    return spoor_fail(err, SPOOR_EUSAGE, "%s: a %.0f MB trace%s does not fit in the %.0f MB free on its filesystem",
                      path, (double)o->size_bytes / 1e6, packed, room / 1e6);
}

/* Formats the phase in m->ev, flushing the buffer whenever less than a line fits. */
static int emit_phase(struct gen_out *out, struct gen_buf *b, const struct gen_model *m, struct spoor_error *err)
{
    for (size_t i = 0; i < m->nev; i++) {
        if (b->len + GEN_LINE_MAX > b->cap) {
            int rc = gen_out_write(out, b->data, b->len, err);
            if (rc)
                return rc;
            b->len = 0;
        }
        gen_emit_event(b, m, &m->ev[i]);
    }
    return 0;
}

int spoor_gen_write(const char *path, const struct spoor_gen_opts *opts, struct spoor_gen_result *result,
                    struct spoor_error *err)
{
    int rc = check_opts(opts, err);
    if (rc)
        return rc;
    int level = 0;
    if (gen_out_is_gzip_path(path))
        level = opts->gzip_level ? opts->gzip_level : 6;
    if ((rc = check_room(path, level, opts, err)))
        return rc;

    struct gen_model m;
    gen_model_init(&m, opts);
    struct gen_out out;
    struct gen_truth truth;
    struct gen_buf b = {spoor_xmalloc(GEN_BUF_SIZE), 0, GEN_BUF_SIZE};
    rc = gen_out_open(&out, path, level, err);
    if (rc) {
        free(b.data);
        gen_model_free(&m);
        return rc;
    }
    rc = gen_truth_open(&truth, path, &m, opts->truth, err);

    GEN_BUF_LIT(&b, "[\n");
    uint64_t line = 2;
    gen_model_prologue(&m);
    for (bool more = true; !rc && more;) {
        rc = emit_phase(&out, &b, &m, err);
        if (!rc)
            rc = gen_truth_add(&truth, &m, line, err);
        line += m.nev;
        more = out.bytes + b.len < opts->size_bytes;
        if (more)
            gen_model_next_phase(&m);
    }
    if (!rc && b.len)
        rc = gen_out_write(&out, b.data, b.len, err);
    struct spoor_gen_result r = {0};
    if (!rc)
        rc = gen_truth_finish(&truth, &m, &r, err);
    if (!rc) {
        r.bytes = out.bytes;
        rc = gen_out_commit(&out, &r.disk_bytes, err);
    }
    if (rc) {
        gen_out_abort(&out);
        gen_truth_abort(&truth);
    }
    free(b.data);
    gen_model_free(&m);
    if (!rc && result)
        *result = r;
    return rc;
}
