/* Temporary file + rename: rename(2) within one directory is atomic, so
 * readers see the old file or the complete new one. The temporary for DIR/BASE
 * is DIR/.BASE.tmp-PID-NNNNNN: a signal handler removes it (temp_registry.c),
 * and when SIGKILL or a crash leaves it behind, the next writer of the same
 * target removes it, since no process PID is alive any more. */
#include "spoor/write.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/temp_registry.h"

static void release(struct spoor_atomic_file *f)
{
    if (f->tmp)
        spoor_temp_unregister(f->slot);
    free(f->path);
    free(f->tmp);
    f->fp = NULL;
    f->path = f->tmp = NULL;
}

/* The mode a freshly created file would get: the target's if it exists. */
static mode_t file_mode(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0)
        return st.st_mode & 07777;
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

bool spoor_path_is_special(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

char *spoor_path_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? spoor_xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : spoor_xstrdup(".");
}

/* Whether name is prefix followed by PID-NNNNNN of a process that is gone.
 * A writer in another PID namespace (another container on the same directory)
 * looks gone too: a limit of naming by PID. */
static bool is_orphan(const char *name, const char *prefix, size_t prefix_len)
{
    if (strncmp(name, prefix, prefix_len))
        return false;
    char *end;
    errno = 0;
    long pid = strtol(name + prefix_len, &end, 10);
    if (errno || pid <= 0 || end == name + prefix_len || *end != '-' || strlen(end + 1) != 6)
        return false;
    return pid != (long)getpid() && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* Removes the temporaries for DIR/BASE whose writer died without cleaning up. */
static void remove_orphans(const char *dir, const char *base)
{
    DIR *d = opendir(*dir ? dir : ".");
    if (!d)
        return;
    size_t cap = strlen(base) + 8;
    char *prefix = spoor_xmalloc(cap);
    size_t prefix_len = (size_t)snprintf(prefix, cap, ".%s.tmp-", base);
    for (struct dirent *e; (e = readdir(d));)
        if (is_orphan(e->d_name, prefix, prefix_len))
            unlinkat(dirfd(d), e->d_name, 0);
    free(prefix);
    closedir(d);
}

int spoor_atomic_file_open(struct spoor_atomic_file *f, const char *path, struct spoor_error *err)
{
    memset(f, 0, sizeof *f);
    if (!path || !strcmp(path, "-")) {
        f->fp = stdout;
        return SPOOR_OK;
    }
    struct stat st;
    bool exists = stat(path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode))
        return spoor_fail(err, SPOOR_EIO, "cannot write %s: it is a directory", path);
    if (exists && !S_ISREG(st.st_mode)) { /* spoor_path_is_special, from the stat above */
        f->fp = fopen(path, "w");
        if (!f->fp)
            return spoor_fail(err, SPOOR_EIO, "cannot write %s: %s", path, strerror(errno));
        f->path = spoor_xstrdup(path);
        return SPOOR_OK;
    }
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    const char *base = slash ? slash + 1 : path;
    char *dir = spoor_xstrndup(path, dir_len);
    remove_orphans(dir, base);
    free(dir);
    size_t cap = strlen(path) + 48;
    char *prefix = spoor_xmalloc(cap);
    snprintf(prefix, cap, "%.*s.%s.tmp-%ld-", (int)dir_len, path, base, (long)getpid());
    int fd = spoor_temp_create(prefix, &f->tmp, &f->slot);
    free(prefix);
    if (fd < 0)
        return spoor_fail(err, SPOOR_EIO, "cannot create %s: %s", path, strerror(errno));
    fchmod(fd, file_mode(path));
    f->fp = fdopen(fd, "w");
    if (!f->fp) {
        int e = errno;
        close(fd);
        unlink(f->tmp);
        release(f);
        return spoor_fail(err, SPOOR_EIO, "cannot create %s: %s", path, strerror(e));
    }
    f->path = spoor_xstrdup(path);
    return SPOOR_OK;
}

int spoor_atomic_file_commit(struct spoor_atomic_file *f, struct spoor_error *err)
{
    if (!f->path) {
        int bad = fflush(f->fp) != 0 || ferror(f->fp);
        int e = errno;
        release(f);
        return bad ? spoor_fail(err, SPOOR_EIO, "cannot write to stdout: %s", strerror(e ? e : EIO)) : SPOOR_OK;
    }
    int bad = fflush(f->fp) != 0 || ferror(f->fp);
    int e = errno;
    if (fclose(f->fp) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (!bad && f->tmp && rename(f->tmp, f->path) != 0) {
        bad = 1;
        e = errno;
    }
    if (bad) {
        if (f->tmp)
            unlink(f->tmp);
        spoor_fail(err, SPOOR_EIO, "cannot write %s: %s", f->path, strerror(e ? e : EIO));
    }
    release(f);
    return bad ? SPOOR_EIO : SPOOR_OK;
}

void spoor_atomic_file_abort(struct spoor_atomic_file *f)
{
    if (f->path) {
        fclose(f->fp);
        if (f->tmp)
            unlink(f->tmp);
    }
    release(f);
}
