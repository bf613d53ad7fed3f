#include "testutil.h"

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

const char *testutil_tmpdir(void)
{
    static char dir[4096];
    if (!dir[0]) {
        const char *root = getenv("SPOOR_TMP");
        snprintf(dir, sizeof dir, "%s/unit-%d-XXXXXX", root && *root ? root : "/tmp", (int)getpid());
        mkdir(root && *root ? root : "/tmp", 0755);
        if (!mkdtemp(dir)) {
            perror("mkdtemp");
            exit(1);
        }
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
