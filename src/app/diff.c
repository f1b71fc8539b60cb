/* diff.c - `particles diff A B`: reads two --hashes files (hashes.h) and
 * says where they first differ. */
#include "diff.h"
#include "args.h"
#include "hashes.h"
#include "out.h"
#include "read_file.h"
#include "stop.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define PROG "particles diff"
#define KEYS_MAX 32u
#define COLUMNS_MAX 64u
#define HASH_DIGITS 16u
/* The largest file read: a bench run's tens of thousands of frames of
 * every system's hash are far smaller. */
#define HASHES_MAX_BYTES ((uint64_t)4 << 30)

/* The keys of line 1 that decide the state: runs that differ in one are
 * not compared. */
static const char *const STATE_KEYS[] = {"seed", "entities", "world", "systems"};
/* Keys every file has. */
static const char *const REQUIRED_KEYS[] = {"mode", "seed", "entities", "world", "systems"};

typedef struct hashes_file {
    const char *path;
    char *text;                   /* the whole file: key, value and column point into it */
    const char *key[KEYS_MAX], *value[KEYS_MAX]; /* line 1's */
    uint32_t key_n;
    const char *column[COLUMNS_MAX]; /* line 2's: "state", then the systems in the order they ran */
    uint32_t column_n;
    uint64_t *hash;               /* frame f, column c at f * column_n + c */
    uint64_t first, frames, cap;  /* frames first .. first + frames - 1 (first: 0, or a
                                   * snapshot's frame) */
} hashes_file;

static void file_free(hashes_file *h)
{
    free(h->text);
    free(h->hash);
}

static const char *value_of(const hashes_file *h, const char *key)
{
    for (uint32_t k = 0; k < h->key_n; k++)
        if (strcmp(h->key[k], key) == 0) return h->value[k];
    return NULL;
}

/* Splits s at single spaces into up to max words; false when there are
 * more, or an empty word (two spaces, a space at an end). */
static bool split(char *s, const char **words, uint32_t max, uint32_t *n)
{
    *n = 0;
    for (char *w = s;;) {
        char *sp = strchr(w, ' ');
        if (sp) *sp = '\0';
        if (*w == '\0' || *n == max) return false;
        words[(*n)++] = w;
        if (!sp) return true;
        w = sp + 1;
    }
}

/* Line 1: the magic, the version, key=value pairs. */
static bool parse_header(hashes_file *h, char *line, char *why, size_t size)
{
    const char *words[KEYS_MAX + 2];
    uint32_t n;
    size_t magic = strlen(APP_HASHES_MAGIC);
    if (strncmp(line, APP_HASHES_MAGIC " ", magic + 1) != 0) {
        snprintf(why, size, "line 1: not a hashes file (particles --hashes writes them; the "
                 "first line starts '%s %d')", APP_HASHES_MAGIC, APP_HASHES_VERSION);
        return false;
    }
    if (!split(line, words, KEYS_MAX + 2, &n) || n < 2) {
        snprintf(why, size, "line 1: not words separated by single spaces, at most %u of them",
                 KEYS_MAX + 2u);
        return false;
    }
    char version[8];
    snprintf(version, sizeof version, "%d", APP_HASHES_VERSION);
    if (strcmp(words[1], version) != 0) {
        snprintf(why, size, "line 1: format version '%.20s'; this particles reads version %s",
                 words[1], version);
        return false;
    }
    for (uint32_t k = 2; k < n; k++) {
        char *eq = strchr(words[k], '=');
        if (!eq || eq == words[k] || eq[1] == '\0') {
            snprintf(why, size, "line 1: '%.40s' is not key=value", words[k]);
            return false;
        }
        *eq = '\0';
        h->key[h->key_n] = words[k];
        h->value[h->key_n++] = eq + 1;
    }
    for (size_t k = 0; k < sizeof REQUIRED_KEYS / sizeof REQUIRED_KEYS[0]; k++)
        if (!value_of(h, REQUIRED_KEYS[k])) {
            snprintf(why, size, "line 1: no %s= (a hashes file names its mode, seed, entities, "
                     "world and systems)", REQUIRED_KEYS[k]);
            return false;
        }
    return true;
}

/* Line 2: "frame state", then the systems' names. */
static bool parse_names(hashes_file *h, char *line, char *why, size_t size)
{
    const char *words[COLUMNS_MAX + 1];
    uint32_t n;
    if (!split(line, words, COLUMNS_MAX + 1, &n) || n < 2 || strcmp(words[0], "frame") != 0 ||
        strcmp(words[1], "state") != 0) {
        snprintf(why, size, "line 2: not 'frame state' and the systems' names, separated by "
                 "single spaces");
        return false;
    }
    h->column_n = n - 1u;
    memcpy(h->column, words + 1, h->column_n * sizeof *words);
    return true;
}

static bool parse_hash(const char *s, uint64_t *out)
{
    if (strlen(s) != HASH_DIGITS || strspn(s, "0123456789abcdef") != HASH_DIGITS) return false;
    *out = strtoull(s, NULL, 16);
    return true;
}

/* s as a frame number written in plain digits. */
static bool parse_frame(const char *s, uint64_t *out)
{
    size_t n = strlen(s);
    if (n == 0 || n > 19 || strspn(s, "0123456789") != n || (s[0] == '0' && n > 1)) return false;
    *out = strtoull(s, NULL, 10);
    return true;
}

/* A frame's line, the next frame's: its number, then a hash per column
 * (frame 0: "-" for the systems, which have not run). */
static bool parse_frame_line(hashes_file *h, char *line, uint64_t line_no, char *why, size_t size)
{
    const char *words[COLUMNS_MAX + 1];
    uint32_t n;
    uint64_t frame;
    if (!split(line, words, COLUMNS_MAX + 1, &n) || n != h->column_n + 1u) {
        snprintf(why, size, "line %" PRIu64 ": not a frame and %u hash%s separated by single "
                 "spaces", line_no, (unsigned)h->column_n, h->column_n == 1u ? "" : "es");
        return false;
    }
    /* The first frame is the run's start (0, or where --load-state began). */
    if (!parse_frame(words[0], &frame) || (h->frames > 0 && frame != h->first + h->frames)) {
        snprintf(why, size, "line %" PRIu64 ": frame '%.24s' where frame %" PRIu64 " comes next",
                 line_no, words[0], h->first + h->frames);
        return false;
    }
    if (h->frames == 0) h->first = frame;
    if (h->frames == h->cap) {
        uint64_t cap = h->cap ? 2u * h->cap : 1024u;
        uint64_t *p = realloc(h->hash, cap * h->column_n * sizeof *p);
        if (!p) {
            snprintf(why, size, "out of memory for %" PRIu64 " frames", cap);
            return false;
        }
        h->hash = p;
        h->cap = cap;
    }
    uint64_t *row = h->hash + h->frames * h->column_n;
    for (uint32_t c = 0; c < h->column_n; c++) {
        const char *w = words[c + 1u];
        row[c] = 0;
        bool start = h->frames == 0; /* no system ran yet: "-" */
        if (start && c > 0 && strcmp(w, "-") == 0) continue;
        if (!parse_hash(w, &row[c])) {
            snprintf(why, size, "line %" PRIu64 ": %s hash '%.24s' is not %u lowercase "
                     "hexadecimal digits%s", line_no, h->column[c], w, HASH_DIGITS,
                     start && c > 0 ? " or -" : "");
            return false;
        }
    }
    h->frames++;
    return true;
}

/* "end N", N the last frame. */
static bool parse_end(const hashes_file *h, const char *line, uint64_t line_no, char *why,
                      size_t size)
{
    uint64_t last;
    uint64_t end = h->first + h->frames;
    if (!parse_frame(line + 4, &last) || h->frames == 0 || last != end - 1u) {
        snprintf(why, size, "line %" PRIu64 ": '%.40s' where 'end %" PRIu64 "' (the last frame) "
                 "was due", line_no, line, h->frames ? end - 1u : 0u);
        return false;
    }
    return true;
}

/* Checks every line of text[0..size); false after writing what is wrong
 * to why. */
static bool read_lines(hashes_file *h, char *text, size_t size, char *why, size_t why_size)
{
    uint64_t line_no = 0;
    bool ok = true, ended = false;
    size_t at = 0, len;
    for (char *line; ok && (line = app_next_line(text, size, &at, &len));) {
        line_no++;
        if (ended) {
            snprintf(why, why_size, "line %" PRIu64 ": more after the end line", line_no);
            ok = false;
        } else if (line[len - 1] != '\n') {
            snprintf(why, why_size, "line %" PRIu64 ": cut short (no end of line)", line_no);
            ok = false;
        } else if (memchr(line, '\0', len)) {
            snprintf(why, why_size, "line %" PRIu64 ": holds a NUL byte: not a hashes file", line_no);
            ok = false;
        } else {
            line[len - 1] = '\0';
            if (line_no <= 2u) {
                ok = line_no == 1u ? parse_header(h, line, why, why_size)
                                   : parse_names(h, line, why, why_size);
            } else if (strncmp(line, "end ", 4) == 0) {
                ok = parse_end(h, line, line_no, why, why_size);
                ended = true;
            } else {
                ok = parse_frame_line(h, line, line_no, why, why_size);
            }
        }
    }
    if (!ok) return false;
    if (line_no == 0)
        snprintf(why, why_size, "empty: not a hashes file (particles --hashes writes them)");
    else if (line_no < 3u || h->frames == 0)
        snprintf(why, why_size, "cut short: no frames");
    else if (!ended)
        snprintf(why, why_size, "cut short: no end line after frame %" PRIu64,
                 h->first + h->frames - 1u);
    return ended;
}

/* false after one line; *stopped where a stop signal ended the reading. */
static bool load(hashes_file *h, const char *path, bool *stopped)
{
    memset(h, 0, sizeof *h);
    h->path = path;
    char why[256] = "";
    unsigned char *text;
    size_t size;
    app_read_status st = app_read_file(path, HASHES_MAX_BYTES, &text, &size, why, sizeof why);
    *stopped = st == APP_READ_STOPPED;
    if (st != APP_READ_OK) {
        if (!*stopped) app_error(PROG, "%s: %s", path, why);
        return false;
    }
    h->text = (char *)text;
    bool ok = read_lines(h, h->text, size, why, sizeof why);
    if (!ok) app_error(PROG, "%s: %s", path, why);
    return ok;
}

/* Two runs of one configuration: what decides the state alike. */
static bool comparable(const hashes_file *a, const hashes_file *b)
{
    for (size_t k = 0; k < sizeof STATE_KEYS / sizeof STATE_KEYS[0]; k++) {
        const char *va = value_of(a, STATE_KEYS[k]), *vb = value_of(b, STATE_KEYS[k]);
        if (strcmp(va, vb) == 0) continue;
        app_error(PROG, "%s: %s=%s where %s has %s=%s: runs of other seeds, entities, worlds or "
                  "systems are not compared", b->path, STATE_KEYS[k], vb, a->path, STATE_KEYS[k], va);
        return false;
    }
    return true;
}

/* Whether both files hash the same systems in the same order. */
static bool same_systems(const hashes_file *a, const hashes_file *b)
{
    if (a->column_n != b->column_n || a->column_n < 2u) return false;
    for (uint32_t c = 1; c < a->column_n; c++)
        if (strcmp(a->column[c], b->column[c]) != 0) return false;
    return true;
}

/* Frame f's hashes in h (f within its frames). */
static const uint64_t *row_of(const hashes_file *h, uint64_t f)
{
    return h->hash + (f - h->first) * h->column_n;
}

/* Frame f differs: says where, and which system first (when both hash
 * the same systems and ran them before f). */
static void report(const hashes_file *a, const hashes_file *b, uint64_t f, bool systems)
{
    const uint64_t *ra = row_of(a, f), *rb = row_of(b, f);
    printf("differ from frame %" PRIu64 "%s: state %016" PRIx64 " in %s, %016" PRIx64 " in %s\n",
           f, f == 0 ? " (the spawned state, before the first step)" : "", ra[0], a->path, rb[0],
           b->path);
    if (f == a->first || f == b->first) return; /* no system ran yet in one of them */
    if (!systems) {
        if (a->column_n > 1u && b->column_n > 1u)
            printf("the files hash different systems: no system named\n");
        else if (a->column_n > 1u || b->column_n > 1u)
            printf("only %s has the systems' hashes: write both with --hashes-systems to name "
                   "the first system that differs\n", a->column_n > 1u ? a->path : b->path);
        else
            printf("write both with --hashes-systems to name the first system that differs\n");
        return;
    }
    for (uint32_t c = 1; c < a->column_n; c++)
        if (ra[c] != rb[c]) {
            printf("first system: %s (what it wrote differs; the systems before it agree)\n",
                   a->column[c]);
            return;
        }
    printf("every system wrote the same at frame %" PRIu64 ": the difference came from outside "
           "them (sprays, a new wave)\n", f);
}

/* 0 identical, 1 they differ, over the frames both hold (a run resumed
 * from a snapshot starts at the snapshot's frame). */
static int compare(const hashes_file *a, const hashes_file *b)
{
    bool systems = same_systems(a, b);
    uint64_t a_end = a->first + a->frames, b_end = b->first + b->frames;
    uint64_t lo = a->first > b->first ? a->first : b->first;
    uint64_t hi = a_end < b_end ? a_end : b_end;
    if (lo >= hi) {
        printf("no frame in common: %s holds frames %" PRIu64 " to %" PRIu64 ", %s frames %" PRIu64
               " to %" PRIu64 "\n", a->path, a->first, a_end - 1u, b->path, b->first, b_end - 1u);
        return 1;
    }
    for (uint64_t f = lo; f < hi; f++) {
        const uint64_t *ra = row_of(a, f), *rb = row_of(b, f);
        /* A file's first row has no system hashes: only the state there. */
        uint32_t cols = systems && f != a->first && f != b->first ? a->column_n : 1u;
        for (uint32_t c = 0; c < cols; c++)
            if (ra[c] != rb[c]) {
                report(a, b, f, systems);
                return 1;
            }
    }
    if (a_end != b_end) {
        printf("differ in length: %s holds frames %" PRIu64 " to %" PRIu64 ", %s frames %" PRIu64
               " to %" PRIu64 " (frames %" PRIu64 " to %" PRIu64 " agree)\n", a->path, a->first,
               a_end - 1u, b->path, b->first, b_end - 1u, lo, hi - 1u);
        return 1;
    }
    uint64_t n = hi - lo - 1u; /* steps compared */
    printf("identical (%" PRIu64 " frame%s%s)", n, n == 1u ? "" : "s",
           systems ? ", each system's writes too" : "");
    if (a->first != b->first) /* one resumed from a snapshot */
        printf(": frames %" PRIu64 " to %" PRIu64 ", where %s starts", lo, hi - 1u,
               a->first > b->first ? a->path : b->path);
    printf("\n");
    return 0;
}

void diff_usage(FILE *f)
{
    fputs("usage: particles diff A B\n"
          "Compares two files written by --hashes (particles bench or the window):\n"
          "the state hash of the spawned state (frame 0) and after every frame and,\n"
          "where both were written with --hashes-systems, the hash of what each\n"
          "system wrote. Prints 'identical (N frames)', or the first frame at which\n"
          "they differ and, with the systems' hashes, the first system (in the order\n"
          "they ran) whose writes differ there. A run resumed from a snapshot\n"
          "(--load-state) starts at the snapshot's frame: the frames both files hold\n"
          "are compared.\n"
          "\n"
          "Runs are compared only where what decides the state is the same: seed,\n"
          "entities, world and systems (line 1 of each file); threads, inner\n"
          "parallelism, storage, layout, kernel and loops may differ, which is\n"
          "what the comparison is for.\n"
          "\n"
          "Exit status: 0 identical; 1 they differ (at a frame, or in length); 2 bad\n"
          "input: an option, a file that cannot be read, is not a hashes file, is\n"
          "cut short or damaged, or runs of other seeds or configurations (one line\n"
          "names the file and what is wrong); 128+N stopped by signal N (SIGINT,\n"
          "SIGTERM, SIGHUP) while a FIFO waits for its writer.\n",
          f);
}

static bool is_help(const char *arg) { return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0; }

int diff_main(int argc, char **argv)
{
    if (argc == 2 && is_help(argv[1])) return app_print_to_stdout(PROG, diff_usage);
    for (int i = 1; i < argc; i++)
        if (argv[i][0] == '-' && argv[i][1] != '\0') {
            app_error(PROG, "unknown option '%s'; it takes two files, A and B (try 'particles "
                      "diff --help')", argv[i]);
            return 2;
        }
    if (argc != 3) {
        app_error(PROG, "give two files, A and B, written by --hashes; got %d (try 'particles "
                  "diff --help')", argc - 1);
        return 2;
    }
    hashes_file a, b;
    memset(&b, 0, sizeof b);
    int rc = 2;
    bool stopped = false;
    /* A FIFO among A and B waits for its writer: a stop signal ends it. */
    app_stop_install();
    if (load(&a, argv[1], &stopped) && load(&b, argv[2], &stopped) && comparable(&a, &b)) {
        rc = compare(&a, &b);
        int out = app_stdout_finish(PROG);
        if (out != 0) rc = out;
    }
    file_free(&a);
    file_free(&b);
    return stopped ? app_stop_status() : rc;
}
