/* bench_chart.c - the thesis-style chart (figures 16.x): grouped bars of
 * mean total ms per particle count, one bar per (IP, storage)
 * configuration, sd error bars; drawn by gnuplot from a data file and a
 * script in a temporary directory. */
#include "bench_chart.h"
#include "bench_msg.h"

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

typedef struct chart_files {
    char dir[512];
    char data[560];
    char script[560];
} chart_files;

bool bench_chart_available(void)
{
    const char *path = getenv("PATH");
    if (!path || !*path) path = "/usr/local/bin:/usr/bin:/bin";
    char exe[1024];
    for (const char *p = path;; p++) {
        size_t len = strcspn(p, ":");
        if (len > 0 && len < sizeof exe - 16) {
            snprintf(exe, sizeof exe, "%.*s/gnuplot", (int)len, p);
            if (access(exe, X_OK) == 0) return true;
        }
        p += len;
        if (*p == '\0') return false;
    }
}

static bool make_files(chart_files *f)
{
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp || strlen(tmp) > 400) tmp = "/tmp";
    snprintf(f->dir, sizeof f->dir, "%s/particles-chart-XXXXXX", tmp);
    if (!mkdtemp(f->dir)) {
        bench_error("--chart: cannot create a temporary directory in %s: %s", tmp,
                    strerror(errno));
        return false;
    }
    snprintf(f->data, sizeof f->data, "%s/totals.dat", f->dir);
    snprintf(f->script, sizeof f->script, "%s/chart.gp", f->dir);
    return true;
}

static void remove_files(const chart_files *f)
{
    remove(f->data);
    remove(f->script);
    rmdir(f->dir);
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
                        out[n++] = (bench_config){0u, ips[i], kinds[k]};
    return n;
}

static bool write_data(const bench_set *s, const char *path, const bench_config *ser, uint32_t n)
{
    FILE *f = fopen(path, "w");
    if (!f) return false;
    fprintf(f, "# particles, then mean and sd of total ms per configuration\n");
    for (uint32_t i = 0; i < s->opt->count_n; i++) {
        uint32_t count = s->opt->counts[i];
        fprintf(f, "%u", (unsigned)count);
        for (uint32_t j = 0; j < n; j++) {
            int c = bench_set_find(s, count, ser[j].ip_on, ser[j].storage);
            fprintf(f, " %.3f %.3f", s->sums[c].total.mean, s->sums[c].total.sd);
        }
        fputc('\n', f);
    }
    bool ok = !ferror(f);
    return fclose(f) == 0 && ok;
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
             (unsigned)s->opt->threads, (unsigned)s->opt->seed);
    put_quoted(f, line);
    fprintf(f, " noenhanced\n");
}

static void script_plot(FILE *f, const chart_files *cf, const bench_config *ser, uint32_t n)
{
    fprintf(f, "plot ");
    for (uint32_t j = 0; j < n; j++) {
        if (j == 0) put_quoted(f, cf->data);
        else fprintf(f, ", ''");
        fprintf(f, " using %u:%u%s title 'IP %s, %s'", 2u + 2u * j, 3u + 2u * j,
                j == 0 ? ":xtic(1)" : "", bench_ip_name(ser[j].ip_on),
                bench_storage_name(ser[j].storage));
    }
    fputc('\n', f);
}

static bool write_script(const bench_set *s, const chart_files *cf, const char *out, bool svg,
                         const bench_config *ser, uint32_t n)
{
    FILE *f = fopen(cf->script, "w");
    if (!f) return false;
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
    script_plot(f, cf, ser, n);
    bool ok = !ferror(f);
    return fclose(f) == 0 && ok;
}

static bool run_gnuplot(char *script)
{
    char prog[] = "gnuplot";
    char *argv[] = {prog, script, NULL};
    pid_t pid;
    int err = posix_spawnp(&pid, prog, NULL, NULL, argv, environ);
    if (err != 0) {
        bench_error("--chart: cannot start gnuplot: %s", strerror(err));
        return false;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return false;
    if (WIFSIGNALED(status)) {
        bench_error("--chart: gnuplot was killed by signal %d", WTERMSIG(status));
        return false;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        bench_error("--chart: gnuplot failed with exit status %d", WEXITSTATUS(status));
        return false;
    }
    return true;
}

static bool non_empty(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && st.st_size > 0;
}

int bench_chart_write(const bench_set *s, const char *out, const char *name)
{
    bool svg = strlen(name) >= 4 && strcasecmp(name + strlen(name) - 4, ".svg") == 0;
    bench_config ser[MAX_SERIES];
    uint32_t n = series(s->opt, ser);
    chart_files cf;
    if (!make_files(&cf)) return 1;
    bool ok = write_data(s, cf.data, ser, n) && write_script(s, &cf, out, svg, ser, n);
    if (!ok) bench_error("--chart: cannot write the gnuplot files in %s", cf.dir);
    ok = ok && run_gnuplot(cf.script);
    if (ok && !non_empty(out)) {
        bench_error("--chart: gnuplot wrote nothing to %s", out);
        ok = false;
    }
    remove_files(&cf);
    return ok ? 0 : 1;
}
