/* options.c - the command line shared by the modes: one getopt_long loop
 * over the simulation's flags and the mode's own. */
#include "options.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SHARED_N 9u
#define MODE_OPTS_MAX 26u /* a mode's own flags */

static const struct option SHARED[SHARED_N] = {
    {"entities", required_argument, NULL, APP_OPT_ENTITIES},
    {"inner-parallelism", required_argument, NULL, APP_OPT_IP},
    {"storage", required_argument, NULL, APP_OPT_STORAGE},
    {"threads", required_argument, NULL, APP_OPT_THREADS},
    {"seed", required_argument, NULL, APP_OPT_SEED},
    {"fixed-limit", required_argument, NULL, APP_OPT_FIXED_LIMIT},
    {"kernel", required_argument, NULL, APP_OPT_KERNEL},
    {"world", required_argument, NULL, APP_OPT_WORLD},
    {"loops", required_argument, NULL, APP_OPT_LOOPS}};

static const char *const IP_WORDS[] = {"off", "on"};
static const char *const STORAGE_WORDS[] = {"dynamic", "fixed"};
static const ecs_storage STORAGE_KINDS[] = {ECS_STORAGE_DYNAMIC, ECS_STORAGE_FIXED};

uint32_t app_online_cpus(void)
{
    uint32_t n = ecs_cpu_count();
    return n > APP_MAX_THREADS ? APP_MAX_THREADS : n;
}

/* "1,500" or "50,000,000": digits grouped by three after commas. With
 * zero_group, only where a group after a comma starts with 0 ("50,000",
 * "1,050"): no count of a list is written so, so this is one number with
 * its thousands grouped, where "1,500" may well be the list 1 and 500. */
static bool thousands_grouped(const char *s, bool zero_group)
{
    size_t lead = strspn(s, "0123456789");
    bool zero = false;
    if (lead == 0 || lead > 3 || s[lead] != ',') return false;
    for (s += lead; *s == ','; s += 4) {
        if (strspn(s + 1, "0123456789") < 3 || (s[4] != ',' && s[4] != '\0')) return false;
        zero |= s[1] == '0';
    }
    return *s == '\0' && (zero || !zero_group);
}

/* ---- lists ---------------------------------------------------------------- */

/* What one list item is. */
typedef struct list_kind {
    const char *flag;
    const char *const *words; /* NULL: integers in [lo, hi] */
    uint32_t word_n, lo, hi, cap;
    const char *both;         /* what "both" stands for in a list; NULL: no "both" */
    bool ranges;              /* an item may be a range LO..HI: every number in it */
} list_kind;

static const list_kind COUNTS = {"--entities", NULL, 0, 1u, ECS_MAX_ENTITIES, APP_MAX_LIST, NULL,
                                 false};
static const list_kind IPS = {"--inner-parallelism", IP_WORDS, 2, 0, 0, 2, "on,off", false};
static const list_kind STORAGES = {"--storage", STORAGE_WORDS, 2, 0, 0, 2, "fixed,dynamic",
                                   false};
static const list_kind THREADS = {"--threads", NULL, 0, 1u, APP_MAX_THREADS, APP_MAX_LIST, NULL,
                                  true};

/* Appends v (typed as s[0..len)) to out[0..*n), refusing a repeat or one
 * item past max. */
static bool add_item(const app_mode_cli *cli, const list_kind *k, uint32_t v, const char *s,
                     size_t len, uint32_t *out, uint32_t *n, uint32_t max, const char *arg)
{
    for (uint32_t i = 0; i < *n; i++) {
        if (out[i] == v) {
            app_error(cli->prog, "%s: '%.*s' is listed twice", k->flag, (int)len, s);
            return false;
        }
    }
    if (*n == max) {
        app_error(cli->prog, "%s: more than %u items in '%s'", k->flag, (unsigned)max, arg);
        return false;
    }
    out[(*n)++] = v;
    return true;
}

/* The ".." in s[0..len), or NULL. */
static const char *find_dots(const char *s, size_t len)
{
    for (size_t i = 0; i + 1 < len; i++)
        if (s[i] == '.' && s[i + 1] == '.') return s + i;
    return NULL;
}

/* An item LO..HI (dots at its ".."): every number from LO to HI, each added
 * as if listed. */
static bool parse_range(const app_mode_cli *cli, const char *s, size_t len, const char *dots,
                        const list_kind *k, uint32_t *out, uint32_t *n, uint32_t max,
                        const char *arg)
{
    size_t lo_len = (size_t)(dots - s), hi_len = len - lo_len - 2u;
    uint32_t lo, hi;
    app_count_status a = app_scan_count(s, lo_len, k->lo, k->hi, &lo);
    app_count_status b = app_scan_count(dots + 2, hi_len, k->lo, k->hi, &hi);
    if ((a != APP_COUNT_OK && a != APP_COUNT_RANGE) || (b != APP_COUNT_OK && b != APP_COUNT_RANGE)) {
        app_error(cli->prog, "%s: '%.*s' is not a range LOW..HIGH of two whole numbers from %u "
                  "to %u (e.g. 1..8)", k->flag, (int)len, s, (unsigned)k->lo, (unsigned)k->hi);
        return false;
    }
    /* A number out of range: its own message. */
    if (a != APP_COUNT_OK) return app_parse_u32_span(cli, k->flag, s, lo_len, k->lo, k->hi, &lo);
    if (b != APP_COUNT_OK) return app_parse_u32_span(cli, k->flag, dots + 2, hi_len, k->lo, k->hi, &hi);
    if (lo > hi) {
        app_error(cli->prog, "%s: '%.*s' runs downwards: a range goes from low to high (%.*s..%.*s)",
                  k->flag, (int)len, s, (int)hi_len, dots + 2, (int)lo_len, s);
        return false;
    }
    if ((uint64_t)*n + (hi - lo) + 1u > max) {
        app_error(cli->prog, "%s: '%s' has %u items, more than %u", k->flag, arg,
                  (unsigned)(*n + (hi - lo) + 1u), (unsigned)max);
        return false;
    }
    for (uint32_t v = lo;; v++) {
        char typed[16];
        int tn = snprintf(typed, sizeof typed, "%u", (unsigned)v);
        if (!add_item(cli, k, v, typed, (size_t)tn, out, n, max, arg)) return false;
        if (v == hi) return true;
    }
}

static bool parse_item(const app_mode_cli *cli, const char *s, size_t len, const list_kind *k,
                       uint32_t *out, uint32_t *n, uint32_t max, const char *arg)
{
    uint32_t v;
    if (k->both && len == 4 && strncmp(s, "both", 4) == 0) { /* parse_list took it alone */
        size_t comma = strcspn(k->both, ",");
        if (max <= 1u)
            app_error(cli->prog, "%s: 'both' is for particles bench; this mode runs one "
                      "simulation: give %.*s or %s", k->flag, (int)comma, k->both,
                      k->both + comma + (k->both[comma] != '\0'));
        else
            app_error(cli->prog, "%s: 'both' (= %s) is given alone, not in a list like '%s'",
                      k->flag, k->both, arg);
        return false;
    }
    const char *dots = k->ranges ? find_dots(s, len) : NULL;
    if (dots) return parse_range(cli, s, len, dots, k, out, n, max, arg);
    bool ok = k->words ? app_parse_word_span(cli, k->flag, s, len, k->words, k->word_n, &v)
                       : app_parse_u32_span(cli, k->flag, s, len, k->lo, k->hi, &v);
    return ok && add_item(cli, k, v, s, len, out, n, max, arg);
}

/* A comma-separated list of at most min(list_max, k->cap) items into out. */
static bool parse_list(const app_mode_cli *cli, const char *arg, const list_kind *k,
                       uint32_t *out, uint32_t *n)
{
    uint32_t max = cli->list_max < k->cap ? cli->list_max : k->cap;
    *n = 0;
    if (!k->words && thousands_grouped(arg, max > 1u)) { /* "50,000": one count, or 50 and 0? */
        char plain[64], grouped[64];
        size_t p = 0, g = 0;
        for (const char *c = arg; *c && g + 1 < sizeof grouped; c++) {
            if (*c != ',') plain[p++] = *c;
            grouped[g++] = *c == ',' ? '_' : *c;
        }
        plain[p] = grouped[g] = '\0';
        app_error(cli->prog, "%s: '%s': a comma does not group digits%s; write the count as "
                  "%s or %s", k->flag, arg,
                  max > 1u ? " (it separates the counts of a list)"
                           : " (and a list of counts is for particles bench)",
                  plain, grouped);
        return false;
    }
    if (max <= 1u) {
        if (strchr(arg, ',') || (k->ranges && strstr(arg, ".."))) {
            app_error(cli->prog, "%s: '%s' is not a single value (this mode runs one "
                      "simulation; lists are for particles bench)", k->flag, arg);
            return false;
        }
        return parse_item(cli, arg, strlen(arg), k, out, n, 1u, arg);
    }
    if (k->both && strcmp(arg, "both") == 0) arg = k->both;
    for (const char *s = arg;; s++) {
        size_t len = strcspn(s, ",");
        if (len == 0) {
            app_error(cli->prog, "%s: empty item in '%s'", k->flag, arg);
            return false;
        }
        if (!parse_item(cli, s, len, k, out, n, max, arg)) return false;
        s += len;
        if (*s == '\0') return true;
    }
}

/* ---- the shared flags ----------------------------------------------------- */

/* --kernel, --loops: one of sim_kernel's names, available on this CPU. */
static bool parse_kernel(const app_mode_cli *cli, const char *flag, const char *arg,
                         sim_kernel *out)
{
    const char *names[SIM_KERNEL_COUNT];
    for (uint32_t k = 0; k < SIM_KERNEL_COUNT; k++) names[k] = sim_kernel_name((sim_kernel)k);
    uint32_t k;
    if (!app_parse_word(cli, flag, arg, names, SIM_KERNEL_COUNT, &k)) return false;
    if (!sim_kernel_available((sim_kernel)k)) {
        app_error(cli->prog, "%s: %s is not available on this CPU or build (try auto)", flag,
                  arg);
        return false;
    }
    *out = (sim_kernel)k;
    return true;
}

/* The shortest world side: the largest circle's diameter, rounded up. */
static uint32_t world_side_min(void) { return (uint32_t)ceilf(2.0f * sim_default_params().radius_max); }

/* --world WxH: two whole numbers, each side from the largest circle's
 * diameter to SIM_WORLD_SIDE_MAX, and a grid of at most SIM_GRID_CELLS_MAX
 * cells; each failure says which of these and what is allowed. */
static bool parse_world(const app_mode_cli *cli, const char *arg, app_sim_options *sim)
{
    size_t w = strcspn(arg, "x");
    const char *h = arg + w + (arg[w] != '\0');
    sim_params p = sim_default_params();
    uint32_t lo = world_side_min(), hi = SIM_WORLD_SIDE_MAX;
    const char *digits = "0123456789";
    size_t hn = strlen(h);
    if (arg[w] == '\0' || w == 0 || hn == 0 || strspn(arg, digits) != w || strspn(h, digits) != hn) {
        app_error(cli->prog, "--world: '%s' is not WIDTHxHEIGHT, two whole numbers (e.g. 3220x2012)",
                  arg);
        return false;
    }
    if (!app_scan_u32(arg, w, lo, hi, &sim->world_w) || !app_scan_u32(h, hn, lo, hi, &sim->world_h)) {
        app_error(cli->prog, "--world: '%s': each side must be from %u to %u units", arg,
                  (unsigned)lo, (unsigned)hi);
        return false;
    }
    p.world_w = (float)sim->world_w;
    p.world_h = (float)sim->world_h;
    char msg[200] = "";
    if (!sim_params_check(&p, msg, sizeof msg)) { /* too many grid cells */
        app_error(cli->prog, "--world: '%s': %s", arg, msg);
        return false;
    }
    return true;
}

static bool apply_shared(const app_mode_cli *cli, int c, const char *arg, app_sim_options *sim)
{
    uint32_t idx[2];
    switch (c) {
    case APP_OPT_ENTITIES: return parse_list(cli, arg, &COUNTS, sim->counts, &sim->count_n);
    case APP_OPT_IP:
        if (!parse_list(cli, arg, &IPS, idx, &sim->ip_n)) return false;
        for (uint32_t i = 0; i < sim->ip_n; i++) sim->ip_on[i] = idx[i] == 1u;
        return true;
    case APP_OPT_STORAGE:
        if (!parse_list(cli, arg, &STORAGES, idx, &sim->storage_n)) return false;
        for (uint32_t i = 0; i < sim->storage_n; i++) sim->storages[i] = STORAGE_KINDS[idx[i]];
        return true;
    case APP_OPT_THREADS: return parse_list(cli, arg, &THREADS, sim->threads, &sim->thread_n);
    case APP_OPT_SEED: return app_parse_u32(cli, "--seed", arg, 0u, APP_SEED_MAX, &sim->seed);
    case APP_OPT_FIXED_LIMIT:
        return app_parse_u32(cli, "--fixed-limit", arg, 1u, ECS_MAX_ENTITIES, &sim->fixed_limit);
    case APP_OPT_KERNEL: return parse_kernel(cli, "--kernel", arg, &sim->kernel);
    case APP_OPT_LOOPS: return parse_kernel(cli, "--loops", arg, &sim->loops);
    case APP_OPT_WORLD: return parse_world(cli, arg, sim);
    default: return false;
    }
}

static bool check_counts(const app_mode_cli *cli, const app_sim_options *sim)
{
    bool fixed = false;
    for (uint32_t i = 0; i < sim->storage_n; i++) fixed |= sim->storages[i] == ECS_STORAGE_FIXED;
    for (uint32_t i = 0; fixed && i < sim->count_n; i++) {
        if (sim->counts[i] > sim->fixed_limit) {
            app_error(cli->prog,
                      "--entities: %u exceeds the fixed storage limit %u (--fixed-limit); "
                      "raise the limit or use --storage dynamic",
                      (unsigned)sim->counts[i], (unsigned)sim->fixed_limit);
            return false;
        }
    }
    return true;
}

/* The density rule (sim_max_particles) for every count in the world given
 * (or the thesis's): both modes refuse a world too dense to step. */
static bool check_density(const app_mode_cli *cli, const app_sim_options *sim)
{
    sim_params p = sim_default_params();
    if (sim->world_w) {
        p.world_w = (float)sim->world_w;
        p.world_h = (float)sim->world_h;
    }
    uint32_t most = sim_max_particles(&p);
    for (uint32_t i = 0; i < sim->count_n; i++) {
        if (sim->counts[i] <= most) continue;
        app_error(cli->prog, "--entities %u with --world %gx%g%s: the world is too dense for that "
                  "many particles: it allows at most %u (circles covering %g times its area)",
                  (unsigned)sim->counts[i], (double)p.world_w, (double)p.world_h,
                  sim->world_w ? "" : " (the default)", (unsigned)most, SIM_COVERAGE_MAX);
        return false;
    }
    return true;
}

const char *app_shared_flag_name(uint32_t given)
{
    for (uint32_t i = 0; i < SHARED_N; i++)
        if (given & APP_GIVEN(SHARED[i].val)) return SHARED[i].name;
    return NULL;
}

/* ---- the loop ------------------------------------------------------------- */

/* The shared flags and the mode's in all[], the short flags (the mode's
 * options whose code is a letter) in shorts[] after a leading ':'. */
static bool merge(const app_mode_cli *cli, struct option *all, char *shorts)
{
    uint32_t n = 0, s = 0;
    memcpy(all, SHARED, sizeof SHARED);
    shorts[s++] = '+';
    shorts[s++] = ':';
    for (const struct option *o = cli->longopts; o && o->name; o++, n++) {
        if (n == MODE_OPTS_MAX) return false;
        all[SHARED_N + n] = *o;
        if (o->flag || o->val <= 0 || o->val > 127 || !strchr(
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", o->val))
            continue;
        shorts[s++] = (char)o->val;
        if (o->has_arg == required_argument) shorts[s++] = ':';
    }
    all[SHARED_N + n] = (struct option){NULL, 0, NULL, 0};
    shorts[s] = '\0';
    return true;
}

/* The options whose name starts with the name in "--name[=value]": the
 * exact match alone when there is one. Returns how many, the first in *hit. */
static int name_matches(const struct option *all, const char *elem, const struct option **hit)
{
    size_t len = strcspn(elem + 2, "=");
    int n = 0;
    *hit = NULL;
    for (const struct option *o = all; len > 0 && o->name; o++) {
        if (strncmp(o->name, elem + 2, len) != 0) continue;
        if (strlen(o->name) == len) {
            *hit = o;
            return 1;
        }
        if (!*hit) *hit = o;
        n++;
    }
    return n;
}

/* "--storage, --seed" for an ambiguous "--s". */
static void candidates(const struct option *all, const char *elem, char *buf, size_t size)
{
    size_t len = strcspn(elem + 2, "=");
    buf[0] = '\0';
    for (const struct option *o = all; o->name; o++) {
        size_t used = strlen(buf);
        if (strncmp(o->name, elem + 2, len) == 0)
            snprintf(buf + used, size - used, "%s--%s", used ? ", " : "", o->name);
    }
}

/* The other mode's flag elem names exactly ("--csv" or "--csv=x"), or NULL. */
static const char *other_mode_flag(const app_mode_cli *cli, const char *elem)
{
    if (!cli->other_flags || strncmp(elem, "--", 2) != 0) return NULL;
    size_t len = strcspn(elem + 2, "=");
    for (const char *const *f = cli->other_flags; *f; f++)
        if (strlen(*f) == len && strncmp(*f, elem + 2, len) == 0) return *f;
    return NULL;
}

/* One line for the '?' or ':' getopt_long returned on the argument elem,
 * as the user typed it. */
static void report(const app_mode_cli *cli, int c, const char *elem, const struct option *all)
{
    bool is_long = strncmp(elem, "--", 2) == 0;
    char flag[3] = {'-', (char)optopt, '\0'};
    const struct option *hit;
    const char *near;
    int n = is_long ? name_matches(all, elem, &hit) : 0;
    char list[256];
    if (c == ':' && is_long)
        app_error(cli->prog, "%s needs a value (see %s --help)", elem, cli->prog);
    else if (c == ':')
        app_error(cli->prog, "%s needs a value (see %s --help)", flag, cli->prog);
    else if (n == 1 && hit->has_arg == no_argument && strchr(elem, '='))
        app_error(cli->prog, "%.*s takes no value, not '%s' (see %s --help)",
                  (int)strcspn(elem, "="), elem, strchr(elem, '=') + 1, cli->prog);
    else if (n > 1) {
        candidates(all, elem, list, sizeof list);
        app_error(cli->prog, "ambiguous option '%.*s': %s (see %s --help)",
                  (int)strcspn(elem, "="), elem, list, cli->prog);
    } else if (!is_long && optopt > 0 && optopt < 128 && strlen(elem) > 2)
        app_error(cli->prog, "unknown option '%s' in '%s' (see %s --help)", flag, elem,
                  cli->prog);
    else if (c != ':' && (near = other_mode_flag(cli, elem)) != NULL)
        app_error(cli->prog, "--%s is a flag of %s, not of %s (see %s --help)", near,
                  cli->other_mode, cli->prog, cli->other_mode);
    else if (is_long && (near = app_nearest_option(all, elem)) != NULL)
        app_error(cli->prog, "unknown option '%.*s': did you mean --%s? (see %s --help)",
                  (int)strcspn(elem, "="), elem, near, cli->prog);
    else
        app_error(cli->prog, "unknown option '%s' (see %s --help)", elem, cli->prog);
}

/* The flag as typed in elem: "--csv" of "--csv=x", or "-c" of a short one. */
static void typed_flag(const char *elem, int code, char *buf, size_t size)
{
    if (strncmp(elem, "--", 2) == 0)
        snprintf(buf, size, "%.*s", (int)strcspn(elem, "="), elem);
    else
        snprintf(buf, size, "-%c", code > 0 && code < 128 ? (char)code : '?');
}

/* The checks getopt_long does not do: a value given as the next argument
 * that is itself an option ("--csv --quiet": the value is missing), and a
 * flag that takes a value given twice. seen[] holds the codes so far. */
static bool check_given(const app_mode_cli *cli, int c, char **argv, int argc, int at,
                        int seen[], uint32_t *seen_n)
{
    char flag[64];
    typed_flag(argv[at], c, flag, sizeof flag);
    if (!optarg) return true; /* a flag without value may be repeated */
    if (at + 1 < argc && optarg == argv[at + 1] && optarg[0] == '-' && optarg[1] != '\0') {
        if ((optarg[1] >= '0' && optarg[1] <= '9') || optarg[1] == '.')
            app_error(cli->prog, "%s: '%s' is negative: no flag takes a negative number", flag,
                      optarg);
        else
            app_error(cli->prog, "%s needs a value: '%s' starts with '-' (give %s=%s if it is "
                      "meant as the value)", flag, optarg, flag, optarg);
        return false;
    }
    for (uint32_t i = 0; i < *seen_n; i++)
        if (seen[i] == c) {
            app_error(cli->prog, "%s is given twice (give it once)", flag);
            return false;
        }
    seen[(*seen_n)++] = c;
    return true;
}

int app_options_parse(int argc, char **argv, const app_mode_cli *cli, app_sim_options *sim)
{
    struct option all[SHARED_N + MODE_OPTS_MAX + 1];
    char shorts[3 + 2 * MODE_OPTS_MAX];
    if (!merge(cli, all, shorts)) {
        app_error(cli->prog, "more than %u options in this mode", MODE_OPTS_MAX);
        return 2;
    }
    int seen[SHARED_N + MODE_OPTS_MAX];
    uint32_t seen_n = 0;
    bool help = false;
    int c;
    opterr = 0;
    optind = 1;
    sim->given = 0;
    /* '+': no permutation, so argv[optind] before a call is the argument
     * that call reads (a cluster of short flags included). */
    for (int at = optind; (c = getopt_long(argc, argv, shorts, all, NULL)) != -1; at = optind) {
        if (c == '?' || c == ':') {
            report(cli, c, argv[at], all);
            return 2;
        }
        if (c == 0) continue; /* a flag that sets a variable by itself */
        if (!check_given(cli, c, argv, argc, at, seen, &seen_n)) return 2;
        bool shared = c >= APP_OPT_ENTITIES && c < APP_OPT_MODE_FIRST;
        bool ok = shared ? apply_shared(cli, c, optarg, sim)
                         : cli->apply(c, optarg, cli->mode_options);
        if (!ok) return 2;
        if (shared) sim->given |= APP_GIVEN(c);
        help |= c == 'h';
    }
    if (optind < argc) {
        app_error(cli->prog, "unexpected argument '%s' (see %s --help)", argv[optind], cli->prog);
        return 2;
    }
    return help || (check_counts(cli, sim) && check_density(cli, sim)) ? 0 : 2;
}

/* ---- help ----------------------------------------------------------------- */

/* items[0..n) of words (or numbers when words is NULL), comma-separated. */
static void join(char *buf, size_t size, const uint32_t *items, uint32_t n,
                 const char *const *words)
{
    buf[0] = '\0';
    for (uint32_t i = 0; i < n; i++) {
        size_t used = strlen(buf);
        if (words)
            snprintf(buf + used, size - used, "%s%s", i ? "," : "", words[items[i]]);
        else
            snprintf(buf + used, size - used, "%s%u", i ? "," : "", (unsigned)items[i]);
    }
}

static void usage_lists(FILE *f, bool list, const app_sim_options *d)
{
    char counts[APP_MAX_LIST * 12], ip[16], storage[24];
    uint32_t idx[2];
    join(counts, sizeof counts, d->counts, d->count_n, NULL);
    for (uint32_t i = 0; i < d->ip_n; i++) idx[i] = d->ip_on[i] ? 1u : 0u;
    join(ip, sizeof ip, idx, d->ip_n, IP_WORDS);
    for (uint32_t i = 0; i < d->storage_n; i++) idx[i] = d->storages[i] == ECS_STORAGE_FIXED;
    join(storage, sizeof storage, idx, d->storage_n, STORAGE_WORDS);
    if (list)
        fprintf(f,
                "  --entities LIST           particle counts, comma-separated, each 1..%u\n"
                "                            and at most what the world holds (circles\n"
                "                            covering %g times its area)\n"
                "                            (default %s)\n"
                "  --inner-parallelism LIST  on, off, or both (= on,off) (default %s)\n"
                "  --storage LIST            fixed, dynamic, or both (= fixed,dynamic)\n"
                "                            (default %s)\n",
                (unsigned)ECS_MAX_ENTITIES, SIM_COVERAGE_MAX, counts, ip, storage);
    else
        fprintf(f,
                "  --entities N              particles, 1..%u and at most what the world\n"
                "                            holds (circles covering %g times its area)\n"
                "                            (default %s)\n"
                "  --inner-parallelism IP    on or off (default %s)\n"
                "  --storage KIND            fixed or dynamic (default %s)\n",
                (unsigned)ECS_MAX_ENTITIES, SIM_COVERAGE_MAX, counts, ip, storage);
}

void app_options_usage(FILE *f, uint32_t list_max, const app_sim_options *d)
{
    bool list = list_max > 1u;
    uint32_t cpus = app_online_cpus();
    usage_lists(f, list, d);
    if (list)
        fprintf(f,
                "  --threads LIST            workers including the caller, each 1..%u:\n"
                "                            counts comma-separated (1,2,4,8) or ranges\n"
                "                            LOW..HIGH, every count in between (1..16),\n"
                "                            mixed (1..4,8), at most %u counts in all\n",
                APP_MAX_THREADS, (unsigned)APP_MAX_LIST);
    else
        fprintf(f, "  --threads N               workers including the caller, 1..%u\n",
                APP_MAX_THREADS);
    if (d->thread_n == 1 && d->threads[0] == cpus)
        fprintf(f, "                            (default: online CPUs, here %u)\n", cpus);
    else
        fprintf(f, "                            (default %u)\n", (unsigned)d->threads[0]);
    fprintf(f, "  --seed S                  Park-Miller seed, 0..%u (default %u): the\n"
               "                            generator's own range, every seed distinct but\n"
               "                            0, which it maps to 1 as the thesis\n",
            (unsigned)APP_SEED_MAX, (unsigned)d->seed);
    fprintf(f,
            "  --fixed-limit N           entity limit of fixed storage, 1..%u\n"
            "                            (default %u%s); with fixed storage\n"
            "                            selected %s must be <= N (dynamic\n"
            "                            storage starts at %u entities and doubles)\n",
            (unsigned)ECS_MAX_ENTITIES, (unsigned)d->fixed_limit,
            d->fixed_limit == APP_THESIS_FIXED_LIMIT ? ", the thesis's" : "",
            list ? "every count" : "--entities", (unsigned)ECS_DEFAULT_CAPACITY);
    fprintf(f,
            "  --kernel K                collision kernel: scalar, avx2, avx512 or auto\n"
            "                            (default auto: the widest this CPU has, here %s)\n"
            "  --loops K                 vector level of the element-wise loops (life,\n"
            "                            fade, keep_in_bounds): scalar, avx2, avx512 or\n"
            "                            auto (default auto, here %s), apart from --kernel;\n"
            "                            every level gives the same state\n"
            "  --world WxH               world size in units, each side a whole number\n"
            "                            from %u to %u, the grid (cells of 5.05 units)\n"
            "                            at most %u cells (default 1440x900, the\n"
            "                            thesis's; e.g. 3220x2012 holds 1000000 particles\n"
            "                            at the density of 200000 in the default world)\n",
            sim_kernel_name(sim_kernel_resolve(SIM_KERNEL_AUTO)),
            sim_kernel_name(sim_kernel_resolve(SIM_KERNEL_AUTO)), (unsigned)world_side_min(),
            (unsigned)SIM_WORLD_SIDE_MAX,
            (unsigned)SIM_GRID_CELLS_MAX);
}

void app_options_usage_numbers(FILE *f, uint32_t list_max)
{
    fprintf(f,
            "A number (but a side of WxH, which is plain digits) may be written 200000,\n"
            "200_000, 200k, 1.5M or 2e5 (k, M, G: 10^3, 10^6, 10^9; eN: 10^N) and must\n"
            "come to a whole number (1.5k is 1500, 1.2345k is refused). A comma never\n"
            "groups digits%s.\n",
            list_max > 1u ? ": it separates the items of a list (1,500\n"
                            "is 1 and 500; 50,000 is refused as unclear)"
                          : " (50,000 is refused)");
}
