/* out.c - output files replaced whole or not at all, through an mkstemp
 * temporary beside the target; FIFOs, devices and standard output written
 * in place. See out.h. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "out.h"
#include "args.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <io.h>
#include <windows.h>
#endif

static bool stdout_closed;

static void failed(const app_out *o, const char *what, int err)
{
    app_error(o->prog, "%s %s: %s: %s", o->flag, o->path, what, strerror(err));
}

/* s[0..n) as a new string. */
static char *dup_n(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

/* The directory part of path with its slash ("" for none). */
static size_t dir_len(const char *path)
{
    const char *slash = strrchr(path, '/');
#if defined(_WIN32)
    const char *back = strrchr(path, '\\');
    if (back && (!slash || back > slash)) slash = back;
#endif
    return slash ? (size_t)(slash - path) + 1u : 0u;
}

/* a[0..an) followed by b, as a new string. */
static char *join(const char *a, size_t an, const char *b)
{
    size_t bn = strlen(b);
    char *p = malloc(an + bn + 1);
    if (p) {
        memcpy(p, a, an);
        memcpy(p + an, b, bn + 1);
    }
    return p;
}

/* ---- the system ------------------------------------------------------------
 * Every call whose form differs between POSIX and Windows, each as one
 * function with its two branches. */

#if defined(_WIN32)
#define NULL_DEVICE "NUL"
#define NAME_MAX 255 /* bytes of a name in a folder (NTFS: 255 UTF-16 units) */
#ifndef SIGPIPE
#define SIGPIPE 13 /* no such signal: the status a POSIX shell gives a closed pipe */
#endif
#else
#define NULL_DEVICE "/dev/null"
#endif

/* Whether fd is not open. */
static bool fd_closed(int fd)
{
#if defined(_WIN32)
    return _get_osfhandle(fd) == -1;
#else
    return fcntl(fd, F_GETFD) == -1 && errno == EBADF;
#endif
}

#if defined(_WIN32)
/* Windows's identity of an open file, in errno's terms. */
static bool handle_id(HANDLE h, app_file_id *id)
{
    BY_HANDLE_FILE_INFORMATION info;
    if (h == INVALID_HANDLE_VALUE || !GetFileInformationByHandle(h, &info)) {
        errno = EBADF;
        return false;
    }
    id->dev = info.dwVolumeSerialNumber;
    id->ino = (uint64_t)info.nFileIndexHigh << 32 | info.nFileIndexLow;
    return true;
}

/* An existing file or folder opened only to be asked about. */
static HANDLE open_to_query(const char *path)
{
    return CreateFileA(path, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                       OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
}
#endif

/* Which file the existing path (links followed) names; false with errno. */
static bool path_id(const char *path, app_file_id *id)
{
#if defined(_WIN32)
    HANDLE h = open_to_query(path);
    bool ok = handle_id(h, id);
    if (h != INVALID_HANDLE_VALUE) CloseHandle(h);
    if (h == INVALID_HANDLE_VALUE) errno = ENOENT;
    return ok;
#else
    struct stat st;
    if (stat(path, &st) != 0) return false;
    *id = (app_file_id){(uint64_t)st.st_dev, (uint64_t)st.st_ino};
    return true;
#endif
}

/* Which file fd is open on; false with errno. */
static bool fd_id(int fd, app_file_id *id)
{
#if defined(_WIN32)
    return handle_id((HANDLE)_get_osfhandle(fd), id);
#else
    struct stat st;
    if (fstat(fd, &st) != 0) return false;
    *id = (app_file_id){(uint64_t)st.st_dev, (uint64_t)st.st_ino};
    return true;
#endif
}

/* The existing path's canonical name, links followed; NULL with errno. */
static char *real_path(const char *path)
{
#if defined(_WIN32)
    HANDLE h = open_to_query(path);
    if (h == INVALID_HANDLE_VALUE) {
        errno = ENOENT;
        return NULL;
    }
    char buf[MAX_PATH + 8];
    DWORD n = GetFinalPathNameByHandleA(h, buf, sizeof buf, FILE_NAME_NORMALIZED | VOLUME_NAME_DOS);
    CloseHandle(h);
    if (n == 0 || n >= sizeof buf) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    const char *name = strncmp(buf, "\\\\?\\", 4) == 0 ? buf + 4 : buf; /* "\\?\C:\..." */
    return dup_n(name, strlen(name));
#else
    return realpath(path, NULL);
#endif
}

/* path with the symbolic links of its last component followed: the file
 * that writing through path creates or replaces. NULL with errno set. On
 * Windows, where a link to no file is rare (making one needs a privilege),
 * path itself. */
static char *follow_links(const char *path)
{
#if defined(_WIN32)
    char *p = dup_n(path, strlen(path));
    if (!p) errno = ENOMEM;
    return p;
#else
    enum { LINK_HOPS = 40 };
    char *cur = dup_n(path, strlen(path));
    for (int hops = 0; cur; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) return cur;
        char link[PATH_MAX];
        ssize_t n = hops < LINK_HOPS ? readlink(cur, link, sizeof link - 1) : -1;
        if (n < 0 || (size_t)n >= sizeof link - 1) {
            int err = hops < LINK_HOPS ? (n < 0 ? errno : ENAMETOOLONG) : ELOOP;
            free(cur);
            errno = err;
            return NULL;
        }
        link[n] = '\0';
        char *next = link[0] == '/' ? dup_n(link, (size_t)n) : join(cur, dir_len(cur), link);
        free(cur);
        cur = next;
    }
    errno = ENOMEM;
    return NULL;
#endif
}

/* Gives the temporary fd the mode of the file it replaces (st, where
 * exists) or of a new file, and its owner where allowed (root); 0 or an
 * errno. Windows: the folder's permissions, which the temporary has. */
static int take_mode(int fd, bool exists, const struct stat *st)
{
#if defined(_WIN32)
    (void)fd;
    (void)exists;
    (void)st;
    return 0;
#else
    mode_t mask = umask(0);
    umask(mask);
    mode_t mode = exists ? (st->st_mode & 07777) : (0666 & ~mask);
    if (exists && (st->st_uid != geteuid() || st->st_gid != getegid()))
        (void)!fchown(fd, st->st_uid, st->st_gid);
    return fchmod(fd, mode) == 0 ? 0 : errno;
#endif
}

/* Whether the directory of target, a file of st, refuses to have it
 * replaced or removed: another user's file in a sticky directory that is
 * not ours either (root may). Windows has no sticky directories. */
static bool sticky_refuses(const char *target, const struct stat *st)
{
#if defined(_WIN32)
    (void)target;
    (void)st;
    return false;
#else
    uid_t me = geteuid();
    if (me == 0 || st->st_uid == me) return false;
    size_t d = dir_len(target);
    char *dir = d ? dup_n(target, d) : dup_n(".", 1);
    struct stat ds;
    bool refuses = dir && stat(dir, &ds) == 0 && (ds.st_mode & S_ISVTX) && ds.st_uid != me;
    free(dir);
    return refuses;
#endif
}

/* An existing FIFO or device opened for writing; -1 with errno. */
static int open_direct(const char *path)
{
#if defined(_WIN32)
    return open(path, O_WRONLY | O_BINARY | O_NOINHERIT);
#else
    return open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
#endif
}

/* Writes fd's data through to the disk: 0, or -1 with errno. */
static int sync_fd(int fd)
{
#if defined(_WIN32)
    return _commit(fd);
#else
    return fsync(fd);
#endif
}

/* The Windows calls' failure in errno's terms. */
#if defined(_WIN32)
static int win_errno(void)
{
    switch (GetLastError()) {
    case ERROR_FILE_EXISTS:
    case ERROR_ALREADY_EXISTS: return EEXIST;
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND: return ENOENT;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION: return EACCES;
    case ERROR_DISK_FULL: return ENOSPC;
    case ERROR_NOT_SAME_DEVICE: return EXDEV;
    default: return EIO;
    }
}
#endif

/* A second name, to, for the file from; fails where to exists. 0, or -1
 * with errno. */
static int hard_link(const char *from, const char *to)
{
#if defined(_WIN32)
    if (CreateHardLinkA(to, from, NULL)) return 0;
    errno = win_errno();
    return -1;
#else
    return link(from, to);
#endif
}

/* Renames from to to, replacing a file there at once. 0, or -1 with errno. */
static int replace_file(const char *from, const char *to)
{
#if defined(_WIN32)
    if (MoveFileExA(from, to, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) return 0;
    errno = win_errno();
    return -1;
#else
    return rename(from, to);
#endif
}

/* ---- the standard descriptors -------------------------------------------- */

void app_std_fds_guard(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        if (!fd_closed(fd)) continue;
        if (fd == 1) stdout_closed = true;
        int n = open(NULL_DEVICE, fd == 0 ? O_RDONLY : O_WRONLY);
        if (n >= 0 && n != fd) close(n); /* cannot happen: the lowest free is fd */
    }
}

bool app_stdout_was_closed(void) { return stdout_closed; }

int app_stdout_finish(const char *prog)
{
    if (fflush(stdout) == 0 && !ferror(stdout)) return 0;
    if (errno == EPIPE) return 128 + SIGPIPE;
    app_error(prog, "writing standard output failed: %s", strerror(errno));
    return 1;
}

int app_print_to_stdout(const char *prog, void (*print)(FILE *f))
{
    if (stdout_closed) {
        app_error(prog, "standard output is closed: nowhere to print to");
        return 2;
    }
    print(stdout);
    return app_stdout_finish(prog);
}

/* ---- names ------------------------------------------------------------------ */

/* The canonical name of a file that does not exist yet: its directory
 * resolved, then its own name. */
static char *canonical_new(const char *target)
{
    size_t d = dir_len(target);
    char *dir = d ? dup_n(target, d) : dup_n(".", 1);
    if (!dir) return NULL;
    char *real = real_path(dir);
    free(dir);
    if (!real) return NULL;
    size_t rn = strlen(real);
    char *with_slash = join(real, rn, "/");
    free(real);
    if (!with_slash) return NULL;
    char *out = join(with_slash, rn + (rn > 1u), target + d); /* "/" ends in a slash */
    free(with_slash);
    return out;
}

/* ---- staging ---------------------------------------------------------------- */

static int stage_stdout(app_out *o)
{
    if (!(o->options & APP_OUT_ALLOW_STDOUT)) {
        app_error(o->prog, "%s: '-' (standard output) is not allowed here; name a file", o->flag);
        return 2;
    }
    if (stdout_closed) {
        app_error(o->prog, "%s -: standard output is closed", o->flag);
        return 2;
    }
    o->kind = APP_OUT_STDOUT;
    o->exists = fd_id(STDOUT_FILENO, &o->id);
    return 0;
}

/* Of a file name, the most the temporary's name keeps: with the dot
 * before it, ".XXXXXX" and the ".old" that app_out_commit_all adds, the
 * longest name a directory takes (NAME_MAX) still fits. */
#define TEMP_NAME_KEEP (NAME_MAX - 1 - 7 - 4)

/* The temporary beside the target: "dir/.name.XXXXXX" (name cut to
 * TEMP_NAME_KEEP bytes), mode of the target (or what a new file would
 * get), owner kept where allowed. */
static int make_temp(app_out *o, const struct stat *st)
{
    size_t d = dir_len(o->target);
    char *dir = dup_n(o->target, d);
    char *tmp = NULL;
    if (dir) {
        size_t keep = strlen(o->target + d);
        char *name = dup_n(o->target + d, keep < TEMP_NAME_KEEP ? keep : TEMP_NAME_KEEP);
        char *base = name ? join(".", 1, name) : NULL;
        free(name);
        if (base) tmp = join(dir, d, base);
        free(base);
        char *full = tmp ? join(tmp, strlen(tmp), ".XXXXXX") : NULL;
        free(tmp);
        tmp = full;
    }
    free(dir);
    if (!tmp) {
        failed(o, "cannot stage", ENOMEM);
        return 2;
    }
    o->fd = mkstemp(tmp);
    if (o->fd < 0) {
        int err = errno;
        free(tmp);
        failed(o, "cannot create a file in its directory", err);
        return 2;
    }
    o->tmp = tmp;
    int err = take_mode(o->fd, o->exists, st);
    if (err) {
        failed(o, "cannot set the mode of its temporary", err);
        return 2;
    }
    return 0;
}

/* Whether id is the file standard output writes to. */
static bool is_stdout(const app_file_id *id)
{
    app_file_id out;
    return fd_id(STDOUT_FILENO, &out) && out.dev == id->dev && out.ino == id->ino;
}

/* An existing target: a directory is refused, a FIFO, device or the
 * program's own standard output is written in place, a regular file is
 * replaced (in its real directory). */
static int stage_existing(app_out *o, const struct stat *st)
{
    o->exists = true;
    if (S_ISDIR(st->st_mode)) {
        app_error(o->prog, "%s %s: is a directory", o->flag, o->path);
        return 2;
    }
    if (access(o->path, W_OK) != 0) {
        failed(o, "cannot be written", errno);
        return 2;
    }
    if (!path_id(o->path, &o->id)) {
        failed(o, "cannot be checked", errno);
        return 2;
    }
    if (is_stdout(&o->id)) { /* /dev/stdout, /proc/self/fd/1, or the file it goes to */
        if (o->options & APP_OUT_ALLOW_STDOUT) {
            o->kind = APP_OUT_STDOUT;
            return 0;
        }
        /* A pipe or a file: what else goes to standard output would mix
         * with this, or be lost with the file it replaces. A terminal or
         * /dev/null takes both. */
        if (!S_ISCHR(st->st_mode)) {
            app_error(o->prog, "%s %s: is where standard output goes, which is not allowed "
                      "here; name another file", o->flag, o->path);
            return 2;
        }
    }
    o->target = S_ISREG(st->st_mode) ? real_path(o->path) : dup_n(o->path, strlen(o->path));
    if (!o->target) {
        failed(o, "cannot be resolved", errno);
        return 2;
    }
    o->kind = S_ISREG(st->st_mode) ? APP_OUT_REPLACE : APP_OUT_DIRECT;
    if (o->kind == APP_OUT_REPLACE && sticky_refuses(o->target, st)) {
        app_error(o->prog, "%s %s: belongs to another user in a sticky directory (like /tmp), "
                  "where it cannot be replaced; name another file", o->flag, o->path);
        return 2;
    }
    return o->kind == APP_OUT_REPLACE ? make_temp(o, st) : 0;
}

static int stage_file(app_out *o)
{
    struct stat st;
    if (stat(o->path, &st) == 0) return stage_existing(o, &st);
    if (errno != ENOENT) {
        failed(o, "cannot be checked", errno);
        return 2;
    }
    /* A new file, or a link to one that does not exist yet. */
    o->target = follow_links(o->path);
    if (!o->target) {
        failed(o, "cannot follow the link", errno);
        return 2;
    }
    o->resolved = canonical_new(o->target);
    if (!o->resolved) {
        failed(o, "its directory cannot be used", errno);
        return 2;
    }
    o->kind = APP_OUT_REPLACE;
    return make_temp(o, &st);
}

int app_out_stage(app_out *o, const char *prog, const char *flag, const char *path,
                  unsigned options)
{
    *o = (app_out){.prog = prog, .flag = flag, .path = path, .options = options, .fd = -1};
    if (!path) return 0;
    if (app_has_control(path)) { /* a line break or an escape code: no file name of ours */
        app_error(prog, "%s %s: a file name with a control character is not allowed; name "
                  "another file", flag, path);
        return 2;
    }
    int rc = strcmp(path, "-") == 0 ? stage_stdout(o) : stage_file(o);
    if (rc != 0) app_out_discard(o);
    return rc;
}

bool app_out_same(const app_out *a, const app_out *b)
{
    if (a->kind == APP_OUT_NONE || b->kind == APP_OUT_NONE) return false;
    if (a->exists && b->exists) return a->id.dev == b->id.dev && a->id.ino == b->id.ino;
    return a->resolved && b->resolved && strcmp(a->resolved, b->resolved) == 0;
}

static int same_file(const app_out *a, const char *flag, const char *path)
{
    app_error(a->prog, "%s %s and %s %s name the same file", a->flag, a->path, flag, path);
    return 2;
}

int app_out_check_pair(const app_out *a, const app_out *b)
{
    return app_out_same(a, b) ? same_file(a, b->flag, b->path) : 0;
}

int app_out_check_distinct(const app_out *outs, size_t n)
{
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        for (size_t j = i + 1; j < n && rc == 0; j++) rc = app_out_check_pair(&outs[i], &outs[j]);
    return rc;
}

int app_out_check_input(const app_out *outs, size_t n, const char *flag, const char *path)
{
    app_file_id id;
    if (!path || !path_id(path, &id)) return 0;
    for (size_t i = 0; i < n; i++)
        if (outs[i].kind != APP_OUT_NONE && outs[i].exists && outs[i].id.dev == id.dev &&
            outs[i].id.ino == id.ino)
            return same_file(&outs[i], flag, path);
    return 0;
}

/* ---- writing ---------------------------------------------------------------- */

FILE *app_out_begin(app_out *o)
{
    FILE *f = NULL;
    switch (o->kind) {
    case APP_OUT_STDOUT: return stdout;
    case APP_OUT_DIRECT: {
        int fd = open_direct(o->target);
        f = fd >= 0 ? fdopen(fd, "wb") : NULL;
        if (!f) {
            failed(o, "cannot open", errno);
            if (fd >= 0) close(fd);
        }
        return f;
    }
    case APP_OUT_REPLACE:
        f = o->fd >= 0 ? fdopen(o->fd, "wb") : NULL;
        if (!f) failed(o, "cannot write its temporary", o->fd >= 0 ? errno : EBADF);
        else o->fd = -1; /* the stream owns it now */
        return f;
    default: return NULL;
    }
}

int app_out_end(app_out *o, FILE *f)
{
    bool ok = fflush(f) == 0 && !ferror(f);
    int err = ok ? 0 : errno;
    if (o->kind == APP_OUT_STDOUT) {
        if (ok) return 0;
        if (err == EPIPE) {
            o->pipe_closed = true;
            return 0;
        }
        failed(o, "writing failed", err);
        return 1;
    }
    if (ok && o->kind == APP_OUT_REPLACE && sync_fd(fileno(f)) != 0) {
        ok = false;
        err = errno;
    }
    if (fclose(f) != 0 && ok) {
        ok = false;
        err = errno;
    }
    if (!ok) failed(o, "writing failed", err ? err : EIO);
    return ok ? 0 : 1;
}

int app_out_commit(app_out *o)
{
    if (o->kind != APP_OUT_REPLACE || !o->tmp) return 0;
    if (o->fd >= 0) {
        close(o->fd);
        o->fd = -1;
    }
    int rc;
    if (o->options & APP_OUT_NEW_ONLY) {
        rc = hard_link(o->tmp, o->target);
        if (rc == 0) unlink(o->tmp);
    } else {
        rc = replace_file(o->tmp, o->target);
    }
    if (rc != 0) {
        failed(o, "cannot put it in place", errno);
        return 1;
    }
    free(o->tmp);
    o->tmp = NULL;
    return 0;
}

/* What app_out_commit_all did to one output, to undo it. */
typedef struct commit_undo {
    char *old;     /* the replaced file, kept under this name until the end */
    bool replaced; /* renamed (or linked) into place */
} commit_undo;

/* Puts o's temporary in place like app_out_commit, the file it replaces
 * first linked to "<temporary>.old" so that it can come back. */
static int commit_keeping_old(app_out *o, commit_undo *u)
{
    if (o->kind != APP_OUT_REPLACE || !o->tmp) return 0;
    if (!(o->options & APP_OUT_NEW_ONLY)) {
        u->old = join(o->tmp, strlen(o->tmp), ".old");
        if (!u->old) {
            failed(o, "cannot put it in place", ENOMEM);
            return 1;
        }
        if (hard_link(o->target, u->old) != 0) {
            int err = errno;
            free(u->old);
            u->old = NULL;
            if (err != ENOENT) { /* ENOENT: nothing to replace */
                failed(o, "cannot put it in place", err);
                return 1;
            }
        }
    }
    int rc = app_out_commit(o);
    u->replaced = rc == 0;
    return rc;
}

/* Gives target back what it held before (or removes it, where it did not
 * exist); says so where that fails. */
static void undo_commit(app_out *o, commit_undo *u)
{
    if (!u->replaced) return;
    int rc = u->old ? replace_file(u->old, o->target) : unlink(o->target);
    if (rc != 0) failed(o, "written, and could not be put back as it was", errno);
    else if (u->old) {
        free(u->old);
        u->old = NULL;
    }
}

int app_out_commit_all(app_out *outs, size_t n)
{
    assert(n <= APP_OUT_COMMIT_MAX && "more outputs than app_out_commit_all keeps");
    commit_undo undo[APP_OUT_COMMIT_MAX] = {{0}};
    int rc = 0;
    size_t done = 0;
    for (; done < n && rc == 0; done++) rc = commit_keeping_old(&outs[done], &undo[done]);
    if (rc != 0) /* the one that failed is done - 1: undo the ones before */
        for (size_t i = done - 1; i-- > 0;) undo_commit(&outs[i], &undo[i]);
    for (size_t i = 0; i < n; i++) {
        if (undo[i].old && unlink(undo[i].old) != 0)
            app_error(outs[i].prog, "%s %s: left %s behind: %s", outs[i].flag, outs[i].path,
                      undo[i].old, strerror(errno));
        free(undo[i].old);
    }
    return rc;
}

void app_out_discard(app_out *o)
{
    if (o->fd >= 0) close(o->fd);
    o->fd = -1;
    if (o->tmp && unlink(o->tmp) != 0 && errno != ENOENT)
        app_error(o->prog, "%s %s: left its temporary %s behind: %s", o->flag, o->path, o->tmp,
                  strerror(errno));
    free(o->tmp);
    free(o->target);
    free(o->resolved);
    o->tmp = o->target = o->resolved = NULL;
}
