/* bench_cli.c - parsing and checking the options of `particles bench`. */
#include "bench_cli.h"
#include "bench_msg.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

enum {
    OPT_ENTITIES = 256,
    OPT_IP,
    OPT_STORAGE,
    OPT_THREADS,
    OPT_REPEAT,
    OPT_SEED,
    OPT_FRAMES,
    OPT_FIXED_LIMIT,
    OPT_CSV,
    OPT_JSON,
    OPT_CHART,
    OPT_QUIET,
    OPT_PRINT_DAG
};

static const char *const IP_WORDS[] = {"off", "on"};
static const char *const STORAGE_WORDS[] = {"dynamic", "fixed"};
static const ecs_storage STORAGE_KINDS[] = {ECS_STORAGE_DYNAMIC, ECS_STORAGE_FIXED};

static uint32_t online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) return 1u;
    return n > (long)BENCH_MAX_THREADS ? BENCH_MAX_THREADS : (uint32_t)n;
}

void bench_cli_usage(FILE *f)
{
    fprintf(f,
            "usage: particles bench [options]\n"
            "Runs the thesis particle simulation headless for every combination of the\n"
            "listed counts, inner parallelism (IP) and storage settings, --repeat times\n"
            "(for each repeat, each count, each IP, each storage), and prints the\n"
            "thesis's tables with its published figures beside ours.\n"
            "\n"
            "  --entities LIST           particle counts, comma-separated, each 1..%u\n"
            "                            (default 50000,100000,200000)\n"
            "  --inner-parallelism LIST  on, off or both (default on,off)\n"
            "  --storage LIST            fixed, dynamic or both (default fixed,dynamic)\n"
            "  --threads N               workers including the caller, 1..%u\n"
            "                            (default: online CPUs, here %u)\n"
            "  --repeat R                repeats per configuration, 1..%u (default 3)\n"
            "  --seed S                  Park-Miller seed, 0..%u (default 0, which the\n"
            "                            generator maps to 1, as the thesis)\n"
            "  --frames F                stop after F frames, 0..%u (default 0: run until\n"
            "                            every particle died, as the thesis); a run also\n"
            "                            ends early once every particle died\n"
            "  --fixed-limit N           entity limit of fixed storage, 1..%u\n"
            "                            (default %u, the thesis's); with fixed storage\n"
            "                            selected every count must be <= N (dynamic\n"
            "                            storage starts at %u entities and doubles)\n"
            "  --csv FILE                write one row per run\n"
            "  --json FILE               write machine, options, runs and per-configuration\n"
            "                            mean and sd\n"
            "  --chart FILE              draw mean total ms per count with sd error bars,\n"
            "                            FILE ending in .png or .svg (needs gnuplot)\n"
            "  --quiet                   no progress line and no tables on stdout; files\n"
            "                            are still written\n"
            "  --print-dag               print the system DAG as Graphviz dot and exit\n"
            "  -h, --help                print this and exit\n"
            "\n"
            "A value listed twice in one list is rejected. Files are written to FILE.tmp\n"
            "and renamed into place once every run succeeded. Total ms = sim_create\n"
            "(spawning included) + every sim_step. Exit status: 0 done, 1 a run failed\n"
            "or final hashes disagree, 2 bad input.\n",
            (unsigned)ECS_MAX_ENTITIES, BENCH_MAX_THREADS, (unsigned)online_cpus(),
            BENCH_MAX_REPEAT, (unsigned)UINT32_MAX, BENCH_MAX_FRAMES,
            (unsigned)ECS_MAX_ENTITIES, BENCH_THESIS_FIXED_LIMIT, (unsigned)ECS_DEFAULT_CAPACITY);
}

/* ---- values --------------------------------------------------------------- */

/* s[0..len) as a decimal integer in [lo, hi] and nothing else: no sign,
 * no spaces, no suffix. */
static bool parse_u32(const char *flag, const char *s, size_t len, uint32_t lo, uint32_t hi,
                      uint32_t *out)
{
    char buf[24];
    bool ok = len > 0 && len < sizeof buf;
    for (size_t i = 0; ok && i < len; i++) ok = s[i] >= '0' && s[i] <= '9';
    unsigned long long v = 0;
    if (ok) {
        memcpy(buf, s, len);
        buf[len] = '\0';
        errno = 0;
        v = strtoull(buf, NULL, 10);
        ok = errno == 0 && v >= lo && v <= hi;
    }
    if (!ok) {
        bench_error("%s: '%.*s' is not an integer from %u to %u", flag, (int)len, s,
                    (unsigned)lo, (unsigned)hi);
        return false;
    }
    *out = (uint32_t)v;
    return true;
}

static int find_word(const char *s, size_t len, const char *const *words, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (strlen(words[i]) == len && strncmp(s, words[i], len) == 0) return (int)i;
    return -1;
}

static bool contains(const uint32_t *v, uint32_t n, uint32_t x)
{
    for (uint32_t i = 0; i < n; i++)
        if (v[i] == x) return true;
    return false;
}

/* One comma-separated list item, appended to out[*n]. */
typedef struct list_kind {
    const char *const *words; /* NULL: integers in [lo, hi] */
    uint32_t word_n, lo, hi;
} list_kind;

static bool parse_item(const char *flag, const char *s, size_t len, const list_kind *k,
                       uint32_t *out, uint32_t *n)
{
    uint32_t v;
    if (k->words) {
        int i = find_word(s, len, k->words, k->word_n);
        if (i < 0) {
            bench_error("%s: '%.*s' is not one of %s, %s", flag, (int)len, s, k->words[0],
                        k->words[1]);
            return false;
        }
        v = (uint32_t)i;
    } else if (!parse_u32(flag, s, len, k->lo, k->hi, &v)) {
        return false;
    }
    if (contains(out, *n, v)) {
        bench_error("%s: '%.*s' is listed twice", flag, (int)len, s);
        return false;
    }
    out[(*n)++] = v;
    return true;
}

static bool parse_list(const char *flag, const char *arg, const list_kind *k, uint32_t max,
                       uint32_t *out, uint32_t *n)
{
    *n = 0;
    for (const char *s = arg;; s++) {
        size_t len = strcspn(s, ",");
        if (len == 0) {
            bench_error("%s: empty item in '%s'", flag, arg);
            return false;
        }
        if (*n == max) {
            bench_error("%s: more than %u items in '%s'", flag, (unsigned)max, arg);
            return false;
        }
        if (!parse_item(flag, s, len, k, out, n)) return false;
        s += len;
        if (*s == '\0') return true;
    }
}

static bool parse_file(const char *flag, const char *arg, const char **out)
{
    if (arg[0] == '\0') {
        bench_error("%s: the file name is empty", flag);
        return false;
    }
    *out = arg;
    return true;
}

/* ---- options -------------------------------------------------------------- */

static bench_options default_options(void)
{
    return (bench_options){
        .counts = {50000u, 100000u, 200000u},
        .count_n = 3,
        .ip_on = {true, false},
        .ip_n = 2,
        .storages = {ECS_STORAGE_FIXED, ECS_STORAGE_DYNAMIC},
        .storage_n = 2,
        .threads = online_cpus(),
        .repeat = 3,
        .fixed_limit = BENCH_THESIS_FIXED_LIMIT,
    };
}

static bool parse_words(const char *flag, const char *arg, const char *const *words,
                        uint32_t idx[2], uint32_t *n)
{
    const list_kind k = {words, 2, 0, 0};
    return parse_list(flag, arg, &k, 2, idx, n);
}

static bool parse_ip(const char *arg, bench_options *o)
{
    uint32_t idx[2];
    if (!parse_words("--inner-parallelism", arg, IP_WORDS, idx, &o->ip_n)) return false;
    for (uint32_t i = 0; i < o->ip_n; i++) o->ip_on[i] = idx[i] == 1u;
    return true;
}

static bool parse_storage(const char *arg, bench_options *o)
{
    uint32_t idx[2];
    if (!parse_words("--storage", arg, STORAGE_WORDS, idx, &o->storage_n)) return false;
    for (uint32_t i = 0; i < o->storage_n; i++) o->storages[i] = STORAGE_KINDS[idx[i]];
    return true;
}

static bool parse_one(const char *flag, const char *arg, uint32_t lo, uint32_t hi, uint32_t *out)
{
    return parse_u32(flag, arg, strlen(arg), lo, hi, out);
}

/* Applies one option getopt_long returned; false after printing why not. */
static bool apply(int c, const char *arg, bench_options *o)
{
    const list_kind counts = {NULL, 0, 1u, ECS_MAX_ENTITIES};
    switch (c) {
    case OPT_ENTITIES:
        return parse_list("--entities", arg, &counts, BENCH_MAX_LIST, o->counts, &o->count_n);
    case OPT_IP: return parse_ip(arg, o);
    case OPT_STORAGE: return parse_storage(arg, o);
    case OPT_THREADS: return parse_one("--threads", arg, 1u, BENCH_MAX_THREADS, &o->threads);
    case OPT_REPEAT: return parse_one("--repeat", arg, 1u, BENCH_MAX_REPEAT, &o->repeat);
    case OPT_SEED: return parse_one("--seed", arg, 0u, UINT32_MAX, &o->seed);
    case OPT_FRAMES: return parse_one("--frames", arg, 0u, BENCH_MAX_FRAMES, &o->frames);
    case OPT_FIXED_LIMIT:
        return parse_one("--fixed-limit", arg, 1u, ECS_MAX_ENTITIES, &o->fixed_limit);
    case OPT_CSV: return parse_file("--csv", arg, &o->csv);
    case OPT_JSON: return parse_file("--json", arg, &o->json);
    case OPT_CHART: return parse_file("--chart", arg, &o->chart);
    case OPT_QUIET: o->quiet = true; return true;
    case OPT_PRINT_DAG: o->print_dag = true; return true;
    case 'h': o->help = true; return true;
    default: return false;
    }
}

static bool fixed_selected(const bench_options *o)
{
    for (uint32_t i = 0; i < o->storage_n; i++)
        if (o->storages[i] == ECS_STORAGE_FIXED) return true;
    return false;
}

static bool check_counts(const bench_options *o)
{
    if (!fixed_selected(o)) return true;
    for (uint32_t i = 0; i < o->count_n; i++) {
        if (o->counts[i] > o->fixed_limit) {
            bench_error("--entities: %u exceeds the fixed storage limit %u (--fixed-limit); "
                        "raise the limit or use --storage dynamic",
                        (unsigned)o->counts[i], (unsigned)o->fixed_limit);
            return false;
        }
    }
    return true;
}

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && strcasecmp(s + n - k, suffix) == 0;
}

static bool check_files(const bench_options *o)
{
    if (o->chart && !has_suffix(o->chart, ".png") && !has_suffix(o->chart, ".svg")) {
        bench_error("--chart: '%s' is not a file name ending in .png or .svg", o->chart);
        return false;
    }
    const char *files[3] = {o->csv, o->json, o->chart};
    const char *flags[3] = {"--csv", "--json", "--chart"};
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            if (files[i] && files[j] && strcmp(files[i], files[j]) == 0) {
                bench_error("%s and %s both name '%s'", flags[i], flags[j], files[i]);
                return false;
            }
    return true;
}

static bool parse_argv(int argc, char **argv, bench_options *o)
{
    static const struct option longopts[] = {
        {"entities", required_argument, NULL, OPT_ENTITIES},
        {"inner-parallelism", required_argument, NULL, OPT_IP},
        {"storage", required_argument, NULL, OPT_STORAGE},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"repeat", required_argument, NULL, OPT_REPEAT},
        {"seed", required_argument, NULL, OPT_SEED},
        {"frames", required_argument, NULL, OPT_FRAMES},
        {"fixed-limit", required_argument, NULL, OPT_FIXED_LIMIT},
        {"csv", required_argument, NULL, OPT_CSV},
        {"json", required_argument, NULL, OPT_JSON},
        {"chart", required_argument, NULL, OPT_CHART},
        {"quiet", no_argument, NULL, OPT_QUIET},
        {"print-dag", no_argument, NULL, OPT_PRINT_DAG},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (c == ':') {
            bench_error("%s needs a value (see particles bench --help)", argv[optind - 1]);
            return false;
        }
        if (c == '?') {
            bench_error("unknown option '%s' (see particles bench --help)", argv[optind - 1]);
            return false;
        }
        if (!apply(c, optarg, o)) return false;
    }
    if (optind < argc) {
        bench_error("unexpected argument '%s' (see particles bench --help)", argv[optind]);
        return false;
    }
    return true;
}

int bench_cli_parse(int argc, char **argv, bench_options *o)
{
    *o = default_options();
    if (!parse_argv(argc, argv, o)) return 2;
    if (o->help) return 0;
    return check_counts(o) && check_files(o) ? 0 : 2;
}
