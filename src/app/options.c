/* options.c - the command line from the table of flags (flags.c): one
 * getopt_long loop for either mode, its lists and messages, and --help. */
#include "options.h"

#include <string.h>
#include <strings.h>

#define FLAGS_MAX 64u

/* What one parse knows: the mode, its name, whether its lists take more
 * than one item, the getopt_long options. */
typedef struct parse {
    uint32_t mode;
    const char *prog;
    app_mode_cli cli;
    uint32_t list_max;
    struct option all[FLAGS_MAX + 1];
} parse;

uint32_t app_online_cpus(void)
{
    uint32_t n = ecs_cpu_count();
    return n > APP_MAX_THREADS ? APP_MAX_THREADS : n;
}

static const char *other_prog(uint32_t mode)
{
    return mode == APP_BENCH ? "particles" : "particles bench";
}

static void *value_at(app_options *o, size_t at) { return (char *)o + at; }

/* ---- lists ---------------------------------------------------------------- */

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

/* A list being read: its row, the flag as named in messages, the whole
 * value, the items so far. */
typedef struct item_list {
    const parse *p;
    const app_flag *f;
    char flag[32];
    const char *arg;
    uint32_t *out, *n, max;
} item_list;

/* Appends v (typed as s[0..len)), refusing a repeat or one item past max. */
static bool add_item(item_list *l, uint32_t v, const char *s, size_t len)
{
    for (uint32_t i = 0; i < *l->n; i++) {
        if (l->out[i] == v) {
            app_error(l->p->prog, "%s: '%.*s' is listed twice", l->flag, (int)len, s);
            return false;
        }
    }
    if (*l->n == l->max) {
        app_error(l->p->prog, "%s: more than %u items in '%s'", l->flag, (unsigned)l->max, l->arg);
        return false;
    }
    l->out[(*l->n)++] = v;
    return true;
}

/* An item LO..HI (dots at its ".."): every number from LO to HI. */
static bool parse_range(item_list *l, const char *s, size_t len, const char *dots)
{
    const app_flag *f = l->f;
    const char *prog = l->p->prog;
    size_t lo_len = (size_t)(dots - s), hi_len = len - lo_len - 2u;
    uint32_t lo, hi;
    app_count_status a = app_scan_count(s, lo_len, f->lo, f->hi, &lo);
    app_count_status b = app_scan_count(dots + 2, hi_len, f->lo, f->hi, &hi);
    if ((a != APP_COUNT_OK && a != APP_COUNT_RANGE) || (b != APP_COUNT_OK && b != APP_COUNT_RANGE)) {
        app_error(prog, "%s: '%.*s' is not a range LOW..HIGH of two whole numbers from %u to %u "
                  "(e.g. 1..8)", l->flag, (int)len, s, (unsigned)f->lo, (unsigned)f->hi);
        return false;
    }
    /* A number out of range: its own message. */
    if (a != APP_COUNT_OK)
        return app_parse_u32_span(&l->p->cli, l->flag, s, lo_len, f->lo, f->hi, &lo);
    if (b != APP_COUNT_OK)
        return app_parse_u32_span(&l->p->cli, l->flag, dots + 2, hi_len, f->lo, f->hi, &hi);
    if (lo > hi) {
        app_error(prog, "%s: '%.*s' runs downwards: a range goes from low to high (%.*s..%.*s)",
                  l->flag, (int)len, s, (int)hi_len, dots + 2, (int)lo_len, s);
        return false;
    }
    if ((uint64_t)*l->n + (hi - lo) + 1u > l->max) {
        app_error(prog, "%s: '%s' has %u items, more than %u", l->flag, l->arg,
                  (unsigned)(*l->n + (hi - lo) + 1u), (unsigned)l->max);
        return false;
    }
    for (uint32_t v = lo;; v++) {
        char typed[16];
        int tn = snprintf(typed, sizeof typed, "%u", (unsigned)v);
        if (!add_item(l, v, typed, (size_t)tn)) return false;
        if (v == hi) return true;
    }
}

static bool parse_item(item_list *l, const char *s, size_t len)
{
    const app_flag *f = l->f;
    uint32_t v;
    if (f->kind == APP_WORDS && f->word_n == 2 && len == 4 && strncmp(s, "both", 4) == 0) {
        if (l->p->list_max <= 1u)
            app_error(l->p->prog, "%s: 'both' is for particles bench; this mode runs one "
                      "simulation: give %s or %s", l->flag, f->words[1], f->words[0]);
        else
            app_error(l->p->prog, "%s: 'both' (= %s,%s) is given alone, not in a list like '%s'",
                      l->flag, f->words[1], f->words[0], l->arg);
        return false;
    }
    const char *dots = f->ranges ? strstr(s, "..") : NULL;
    if (dots && dots < s + len) return parse_range(l, s, len, dots);
    bool ok = f->kind == APP_WORDS
                  ? app_parse_word_span(&l->p->cli, l->flag, s, len, f->words, f->word_n, &v)
                  : app_parse_u32_span(&l->p->cli, l->flag, s, len, f->lo, f->hi, &v);
    return ok && add_item(l, v, s, len);
}

/* A comma-separated list of at most list_max items (and the words a row
 * has); of two words, "both" alone for both, the second first. */
static bool parse_list(const parse *p, const app_flag *f, const char *arg, app_options *o)
{
    item_list l = {p, f, "", arg, value_at(o, f->at), value_at(o, f->n_at), p->list_max};
    snprintf(l.flag, sizeof l.flag, "--%s", f->name);
    if (f->kind == APP_WORDS && l.max > f->word_n) l.max = f->word_n;
    *l.n = 0;
    if (f->kind == APP_COUNTS && thousands_grouped(arg, l.max > 1u)) { /* "50,000" */
        char plain[64], grouped[64];
        size_t n = 0, g = 0;
        for (const char *c = arg; *c && g + 1 < sizeof grouped; c++) {
            if (*c != ',') plain[n++] = *c;
            grouped[g++] = *c == ',' ? '_' : *c;
        }
        plain[n] = grouped[g] = '\0';
        app_error(p->prog, "%s: '%s': a comma does not group digits%s; write the count as %s or %s",
                  l.flag, arg, l.max > 1u ? " (it separates the counts of a list)"
                                          : " (and a list of counts is for particles bench)",
                  plain, grouped);
        return false;
    }
    if (l.max <= 1u) {
        if (strchr(arg, ',') || (f->ranges && strstr(arg, ".."))) {
            app_error(p->prog, "%s: '%s' is not a single value (this mode runs one simulation; "
                      "lists are for particles bench)", l.flag, arg);
            return false;
        }
        return parse_item(&l, arg, strlen(arg));
    }
    char both[64];
    if (f->kind == APP_WORDS && f->word_n == 2 && strcmp(arg, "both") == 0) {
        snprintf(both, sizeof both, "%s,%s", f->words[1], f->words[0]);
        l.arg = arg = both;
    }
    for (const char *s = arg;; s++) {
        size_t len = strcspn(s, ",");
        if (len == 0) {
            app_error(p->prog, "%s: empty item in '%s'", l.flag, arg);
            return false;
        }
        if (!parse_item(&l, s, len)) return false;
        s += len;
        if (*s == '\0') return true;
    }
}

/* ---- one value ------------------------------------------------------------ */

static bool ends_with_one_of(const char *s, const char *const *suffixes, uint32_t n)
{
    size_t len = strlen(s);
    for (uint32_t i = 0; i < n; i++) {
        size_t k = strlen(suffixes[i]);
        if (len > k && strcasecmp(s + len - k, suffixes[i]) == 0) return true;
    }
    return n == 0;
}

static bool apply(const parse *p, const app_flag *f, const char *arg, app_options *o)
{
    char flag[32];
    snprintf(flag, sizeof flag, "--%s", f->name);
    switch (f->kind) {
    case APP_SWITCH: *(bool *)value_at(o, f->at) = true; return true;
    case APP_COUNT: return app_parse_u32(&p->cli, flag, arg, f->lo, f->hi, value_at(o, f->at));
    case APP_WORD:
        return app_parse_word(&p->cli, flag, arg, f->words, f->word_n, value_at(o, f->at));
    case APP_COUNTS:
    case APP_WORDS: return parse_list(p, f, arg, o);
    case APP_CUSTOM: return f->parse(p->prog, arg, o);
    case APP_FILE: break;
    }
    if (arg[0] == '\0') {
        app_error(p->prog, "%s: the file name is empty", flag);
        return false;
    }
    if (!ends_with_one_of(arg, f->words, f->word_n)) {
        app_error(p->prog, "%s: '%s' is not a file name ending in %s%s%s", flag, arg, f->words[0],
                  f->word_n > 1 ? " or " : "", f->word_n > 1 ? f->words[1] : "");
        return false;
    }
    *(const char **)value_at(o, f->at) = arg;
    return true;
}

/* ---- the simulation's values against each other -------------------------- */

/* With fixed storage selected, every count within --fixed-limit; and the
 * density rule (sim_max_particles) for every count in the world given. */
static bool check_sim(const char *prog, const app_sim_options *sim)
{
    bool fixed = false;
    for (uint32_t i = 0; i < sim->storage_n; i++) fixed |= sim->storages[i] == ECS_STORAGE_FIXED;
    sim_params p = sim_default_params();
    if (sim->world_w) {
        p.world_w = (float)sim->world_w;
        p.world_h = (float)sim->world_h;
    }
    uint32_t most = sim_max_particles(&p);
    for (uint32_t i = 0; i < sim->count_n; i++) {
        uint32_t c = sim->counts[i];
        if (fixed && c > sim->fixed_limit) {
            app_error(prog, "--entities: %u exceeds the fixed storage limit %u (--fixed-limit); "
                      "raise the limit or use --storage dynamic", (unsigned)c,
                      (unsigned)sim->fixed_limit);
            return false;
        }
    }
    for (uint32_t i = 0; i < sim->count_n; i++) {
        if (sim->counts[i] <= most) continue;
        app_error(prog, "--entities %u with --world %gx%g%s: the world is too dense for that "
                  "many particles: it allows at most %u (circles covering %g times its area)",
                  (unsigned)sim->counts[i], (double)p.world_w, (double)p.world_h,
                  sim->world_w ? "" : " (the default)", (unsigned)most, SIM_COVERAGE_MAX);
        return false;
    }
    return true;
}

/* ---- messages for what getopt_long refused -------------------------------- */

/* The rows whose name starts with the name in "--name[=value]", of the
 * options all: the exact match alone when there is one. Returns how
 * many, the first in *hit; their names in buf ("--seed, --storage"). */
static int name_matches(const struct option *all, const char *elem, const struct option **hit,
                        char *buf, size_t size)
{
    size_t len = strcspn(elem + 2, "=");
    int n = 0;
    *hit = NULL;
    buf[0] = '\0';
    for (const struct option *o = all; len > 0 && o->name; o++) {
        if (strncmp(o->name, elem + 2, len) != 0) continue;
        if (strlen(o->name) == len) {
            *hit = o;
            return 1;
        }
        size_t used = strlen(buf);
        snprintf(buf + used, size - used, "%s--%s", used ? ", " : "", o->name);
        if (!*hit) *hit = o;
        n++;
    }
    return n;
}

/* The row of the other mode elem ("--csv" or "--csv=x") names exactly, or
 * NULL (also where this mode has a row of that name). */
static const app_flag *other_mode_flag(uint32_t mode, const char *elem)
{
    size_t len = strcspn(elem + 2, "=");
    const app_flag *other = NULL;
    for (uint32_t i = 0; i < APP_FLAG_COUNT; i++) {
        const app_flag *f = &APP_FLAGS[i];
        if (strlen(f->name) != len || strncmp(f->name, elem + 2, len) != 0) continue;
        if (f->modes & mode) return NULL;
        if (!other) other = f;
    }
    return other;
}

/* One line for the '?' or ':' getopt_long returned on elem, as typed. */
static void report(const parse *p, int c, const char *elem)
{
    bool is_long = strncmp(elem, "--", 2) == 0;
    char flag[3] = {'-', (char)optopt, '\0'}, list[256];
    int name_len = (int)strcspn(elem, "=");
    const struct option *hit;
    const app_flag *other;
    const char *near;
    int n = is_long ? name_matches(p->all, elem, &hit, list, sizeof list) : 0;
    if (c == ':')
        app_error(p->prog, "%s needs a value (see %s --help)", is_long ? elem : flag, p->prog);
    else if (n == 1 && hit->has_arg == no_argument && strchr(elem, '='))
        app_error(p->prog, "%.*s takes no value, not '%s' (see %s --help)", name_len, elem,
                  strchr(elem, '=') + 1, p->prog);
    else if (n > 1)
        app_error(p->prog, "ambiguous option '%.*s': %s (see %s --help)", name_len, elem, list,
                  p->prog);
    else if (!is_long && optopt > 0 && optopt < 128 && strlen(elem) > 2)
        app_error(p->prog, "unknown option '%s' in '%s' (see %s --help)", flag, elem, p->prog);
    else if (is_long && (other = other_mode_flag(p->mode, elem)) != NULL)
        app_error(p->prog, "--%s is a flag of %s, not of %s (see %s --help)", other->name,
                  other_prog(p->mode), p->prog, other_prog(p->mode));
    else if (is_long && (near = app_nearest_option(p->all, elem)) != NULL)
        app_error(p->prog, "unknown option '%.*s': did you mean --%s? (see %s --help)", name_len,
                  elem, near, p->prog);
    else
        app_error(p->prog, "unknown option '%s' (see %s --help)", elem, p->prog);
}

/* The checks getopt_long does not do: a value given as the next argument
 * that is itself an option ("--csv --quiet": the value is missing), and a
 * flag with a value given twice. */
static bool check_value(const parse *p, const app_flag *f, const app_options *o, char **argv,
                        int argc, int at, uint32_t row)
{
    char flag[64];
    if (strncmp(argv[at], "--", 2) == 0)
        snprintf(flag, sizeof flag, "%.*s", (int)strcspn(argv[at], "="), argv[at]);
    else
        snprintf(flag, sizeof flag, "-%c", argv[at][1]);
    if (!f->arg) return true; /* a flag without value may be repeated */
    if (at + 1 < argc && optarg == argv[at + 1] && optarg[0] == '-' && optarg[1] != '\0') {
        if ((optarg[1] >= '0' && optarg[1] <= '9') || optarg[1] == '.')
            app_error(p->prog, "%s: '%s' is negative: no flag takes a negative number", flag,
                      optarg);
        else
            app_error(p->prog, "%s needs a value: '%s' starts with '-' (give %s=%s if it is "
                      "meant as the value)", flag, optarg, flag, optarg);
        return false;
    }
    if (o->given & (1ull << row)) {
        app_error(p->prog, "%s is given twice (give it once)", flag);
        return false;
    }
    return true;
}

/* ---- the loop ------------------------------------------------------------- */

int app_options_parse(int argc, char **argv, uint32_t mode, const char *prog, app_options *o)
{
    parse p = {.mode = mode, .prog = prog, .cli = {prog}};
    p.list_max = mode == APP_BENCH ? APP_MAX_LIST : 1u;
    bool window_args = mode == APP_BENCH && argc > 1 && strcmp(argv[1], "--window-args") == 0;
    uint32_t n = 0, help_row = 0;
    for (uint32_t i = 0; i < APP_FLAG_COUNT; i++) {
        const app_flag *f = &APP_FLAGS[i];
        /* --window-args: the window's own flags too, to be left out */
        char elem[40];
        snprintf(elem, sizeof elem, "--%s", f->name);
        bool dropped = window_args && !(f->modes & mode) && other_mode_flag(mode, elem) == f;
        if (!(f->modes & mode) && !dropped) continue;
        p.all[n++] = (struct option){f->name, f->arg ? required_argument : no_argument, NULL,
                                     256 + (int)i};
        if (strcmp(f->name, "help") == 0) {
            p.all[n - 1].val = 'h';
            help_row = i;
        }
    }
    p.all[n] = (struct option){NULL, 0, NULL, 0};
    int c;
    opterr = 0;
    optind = 1;
    o->given = 0;
    o->left_out[0] = '\0';
    /* '+': no permutation, so argv[optind] before a call is the argument
     * that call reads (a cluster of short flags included). */
    for (int at = optind; (c = getopt_long(argc, argv, "+:h", p.all, NULL)) != -1; at = optind) {
        if (c == '?' || c == ':') {
            report(&p, c, argv[at]);
            return 2;
        }
        uint32_t row = c == 'h' ? help_row : (uint32_t)c - 256u;
        const app_flag *f = &APP_FLAGS[row];
        if (!check_value(&p, f, o, argv, argc, at, row)) return 2;
        if (strcmp(f->name, "window-args") == 0 && at != 1) {
            app_error(prog, "--window-args comes first: the rest is the window's command line");
            return 2;
        }
        o->given |= 1ull << row;
        if (!(f->modes & mode)) { /* --window-args: left out */
            size_t used = strlen(o->left_out);
            bool apart = optarg && at + 1 < argc && optarg == argv[at + 1];
            snprintf(o->left_out + used, sizeof o->left_out - used, "%s%s%s%s", used ? " " : "",
                     argv[at], apart ? " " : "", apart ? optarg : "");
            continue;
        }
        if (!apply(&p, f, optarg, o)) return 2;
    }
    if (optind < argc) {
        app_error(prog, "unexpected argument '%s' (see %s --help)", argv[optind], prog);
        return 2;
    }
    /* A replay's world comes from its recording: app_replay_check_flags
     * refuses these flags there, naming them, before any count is judged. */
    if (!o->help && !o->replay && !check_sim(prog, &o->sim)) return 2;
    return 0;
}

const char *app_options_first_given(const app_options *o, const char *const *skip)
{
    for (uint32_t i = 0; i < APP_FLAG_COUNT; i++) {
        bool skipped = false;
        for (const char *const *s = skip; *s; s++) skipped |= strcmp(*s, APP_FLAGS[i].name) == 0;
        if (!skipped && (o->given & (1ull << i))) return APP_FLAGS[i].name;
    }
    return NULL;
}

bool app_options_given(const app_options *o, const char *name)
{
    for (uint32_t i = 0; i < APP_FLAG_COUNT; i++)
        if ((o->given & (1ull << i)) && strcmp(APP_FLAGS[i].name, name) == 0) return true;
    return false;
}

/* ---- help ----------------------------------------------------------------- */

/* The default value of a row of a value kind into buf. */
static void print_default(char *buf, size_t size, const app_flag *f, const app_options *d)
{
    const uint32_t *v = (const uint32_t *)((const char *)d + f->at);
    uint32_t n = f->kind == APP_COUNTS || f->kind == APP_WORDS
                     ? *(const uint32_t *)((const char *)d + f->n_at)
                     : 1u;
    buf[0] = '\0';
    for (uint32_t i = 0; i < n; i++) {
        size_t used = strlen(buf);
        if (f->words)
            snprintf(buf + used, size - used, "%s%s", i ? "," : "", f->words[v[i]]);
        else
            snprintf(buf + used, size - used, "%s%u", i ? "," : "", (unsigned)v[i]);
    }
}

/* The help of row f with its {tokens} filled in. */
static void expand(char *buf, size_t size, const app_flag *f, const app_options *d)
{
    char def[APP_MAX_LIST * 12] = "";
    bool value = f->kind == APP_COUNT || f->kind == APP_COUNTS || f->kind == APP_WORD ||
                 f->kind == APP_WORDS;
    if (value) print_default(def, sizeof def, f, d);
    size_t n = 0;
    for (const char *s = f->help; *s && n + 1 < size;) {
        char num[16] = "";
        const char *sub = NULL, *end = strchr(s, '}');
        if (*s == '{' && end) {
            size_t len = (size_t)(end - s) + 1;
            if (strncmp(s, "{lo}", len) == 0) snprintf(num, sizeof num, "%u", (unsigned)f->lo);
            if (strncmp(s, "{hi}", len) == 0) snprintf(num, sizeof num, "%u", (unsigned)f->hi);
            if (strncmp(s, "{list}", len) == 0) snprintf(num, sizeof num, "%u", APP_MAX_LIST);
            sub = strncmp(s, "{default}", len) == 0 ? def : num;
            s = end + 1;
            n += (size_t)snprintf(buf + n, size - n, "%s", sub);
        } else {
            buf[n++] = *s++;
        }
        if (n >= size) n = size - 1;
    }
    buf[n] = '\0';
    if (value && !strstr(f->help, "{default}") && n < size)
        snprintf(buf + n, size - n, " (default %s)", def);
}

/* "  --name ARG" in 28 columns, then text wrapped to 78 columns, each
 * line after the first indented by 28. */
static void print_row(FILE *f, const char *head, const char *text)
{
    int col = fprintf(f, "  %-26s", head);
    bool first = true; /* of its line */
    if (col > 28) {
        fprintf(f, "\n%28s", "");
        col = 28;
    }
    for (const char *s = text + strspn(text, " "); *s; s += strspn(s, " ")) {
        int word = (int)strcspn(s, " ");
        if (!first && col + 1 + word > 78) {
            fprintf(f, "\n%28s", "");
            col = 28;
            first = true;
        }
        col += fprintf(f, "%s%.*s", first ? "" : " ", word, s);
        first = false;
        s += word;
    }
    fputc('\n', f);
}

void app_options_usage(FILE *f, uint32_t mode, const app_options *d)
{
    for (uint32_t i = 0; i < APP_FLAG_COUNT; i++) {
        const app_flag *r = &APP_FLAGS[i];
        if (!(r->modes & mode)) continue;
        char head[64], text[1024];
        bool list = mode == APP_BENCH && (r->kind == APP_COUNTS || r->kind == APP_WORDS);
        if (strcmp(r->name, "help") == 0)
            snprintf(head, sizeof head, "-h, --help");
        else
            snprintf(head, sizeof head, "--%s%s%s", r->name, r->arg ? " " : "",
                     list ? "LIST" : r->arg ? r->arg : "");
        expand(text, sizeof text, r, d);
        print_row(f, head, text);
    }
    /* the flags a "--s" would leave ambiguous, from the table */
    char s_flags[128] = "";
    for (uint32_t i = 0; i < APP_FLAG_COUNT; i++) {
        size_t used = strlen(s_flags);
        if ((APP_FLAGS[i].modes & mode) && APP_FLAGS[i].name[0] == 's')
            snprintf(s_flags + used, sizeof s_flags - used, "%s--%s", used ? ", " : "",
                     APP_FLAGS[i].name);
    }
    bool lists = mode == APP_BENCH;
    fprintf(f,
            "\n"
            "A flag that takes a value is given once; a value starting with '-' goes\n"
            "after '=' (--trace=-x.json).%s A long flag may be shortened to any prefix\n"
            "that names only it (--ent 1000 for --entities 1000; --s is refused:\n"
            "%s).\n"
            "A number (but a side of WxH, which is plain digits) may be written 200000,\n"
            "200_000, 200k, 1.5M or 2e5 (k, M, G: 10^3, 10^6, 10^9; eN: 10^N) and must\n"
            "come to a whole number (1.5k is 1500, 1.2345k is refused). A comma never\n"
            "groups digits%s.\n",
            lists ? " A value listed twice in one list is rejected." : "", s_flags,
            lists ? ": it separates the items of a list (1,500\n"
                    "is 1 and 500; 50,000 is refused as unclear)"
                  : " (50,000 is refused)");
}

/* ---- one run ---------------------------------------------------------------- */

bool app_check_one_run(const char *prog, const char *flag, const char *file, const char *what,
                       const app_options *o)
{
    const struct {
        const char *name;
        uint32_t n;
    } lists[] = {{"entities", o->load_state ? 1u : o->sim.count_n}, /* the snapshot's */
                 {"inner-parallelism", o->sim.ip_n}, {"storage", o->sim.storage_n},
                 {"layout", o->sim.layout_n},         {"threads", o->sim.thread_n}};
    for (size_t k = 0; k < sizeof lists / sizeof lists[0]; k++) {
        if (lists[k].n <= 1u) continue;
        app_error(prog, "%s %s: %s of one run: --%s has %u values%s; give one", flag, file, what,
                  lists[k].name, (unsigned)lists[k].n,
                  app_options_given(o, lists[k].name) ? "" : " by default");
        return false;
    }
    if (o->repeat > 1u) {
        app_error(prog, "%s %s: %s of one run: --repeat is %u%s; give --repeat 1", flag, file,
                  what, (unsigned)o->repeat, app_options_given(o, "repeat") ? "" : " by default");
        return false;
    }
    return true;
}

/* ---- --replay -------------------------------------------------------------- */

bool app_replay_check_flags(const char *prog, const app_options *o, uint32_t mode)
{
    static const char *const from_file[] = {"entities", "seed", "world", "fixed-limit", NULL};
    if (o->replay && o->record) {
        app_error(prog, "--record %s with --replay %s: a replay applies the recording's inputs; "
                  "record without --replay", o->record, o->replay);
        return false;
    }
    /* A recording's header describes a world made from its parameters. */
    const char *rec = o->record ? o->record : o->replay;
    if (rec && o->load_state) {
        app_error(prog, "--%s %s with --load-state %s: a recording starts from a new world, "
                  "not from a snapshot; leave one out", o->record ? "record" : "replay", rec,
                  o->load_state);
        return false;
    }
    if (!o->replay) return true;
    for (const char *const *f = from_file; *f; f++)
        if (app_options_given(o, *f)) {
            app_error(prog, "--replay %s: --%s comes from the recording; leave it out",
                      o->replay, *f);
            return false;
        }
    /* What a replay takes besides: the settings the state never depends on
     * (the bench's one value each), and the window's view. */
    static const char *const bench_takes[] = {"replay", "threads", "inner-parallelism", "storage",
                                              "layout", "kernel", "loops", "help", NULL};
    const char *other = mode == APP_BENCH ? app_options_first_given(o, bench_takes)
                        : app_options_given(o, "frames") ? "frames"
                                                          : NULL;
    if (other) {
        app_error(prog, "--replay %s replays the recording to its end: --%s does not apply",
                  o->replay, other);
        return false;
    }
    const struct { const char *name; uint32_t n; } lists[] = {
        {"threads", o->sim.thread_n}, {"inner-parallelism", o->sim.ip_n},
        {"storage", o->sim.storage_n}, {"layout", o->sim.layout_n}};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        if (app_options_given(o, lists[i].name) && lists[i].n > 1u) {
            app_error(prog, "--replay %s runs once: give one value of --%s", o->replay,
                      lists[i].name);
            return false;
        }
    return true;
}
