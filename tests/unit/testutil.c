#include "testutil.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *testutil_data(const char *relative)
{
    static char path[8192];
    const char *root = getenv("SPOOR_DATA");
    struct stat st;
    if (!root || stat(root, &st) != 0 || !S_ISDIR(st.st_mode)) {
        printf("skipped: shared data folder %s is absent\n", root ? root : "(SPOOR_DATA unset)");
        exit(77);
    }
    snprintf(path, sizeof path, "%s/%s", root, relative);
    return path;
}

static char tmpdir[4096];

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

/* The directory goes at exit, or it piles up run after run (gigabytes of
 * generated traces); SPOOR_KEEP_TMP=1 keeps it to look at a failure. */
static void remove_tmpdir(void)
{
    const char *keep = getenv("SPOOR_KEEP_TMP");
    if (keep && *keep && strcmp(keep, "0") != 0)
        fprintf(stderr, "kept %s\n", tmpdir);
    else
        nftw(tmpdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

const char *testutil_tmpdir(void)
{
    char *dir = tmpdir;
    if (!dir[0]) {
        const char *root = getenv("SPOOR_TMP");
        snprintf(dir, sizeof tmpdir, "%s/unit-%d-XXXXXX", root && *root ? root : "/tmp", (int)getpid());
        mkdir(root && *root ? root : "/tmp", 0755);
        if (!mkdtemp(dir)) {
            perror("mkdtemp");
            exit(1);
        }
        atexit(remove_tmpdir);
    }
    return dir;
}

const char *testutil_write(const char *name, const void *data, size_t len)
{
    static char path[8192];
    snprintf(path, sizeof path, "%s/%s", testutil_tmpdir(), name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
    return path;
}
