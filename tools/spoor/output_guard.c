/* Is an output one of the inputs? By device and inode when both exist, and by
 * the canonical path (symlinks resolved; for a file not there yet, its
 * directory's) so that an output that does not exist yet still matches the
 * sidecar a run would write under that name. */
#include "output_guard.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "spoor/write.h"
#include "spoor/load.h"

struct place {
    const char *path;
    bool exists;
    struct stat st;
    char *canonical;
};

static char *canonical_path(const char *path)
{
    char *full = realpath(path, NULL);
    if (full)
        return full;
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    char *dir = spoor_path_dir(path);
    char *rdir = realpath(dir, NULL);
    free(dir);
    if (!rdir)
        return spoor_xstrdup(path);
    size_t n = strlen(rdir) + strlen(base) + 2;
    full = spoor_xmalloc(n);
    snprintf(full, n, "%s/%s", strcmp(rdir, "/") ? rdir : "", base);
    free(rdir);
    return full;
}

static void place_init(struct place *p, const char *path)
{
    p->path = path;
    p->exists = stat(path, &p->st) == 0;
    p->canonical = canonical_path(path);
}

static bool same_place(const struct place *a, const struct place *b)
{
    if (a->exists && b->exists && a->st.st_dev == b->st.st_dev && a->st.st_ino == b->st.st_ino)
        return true;
    return !strcmp(a->canonical, b->canonical);
}

/* What paths[i] of check_input is to the input. */
static const char *const roles[] = {"the input", "the gzip index of the input", "the snapshot of the input",
                                    "the snapshot (in --cache-dir) of the input"};

/* 2 when out is input or one of its sidecars. */
static int check_input(const char *cmd, const struct place *out, const char *input, const char *cache_dir)
{
    char paths[4][PATH_MAX + 64];
    snprintf(paths[0], sizeof paths[0], "%s", input);
    spoor_index_path(input, paths[1], sizeof paths[1]);
    spoor_snapshot_path(input, NULL, paths[2], sizeof paths[2]);
    size_t n = 3;
    if (cache_dir)
        spoor_snapshot_path(input, cache_dir, paths[n++], sizeof paths[0]);
    int code = 0;
    for (size_t i = 0; i < n && !code; i++) {
        struct place p;
        place_init(&p, paths[i]);
        if (same_place(out, &p)) {
            fprintf(stderr, "spoor %s: the output %s is %s %s; refusing to overwrite it\n", cmd, out->path,
                    roles[i], input);
            code = 2;
        }
        free(p.canonical);
    }
    return code;
}

static bool is_checked_output(const char *path)
{
    return path && strcmp(path, "-") && !spoor_path_is_special(path);
}

int output_guard(const char *cmd, const char *const *outputs, size_t noutputs, const char *const *inputs,
                 size_t ninputs, const char *cache_dir)
{
    int code = 0;
    struct place *outs = spoor_xcalloc(noutputs ? noutputs : 1, sizeof *outs);
    for (size_t o = 0; o < noutputs && !code; o++) {
        if (!is_checked_output(outputs[o]))
            continue;
        place_init(&outs[o], outputs[o]);
        for (size_t i = 0; i < ninputs && !code; i++)
            if (strcmp(inputs[i], "-"))
                code = check_input(cmd, &outs[o], inputs[i], cache_dir);
        for (size_t e = 0; e < o && !code; e++)
            if (outs[e].path && same_place(&outs[o], &outs[e])) {
                fprintf(stderr, "spoor %s: the outputs %s and %s are the same file\n", cmd, outs[e].path,
                        outs[o].path);
                code = 2;
            }
    }
    for (size_t o = 0; o < noutputs; o++)
        free(outs[o].canonical);
    free(outs);
    return code;
}

int output_guard1(const char *cmd, const char *output, const char *const *inputs, size_t ninputs,
                  const char *cache_dir)
{
    return output_guard(cmd, &output, 1, inputs, ninputs, cache_dir);
}
