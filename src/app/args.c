/* args.c - the pieces of a command line that know nothing of the
 * simulation: one-line errors, numbers as people type them, words, file
 * names, and the nearest name to a slip of the keyboard. */
#include "args.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most option names app_nearest_option compares. */
#define NAMES_MAX 64u

bool app_has_control(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f) return true;
    return false;
}

/* c as app_escape writes it, into out (at most 4 characters and a NUL). */
static void escape_char(unsigned char c, char out[5])
{
    const char *named = c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : NULL;
    if (named)
        snprintf(out, 5, "%s", named);
    else if (c < 0x20 || c == 0x7f)
        snprintf(out, 5, "\\x%02x", (unsigned)c);
    else
        snprintf(out, 5, "%c", c);
}

const char *app_escape(char *buf, size_t size, const char *s)
{
    size_t used = 0;
    if (size == 0) return buf;
    buf[0] = '\0';
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char e[5];
        escape_char(*p, e);
        size_t n = strlen(e);
        if (used + n >= size) break;
        memcpy(buf + used, e, n + 1);
        used += n;
    }
    return buf;
}

void app_put_escaped(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char e[5];
        escape_char((unsigned char)s[i], e);
        fputs(e, f);
    }
}

void app_verror(const char *prog, const char *fmt, va_list ap)
{
    char small[512];
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n < 0) small[0] = '\0';
    char *msg = n >= 0 && (size_t)n >= sizeof small ? malloc((size_t)n + 1u) : NULL;
    if (msg) vsnprintf(msg, (size_t)n + 1u, fmt, again);
    va_end(again);
    const char *text = msg ? msg : small; /* out of memory: the message cut short */
    fprintf(stderr, "%s: ", prog);
    app_put_escaped(stderr, text, strlen(text));
    fputc('\n', stderr);
    free(msg);
}

void app_error(const char *prog, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    app_verror(prog, fmt, ap);
    va_end(ap);
}

/* ---- values --------------------------------------------------------------- */

bool app_scan_u32(const char *s, size_t len, uint32_t lo, uint32_t hi, uint32_t *out)
{
    char buf[24];
    if (len == 0 || len >= sizeof buf) return false;
    for (size_t i = 0; i < len; i++)
        if (s[i] < '0' || s[i] > '9') return false;
    memcpy(buf, s, len);
    buf[len] = '\0';
    errno = 0;
    unsigned long long v = strtoull(buf, NULL, 10);
    if (errno != 0 || v < lo || v > hi) return false;
    *out = (uint32_t)v;
    return true;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* The power of ten a count's tail stands for: "" 0, "k"/"K" 3, "M" 6,
 * "G" 9, "eN"/"EN" N (one or two digits); -1 for anything else. */
static int count_scale(const char *t, size_t len)
{
    if (len == 0) return 0;
    if (len == 1) {
        switch (t[0]) {
        case 'k': case 'K': return 3;
        case 'M': return 6;
        case 'G': return 9;
        default: return -1;
        }
    }
    if ((t[0] != 'e' && t[0] != 'E') || len > 3 || !is_digit(t[1])) return -1;
    if (len == 3 && !is_digit(t[2])) return -1;
    return len == 2 ? t[1] - '0' : (t[1] - '0') * 10 + (t[2] - '0');
}

app_count_status app_scan_count(const char *s, size_t len, uint32_t lo, uint32_t hi,
                                uint32_t *out)
{
    uint64_t v = 0;
    bool huge = false, digit = false;
    int frac = -1; /* digits after the point; -1: no point */
    /* Zeros after the point not yet followed by another digit: kept out of
     * v, so that trailing zeros ("1.50000000000000000000k") never make it
     * overflow; they count only once a digit after them does. */
    int zeros = 0;
    size_t i = 0;
    for (; i < len; i++) {
        char c = s[i];
        bool next_digit = i + 1 < len && is_digit(s[i + 1]);
        if (c == '0' && frac >= 0) {
            zeros++;
            digit = true;
        } else if (is_digit(c)) {
            for (; zeros >= 0; zeros--) {
                uint64_t d = zeros ? 0u : (uint64_t)(c - '0');
                if (v > (UINT64_MAX - 9u) / 10u) huge = true;
                else v = v * 10u + d;
                frac += frac >= 0;
            }
            zeros = 0;
            digit = true;
        } else if ((c == '_' || (c == '.' && frac < 0)) && digit && next_digit) {
            if (c == '.') frac = 0;
            digit = false;
        } else {
            break;
        }
    }
    int scale = count_scale(s + i, len - i);
    if (i == 0 || scale < 0) return APP_COUNT_FORM;
    if (huge) return APP_COUNT_RANGE;
    for (int e = scale - (frac > 0 ? frac : 0); e < 0; e++) {
        if (v % 10u) return APP_COUNT_FRACTION;
        v /= 10u;
    }
    for (int e = scale - (frac > 0 ? frac : 0); e > 0; e--) {
        if (v > hi) return APP_COUNT_RANGE; /* also keeps v * 10 within 64 bits */
        v *= 10u;
    }
    if (v < lo || v > hi) return APP_COUNT_RANGE;
    *out = (uint32_t)v;
    return APP_COUNT_OK;
}

#define COUNT_FORMS "digits (200000), with _ between digits (200_000), a k, M or G " \
                    "suffix (200k, 1.5M) or a power of ten (2e5)"

bool app_parse_u32_span(const app_mode_cli *cli, const char *flag, const char *s, size_t len,
                        uint32_t lo, uint32_t hi, uint32_t *out)
{
    switch (app_scan_count(s, len, lo, hi, out)) {
    case APP_COUNT_OK: return true;
    case APP_COUNT_RANGE:
        app_error(cli->prog, "%s: '%.*s' is out of range: a whole number from %u to %u", flag,
                  (int)len, s, (unsigned)lo, (unsigned)hi);
        return false;
    case APP_COUNT_FRACTION:
        app_error(cli->prog, "%s: '%.*s' is not a whole number", flag, (int)len, s);
        return false;
    case APP_COUNT_FORM: break;
    }
    app_error(cli->prog, "%s: '%.*s' is not a whole number from %u to %u: give " COUNT_FORMS,
              flag, (int)len, s, (unsigned)lo, (unsigned)hi);
    return false;
}

bool app_parse_u32(const app_mode_cli *cli, const char *flag, const char *arg, uint32_t lo,
                   uint32_t hi, uint32_t *out)
{
    return app_parse_u32_span(cli, flag, arg, strlen(arg), lo, hi, out);
}

static int find_word(const char *s, size_t len, const char *const *words, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (strlen(words[i]) == len && strncmp(s, words[i], len) == 0) return (int)i;
    return -1;
}

bool app_parse_word_span(const app_mode_cli *cli, const char *flag, const char *s, size_t len,
                         const char *const *words, uint32_t n, uint32_t *out)
{
    int i = find_word(s, len, words, n);
    if (i >= 0) {
        *out = (uint32_t)i;
        return true;
    }
    char all[160] = "";
    for (uint32_t k = 0; k < n; k++) {
        size_t used = strlen(all);
        snprintf(all + used, sizeof all - used, "%s%s", k ? ", " : "", words[k]);
    }
    app_error(cli->prog, "%s: '%.*s' is not one of %s", flag, (int)len, s, all);
    return false;
}

bool app_parse_word(const app_mode_cli *cli, const char *flag, const char *arg,
                    const char *const *words, uint32_t n, uint32_t *out)
{
    return app_parse_word_span(cli, flag, arg, strlen(arg), words, n, out);
}

/* ---- suggestions ---------------------------------------------------------- */

size_t app_edit_distance(const char *a, size_t n, const char *b)
{
    /* Optimal string alignment: insertions, deletions, substitutions and
     * swaps of two neighbours each cost 1; rows i - 2, i - 1 and i. */
    size_t m = strlen(b);
    if (n > APP_NAME_MAX || m > APP_NAME_MAX) return n > m ? n : m;
    size_t row[3][APP_NAME_MAX + 1];
    for (size_t j = 0; j <= m; j++) row[0][j] = j;
    for (size_t i = 1; i <= n; i++) {
        size_t *cur = row[i % 3], *up = row[(i - 1) % 3], *up2 = row[(i + 1) % 3];
        cur[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t best = up[j - 1] + (a[i - 1] != b[j - 1]);
            if (up[j] + 1 < best) best = up[j] + 1;
            if (cur[j - 1] + 1 < best) best = cur[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                up2[j - 2] + 1 < best)
                best = up2[j - 2] + 1;
            cur[j] = best;
        }
    }
    return row[n % 3][m];
}

const char *app_nearest(const char *typed, size_t len, const char *const *names, size_t n)
{
    const char *best = NULL;
    size_t best_d = 0;
    for (size_t i = 0; i < n; i++) {
        size_t d = app_edit_distance(typed, len, names[i]), k = strlen(names[i]);
        size_t allowed = k <= 4 ? 1u : k <= 8 ? 2u : 3u; /* a slip, not another word */
        if (d > allowed || d >= len || (best && d >= best_d)) continue;
        best = names[i];
        best_d = d;
    }
    return best;
}

const char *app_nearest_option(const struct option *all, const char *elem)
{
    const char *names[NAMES_MAX];
    size_t n = 0;
    for (const struct option *o = all; o->name && n < sizeof names / sizeof names[0]; o++)
        names[n++] = o->name;
    const char *name = strncmp(elem, "--", 2) == 0 ? elem + 2 : elem;
    return app_nearest(name, strcspn(name, "="), names, n);
}
