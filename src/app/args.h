/* args.h - the pieces of a command line that know nothing of the
 * simulation: one-line errors, numbers as people type them, words, file
 * names, and the nearest name to a slip of the keyboard. Shared by the
 * modes of `particles` (options.h). */
#ifndef APP_ARGS_H
#define APP_ARGS_H

#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* printf-style checking of a function's format and arguments (gcc,
 * clang); with mingw-w64 against its C99 printf (__USE_MINGW_ANSI_STDIO),
 * not msvcrt's. */
#if defined(__MINGW_PRINTF_FORMAT)
#define APP_PRINTF(f, a) __attribute__((format(__MINGW_PRINTF_FORMAT, f, a)))
#elif defined(__GNUC__)
#define APP_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define APP_PRINTF(f, a)
#endif

/* Who reads a command line: the functions below name it in their
 * messages. */
typedef struct app_mode_cli {
    const char *prog; /* "particles bench": prefixes every message */
} app_mode_cli;

/* s[0..len) as plain decimal digits in [lo, hi] and nothing else (no
 * sign, space or suffix), for the parts of sizes like WxH; prints nothing. */
bool app_scan_u32(const char *s, size_t len, uint32_t lo, uint32_t hi, uint32_t *out);

/* What app_scan_count found. */
typedef enum app_count_status {
    APP_COUNT_OK,
    APP_COUNT_FORM,     /* not one of the forms below */
    APP_COUNT_FRACTION, /* a form, but not a whole number: 1.2345k */
    APP_COUNT_RANGE     /* a whole number outside [lo, hi] (or past 64 bits) */
} app_count_status;

/* s[0..len) as a count in [lo, hi], in the forms people type: digits
 * (200000), with single '_' between digits (200_000), a decimal point
 * (1.5k), then either a k/K (10^3), M (10^6) or G (10^9) suffix or a
 * power of ten eN/EN (2e5, 1.5E6), N of one or two digits. The value must
 * be a whole number exactly. No sign, space or comma. Prints nothing. */
app_count_status app_scan_count(const char *s, size_t len, uint32_t lo, uint32_t hi,
                                uint32_t *out);

#define APP_NAME_MAX 64u /* longest name app_edit_distance compares */

/* The edit distance (insert, delete, substitute, swap two neighbours)
 * between a[0..n) and the string b; names longer than APP_NAME_MAX count
 * as wholly different. */
size_t app_edit_distance(const char *a, size_t n, const char *b);
/* Of names[0..n), the nearest to typed[0..len) that is close enough to be
 * a slip of the keyboard (at most 1 edit for names up to 4 letters, 2 up
 * to 8, 3 beyond, and fewer edits than typed has letters); the first of
 * equals; NULL if none is. */
const char *app_nearest(const char *typed, size_t len, const char *const *names, size_t n);
/* Of the options all (NULL-terminated), the one nearest to the unknown
 * "--name" or "--name=value" elem (app_nearest), or NULL. */
const char *app_nearest_option(const struct option *all, const char *elem);

/* Helpers for a mode's own flags; each prints one line on failure:
 * "<prog>: <flag>: '<value>' is not ...". Numbers are read by
 * app_scan_count. */
bool app_parse_u32(const app_mode_cli *cli, const char *flag, const char *arg, uint32_t lo,
                   uint32_t hi, uint32_t *out);
/* The same for the item s[0..len) of a list. */
bool app_parse_u32_span(const app_mode_cli *cli, const char *flag, const char *s, size_t len,
                        uint32_t lo, uint32_t hi, uint32_t *out);
/* One of words[0..n), its index in *out. */
bool app_parse_word(const app_mode_cli *cli, const char *flag, const char *arg,
                    const char *const *words, uint32_t n, uint32_t *out);
bool app_parse_word_span(const app_mode_cli *cli, const char *flag, const char *s, size_t len,
                         const char *const *words, uint32_t n, uint32_t *out);

/* Whether s holds a control character (a byte below 0x20, or 0x7f). */
bool app_has_control(const char *s);
/* s into buf[0..size) (cut to fit, always terminated) with its control
 * characters written as \n, \r, \t or \xHH, so that a value read from a
 * file or the command line prints as one line and sends no escape code to
 * a terminal. Returns buf. */
const char *app_escape(char *buf, size_t size, const char *s);
/* s[0..n) written to f as app_escape writes it. */
void app_put_escaped(FILE *f, const char *s, size_t n);

/* One line on stderr: "<prog>: <message>", control characters escaped
 * (app_escape). */
void app_verror(const char *prog, const char *fmt, va_list ap) APP_PRINTF(2, 0);
void app_error(const char *prog, const char *fmt, ...) APP_PRINTF(2, 3);

#endif /* APP_ARGS_H */
