/* bench_cli.c - ecs_bench's counts, flag suggestions and --csv file. */
#include "bench_cli.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

_Noreturn void bench_fail(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("ecs_bench: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(code);
}

/* ---- counts --------------------------------------------------------------- */

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* The power of ten of a count's suffix; -1 for no suffix this reads. */
static int suffix_scale(const char *t)
{
    if (t[0] == '\0') return 0;
    if (t[1] == '\0') return t[0] == 'k' || t[0] == 'K' ? 3 : t[0] == 'M' ? 6 : t[0] == 'G' ? 9 : -1;
    if ((t[0] != 'e' && t[0] != 'E') || !is_digit(t[1])) return -1;
    if (t[2] == '\0') return t[1] - '0';
    if (!is_digit(t[2]) || t[3] != '\0') return -1;
    return (t[1] - '0') * 10 + (t[2] - '0');
}

#define COUNT_FORMS "digits (200000), with _ between digits (200_000), a k, M or G " \
                    "suffix (200k, 1.5M) or a power of ten (2e5)"

uint32_t bench_parse_count(const char *flag, const char *s, uint32_t lo, uint32_t hi)
{
    /* The digits alone (separators dropped) and how many follow the point. */
    char digits[128];
    size_t n = 0;
    int frac = -1;
    const char *p = s;
    for (; *p; p++) {
        if (is_digit(*p)) {
            if (n == sizeof digits) bench_fail(2, "%s: '%s' is out of range: a whole number "
                                               "from %u to %u", flag, s, lo, hi);
            digits[n++] = *p;
            frac += frac >= 0;
        } else if ((*p == '_' || (*p == '.' && frac < 0)) && p > s && is_digit(p[-1]) &&
                   is_digit(p[1])) {
            if (*p == '.') frac = 0;
        } else {
            break;
        }
    }
    int scale = n ? suffix_scale(p) : -1;
    if (scale < 0)
        bench_fail(2, "%s: '%s' is not a whole number from %u to %u: give " COUNT_FORMS, flag, s,
                   lo, hi);
    int shift = scale - (frac > 0 ? frac : 0);
    for (; shift < 0; shift++, n--) /* digits past the units must be zeros */
        if (digits[n - 1] != '0') bench_fail(2, "%s: '%s' is not a whole number", flag, s);
    uint64_t v = 0;
    bool range = false;
    for (size_t i = 0; i < n && !range; i++) {
        v = v * 10u + (uint64_t)(digits[i] - '0');
        range = v > hi;
    }
    for (; shift > 0 && !range; shift--) {
        v *= 10u;
        range = v > hi;
    }
    if (range || v < lo)
        bench_fail(2, "%s: '%s' is out of range: a whole number from %u to %u", flag, s, lo, hi);
    return (uint32_t)v;
}

/* ---- flag suggestions ----------------------------------------------------- */

/* Insertions, deletions and substitutions between a[0..n) and b, each 1. */
static size_t distance(const char *a, size_t n, const char *b)
{
    size_t m = strlen(b), row[64], prev;
    if (n >= 64 || m >= 64) return n > m ? n : m;
    for (size_t j = 0; j <= m; j++) row[j] = j;
    for (size_t i = 1; i <= n; i++) {
        prev = row[0];
        row[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t best = prev + (a[i - 1] != b[j - 1]);
            if (row[j] + 1 < best) best = row[j] + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            prev = row[j];
            row[j] = best;
        }
    }
    return row[m];
}

_Noreturn void bench_unknown_option(const char *arg, const struct option *longopts)
{
    const char *name = strncmp(arg, "--", 2) == 0 ? arg + 2 : arg;
    size_t len = strcspn(name, "="), best_d = SIZE_MAX;
    const char *best = NULL;
    for (const struct option *o = longopts; o->name; o++) {
        size_t d = distance(name, len, o->name), k = strlen(o->name);
        size_t slip = k <= 4 ? 1u : k <= 8 ? 2u : 3u; /* a slip, not another word */
        if (d <= slip && d < len && d < best_d) best = o->name, best_d = d;
    }
    if (best) bench_fail(2, "unknown option '%s': did you mean --%s? (see --help)", arg, best);
    bench_fail(2, "unknown option '%s' (see --help)", arg);
}

/* ---- the --csv file ------------------------------------------------------- */

/* The temporary while staged, for the signal handler. */
static const char *volatile staged_tmp;

static void on_signal(int sig)
{
    const char *tmp = staged_tmp;
    if (tmp) unlink(tmp);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* path with its symbolic links followed (to a name that need not exist
 * yet); NULL with errno set when a link cannot be read or they loop. */
static char *follow_links(const char *path)
{
    char *cur = malloc(strlen(path) + 1u);
    if (cur) strcpy(cur, path);
    for (int hop = 0; cur && hop < 40; hop++) {
        struct stat st;
        char link[PATH_MAX];
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) return cur;
        ssize_t n = readlink(cur, link, sizeof link - 1u);
        if (n < 0) break;
        link[n] = '\0';
        /* A relative link counts from the link's own directory. */
        const char *slash = strrchr(cur, '/');
        size_t dir = link[0] != '/' && slash ? (size_t)(slash - cur) + 1u : 0u;
        char *next = malloc(dir + (size_t)n + 1u);
        if (next) {
            memcpy(next, cur, dir);
            memcpy(next + dir, link, (size_t)n + 1u);
        }
        free(cur);
        cur = next;
        if (hop == 39) errno = ELOOP;
    }
    free(cur);
    return NULL;
}

static _Noreturn void csv_fail(const bench_csv *csv, int code, const char *what)
{
    int err = errno;
    if (csv->tmp) unlink(csv->tmp);
    bench_fail(code, "--csv %s: %s: %s", csv->path, what, strerror(err));
}

void bench_csv_stage(bench_csv *csv, const char *path)
{
    *csv = (bench_csv){.path = path, .fd = -1};
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        bench_fail(2, "--csv %s: is a directory", path);
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) { /* a FIFO or device: in place */
        if (access(path, W_OK) != 0) csv_fail(csv, 2, "cannot be written");
        return;
    }
    /* Its links followed, so the link stays and the file it names is replaced. */
    csv->target = follow_links(path);
    if (!csv->target) csv_fail(csv, 2, "cannot follow the link");
    const char *slash = strrchr(csv->target, '/');
    size_t dir = slash ? (size_t)(slash - csv->target) + 1u : 0u;
    csv->tmp = malloc(strlen(csv->target) + 9u);
    if (!csv->tmp) csv_fail(csv, 2, "cannot be staged");
    sprintf(csv->tmp, "%.*s.%s.XXXXXX", (int)dir, csv->target, csv->target + dir);
    csv->fd = mkstemp(csv->tmp);
    if (csv->fd < 0) {
        free(csv->tmp);
        csv->tmp = NULL;
        csv_fail(csv, 2, "its directory cannot be used");
    }
    staged_tmp = csv->tmp;
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++) signal(sigs[k], on_signal);
}

FILE *bench_csv_begin(bench_csv *csv)
{
    FILE *f = csv->tmp ? fdopen(csv->fd, "w") : fopen(csv->path, "w");
    if (!f) csv_fail(csv, 1, "cannot be written");
    return f;
}

void bench_csv_commit(bench_csv *csv, FILE *f)
{
    if (fflush(f) != 0 || ferror(f)) csv_fail(csv, 1, "writing failed");
    if (csv->tmp) {
        /* The replaced file's permissions; a new one's as creat would give. */
        struct stat st;
        mode_t mode;
        if (stat(csv->target, &st) == 0) {
            mode = st.st_mode & 07777;
        } else {
            mode_t mask = umask(0);
            umask(mask);
            mode = 0666 & ~mask;
        }
        if (fchmod(fileno(f), mode) != 0 || fsync(fileno(f)) != 0)
            csv_fail(csv, 1, "writing failed");
    }
    if (fclose(f) != 0) csv_fail(csv, 1, "writing failed");
    if (csv->tmp && rename(csv->tmp, csv->target) != 0) csv_fail(csv, 1, "cannot be replaced");
    staged_tmp = NULL;
    free(csv->tmp);
    free(csv->target);
    *csv = (bench_csv){.fd = -1};
}
