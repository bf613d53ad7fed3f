#include "spoor/load.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Makes dir unless it is a directory already. */
static int make_one(const char *dir, struct spoor_error *err)
{
    struct stat st;
    if (mkdir(dir, 0777) == 0 || (errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode)))
        return SPOOR_OK;
    if (errno == EEXIST)
        return spoor_fail(err, SPOOR_EIO, "%s: cannot create the directory: a file of that name exists", dir);
    return spoor_fail(err, SPOOR_EIO, "%s: cannot create the directory: %s", dir, strerror(errno));
}

int spoor_mkdirs(const char *path, struct spoor_error *err)
{
    if (!*path)
        return spoor_fail(err, SPOOR_EUSAGE, "an empty directory name");
    char *dir = spoor_xstrdup(path);
    int st = SPOOR_OK;
    /* Each parent in turn, from the first component after any leading '/'. */
    for (char *p = dir + 1; st == SPOOR_OK && *p; p++)
        if (*p == '/' && p[-1] != '/') {
            *p = '\0';
            st = make_one(dir, err);
            *p = '/';
        }
    if (st == SPOOR_OK)
        st = make_one(dir, err);
    free(dir);
    return st;
}
