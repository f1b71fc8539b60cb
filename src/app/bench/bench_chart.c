/* bench_chart.c - the thesis-style chart (figures 16.x): grouped bars of
 * mean total ms per particle count, one bar per (IP, storage)
 * configuration, sd error bars; drawn by gnuplot from a script (data
 * included) sent through a pipe: no temporary files of its own. */
#include "bench_chart.h"
#include "bench_msg.h"
#include "bench_scaling.h"
#include "stop.h"

#include <fcntl.h>
#include <signal.h>

#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define MAX_SERIES 4u

bool bench_chart_find(char *exe, size_t size)
{
    char fallback[256] = "/usr/bin:/bin";
    const char *path = getenv("PATH");
    if (!path) {
        size_t n = confstr(_CS_PATH, fallback, sizeof fallback);
        if (n == 0 || n > sizeof fallback) snprintf(fallback, sizeof fallback, "/usr/bin:/bin");
        path = fallback;
    }
    for (const char *p = path; *p;) {
        size_t len = strcspn(p, ":");
        struct stat st;
        /* An empty entry is the current directory, as for execvp. */
        int n = len ? snprintf(exe, size, "%.*s/gnuplot", (int)len, p)
                    : snprintf(exe, size, "./gnuplot");
        if (n > 0 && (size_t)n < size && stat(exe, &st) == 0 && S_ISREG(st.st_mode) &&
            access(exe, X_OK) == 0)
            return true;
        p += len;
        if (*p == ':') p++;
    }
    return false;
}

/* The selected configurations of one count, baseline first: IP off before
 * on, fixed before dynamic. */
static uint32_t series(const bench_options *o, bench_config out[MAX_SERIES])
{
    static const bool ips[2] = {false, true};
    static const ecs_storage kinds[2] = {ECS_STORAGE_FIXED, ECS_STORAGE_DYNAMIC};
    uint32_t n = 0;
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 2; k++)
            for (uint32_t a = 0; a < o->ip_n; a++)
                for (uint32_t b = 0; b < o->storage_n; b++)
                    if (o->ip_on[a] == ips[i] && o->storages[b] == kinds[k])
                        out[n++] = (bench_config){0u, ips[i], kinds[k], o->threads[0]};
    return n;
}

/* The totals as the datablock $totals: count, then mean and sd of each
 * series. */
static void script_data(FILE *f, const bench_set *s, const bench_config *ser, uint32_t n)
{
    fprintf(f, "$totals << EOD\n");
    for (uint32_t i = 0; i < s->opt->count_n; i++) {
        uint32_t count = s->opt->counts[i];
        fprintf(f, "%u", (unsigned)count);
        for (uint32_t j = 0; j < n; j++) {
            int c = bench_set_find(s, count, ser[j].ip_on, ser[j].storage, ser[j].threads);
            fprintf(f, " %.3f %.3f", s->sums[c].total.mean, s->sums[c].total.sd);
        }
        fputc('\n', f);
    }
    fprintf(f, "EOD\n");
}

/* A gnuplot single-quoted string: no escapes but '' for a quote. */
static void put_quoted(FILE *f, const char *str)
{
    fputc('\'', f);
    for (const char *p = str; *p; p++) {
        if (*p == '\'') fputc('\'', f);
        fputc(*p, f);
    }
    fputc('\'', f);
}

static void script_terminal(FILE *f, bool svg)
{
    if (svg) {
        fprintf(f, "set terminal svg size 1100,650 dynamic font 'sans,12' background '#ffffff'\n");
        return;
    }
    fprintf(f, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
               "    set terminal pngcairo size 1100,650 font 'sans,11' background '#ffffff'\n"
               "} else {\n"
               "    set terminal png size 1100,650 background '#ffffff'\n"
               "}\n");
}

static void script_title(FILE *f, const bench_set *s)
{
    char line[256];
    fprintf(f, "set title ");
    snprintf(line, sizeof line, "particles bench: total ms per run, mean of %u, error bars 1 sd",
             (unsigned)s->opt->repeat);
    put_quoted(f, line);
    fprintf(f, " . \"\\n\" . ");
    snprintf(line, sizeof line, "%s, %u threads, seed %u", s->machine.cpu,
             (unsigned)s->opt->threads[0], (unsigned)s->opt->seed);
    put_quoted(f, line);
    fprintf(f, " noenhanced\n");
}

static void script_plot(FILE *f, const bench_config *ser, uint32_t n)
{
    fprintf(f, "plot ");
    for (uint32_t j = 0; j < n; j++)
        fprintf(f, "%s$totals using %u:%u%s title 'IP %s, %s'", j ? ", " : "", 2u + 2u * j,
                3u + 2u * j, j == 0 ? ":xtic(1)" : "", bench_ip_name(ser[j].ip_on),
                bench_storage_name(ser[j].storage));
    fputc('\n', f);
}

static void write_bars(FILE *f, const bench_set *s, const char *out, bool svg,
                         const bench_config *ser, uint32_t n)
{
    script_data(f, s, ser, n);
    script_terminal(f, svg);
    fprintf(f, "set output ");
    put_quoted(f, out);
    fputc('\n', f);
    script_title(f, s);
    fprintf(f, "set style data histograms\n"
               "set style histogram errorbars gap 2 lw 1.5\n"
               "set style fill solid 0.85 border -1\n"
               "set boxwidth 0.9\n"
               "set xlabel 'particles'\n"
               "set ylabel 'total ms (create with spawning + every frame)'\n"
               "set yrange [0:*]\n"
               "set grid ytics\n"
               "set key outside right top\n");
    script_plot(f, ser, n);
    fprintf(f, "set output\n"); /* closes the file before gnuplot exits */
}

/* Several thread counts: speedup (weak: efficiency) against threads, one
 * line per (count, IP, storage) group, each a datablock $gN, with the
 * ideal line. */
static void write_scaling(FILE *f, const bench_set *s, const char *out, bool svg)
{
    const bench_options *o = s->opt;
    uint32_t groups = s->cfg_n / o->thread_n, base = bench_base_threads(o);
    for (uint32_t g = 0; g < groups; g++) {
        fprintf(f, "$g%u << EOD\n", (unsigned)g);
        for (uint32_t t = 0; t < o->thread_n; t++) {
            bench_scale_point p = bench_scale_point_of(s, g * o->thread_n + t);
            fprintf(f, "%u %.4f\n", (unsigned)p.threads, o->weak ? p.efficiency : p.speedup);
        }
        fprintf(f, "EOD\n");
    }
    script_terminal(f, svg);
    fprintf(f, "set output ");
    put_quoted(f, out);
    fputc('\n', f);
    char line[256];
    fprintf(f, "set title ");
    snprintf(line, sizeof line, "particles bench: %s against threads, medians of %u",
             o->weak ? "weak-scaling efficiency T(base)/T(n)" : "speedup T(base)/T(n)",
             (unsigned)o->repeat);
    put_quoted(f, line);
    fprintf(f, " . \"\\n\" . ");
    snprintf(line, sizeof line, "%s, base %u thread%s, seed %u", s->machine.cpu, (unsigned)base,
             base == 1 ? "" : "s", (unsigned)o->seed);
    put_quoted(f, line);
    fprintf(f, " noenhanced\n"
               "set xlabel 'threads'\n"
               "set ylabel '%s'\n"
               "set xrange [0:*]\n"
               "set yrange [0:*]\n"
               "set grid\n"
               "set key outside right top noenhanced\n",
            o->weak ? "efficiency (1: flat time as the world grows)" : "speedup");
    /* Ideal: efficiency 1; speedup = threads / base. */
    if (o->weak)
        fprintf(f, "plot 1 title 'ideal (efficiency 1)'");
    else if (base == 1)
        fprintf(f, "plot x title 'ideal (speedup = threads)'");
    else
        fprintf(f, "plot x / %u.0 title 'ideal (speedup = threads / %u)'", (unsigned)base,
                (unsigned)base);
    fprintf(f, " with lines dashtype 2 lc rgb '#808080'");
    for (uint32_t g = 0; g < groups; g++) {
        const bench_config *k = &s->cfgs[g * o->thread_n];
        fprintf(f, ", $g%u using 1:2 with linespoints title '%u, IP %s, %s'", (unsigned)g,
                (unsigned)k->count, bench_ip_name(k->ip_on), bench_storage_name(k->storage));
    }
    fprintf(f, "\nset output\n");
}

static void write_script(FILE *f, const bench_set *s, const char *out, bool svg,
                         const bench_config *ser, uint32_t n)
{
    if (s->opt->thread_n > 1)
        write_scaling(f, s, out, svg);
    else
        write_bars(f, s, out, svg, ser, n);
}

/* Starts exe reading its script from a pipe (*to), its stdout sent to
 * stderr, the signals this program handles or ignores back to default. */
static bool start_gnuplot(const char *exe, pid_t *pid, FILE **to)
{
    int fds[2];
    if (pipe(fds) != 0) {
        bench_error("--chart: cannot make a pipe to gnuplot: %s", strerror(errno));
        return false;
    }
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&fa, STDERR_FILENO, STDOUT_FILENO);
    posix_spawnattr_init(&at);
    sigset_t def;
    sigemptyset(&def);
    sigaddset(&def, SIGPIPE);
    sigaddset(&def, SIGINT);
    sigaddset(&def, SIGTERM);
    sigaddset(&def, SIGHUP);
    posix_spawnattr_setsigdefault(&at, &def);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF);
    char *argv[] = {(char *)"gnuplot", NULL};
    int err = posix_spawn(pid, exe, &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(fds[0]);
    *to = err == 0 ? fdopen(fds[1], "w") : NULL;
    if (err != 0 || !*to) {
        bench_error("--chart: cannot start %s: %s", exe, strerror(err ? err : errno));
        close(fds[1]);
        if (err == 0) waitpid(*pid, NULL, 0);
        return false;
    }
    return true;
}

/* Waits for gnuplot; a stop signal meanwhile ends it. */
static bool wait_gnuplot(const char *exe, pid_t pid)
{
    int status = 0;
    bool killed = false;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            bench_error("--chart: waiting for %s failed: %s", exe, strerror(errno));
            return false;
        }
        if (app_stop_signal() && !killed) killed = kill(pid, SIGTERM) == 0;
    }
    if (app_stop_signal()) return false; /* the caller reports the stop */
    if (WIFSIGNALED(status)) {
        bench_error("--chart: %s was killed by signal %d", exe, WTERMSIG(status));
        return false;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        bench_error("--chart: %s failed with exit status %d (its messages are above)", exe,
                    WEXITSTATUS(status));
        return false;
    }
    return true;
}

static bool non_empty(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && st.st_size > 0;
}

int bench_chart_write(const bench_set *s, const char *exe, const char *out, const char *name)
{
    bool svg = strlen(name) >= 4 && strcasecmp(name + strlen(name) - 4, ".svg") == 0;
    bench_config ser[MAX_SERIES];
    uint32_t n = series(s->opt, ser);
    pid_t pid;
    FILE *to;
    if (!start_gnuplot(exe, &pid, &to)) return 1;
    write_script(to, s, out, svg, ser, n);
    bool sent = fflush(to) == 0 && !ferror(to);
    int err = errno;
    fclose(to);
    bool ok = wait_gnuplot(exe, pid);
    if (ok && !sent) {
        bench_error("--chart: sending the script to %s failed: %s", exe, strerror(err));
        ok = false;
    }
    if (ok && !non_empty(out)) {
        bench_error("--chart: %s wrote nothing to %s", exe, out);
        ok = false;
    }
    return ok ? 0 : 1;
}
