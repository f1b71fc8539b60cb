/* out.h - every file the program writes (the bench's CSV, JSON and chart,
 * the window's screenshots) goes through here.
 *
 * A target is classified when it is staged, before anything runs:
 * - "-" is standard output (where the caller allows it);
 * - a symbolic link is followed: the file it names is the target, the link
 *   stays;
 * - a target that exists and is not a regular file (a FIFO, a character
 *   device, /dev/stdout) is written directly, never replaced;
 * - a regular file, or a name that does not exist yet, is replaced
 *   atomically: the content goes to a temporary created by mkstemp in the
 *   target's directory (O_EXCL: no predictable name, never through a
 *   link), which takes the target's mode and is renamed over it on commit.
 * Nothing else is created, replaced or removed.
 *
 * On Windows (out.c's system section says how): a link is followed where
 * the file it names exists; the temporary gets the directory's
 * permissions (Windows has no file mode to copy), and MoveFileEx puts it
 * in place; there are no sticky directories. */
#ifndef APP_OUT_H
#define APP_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Which file a name or descriptor reaches: device and inode on POSIX,
 * volume serial number and file index on Windows. */
typedef struct app_file_id {
    uint64_t dev, ino;
} app_file_id;

typedef enum app_out_kind {
    APP_OUT_NONE = 0, /* not requested */
    APP_OUT_STDOUT,   /* "-" */
    APP_OUT_DIRECT,   /* an existing FIFO or device: written in place */
    APP_OUT_REPLACE   /* a regular file, new or replaced through a temporary */
} app_out_kind;

/* app_out_stage's options. */
enum {
    APP_OUT_ALLOW_STDOUT = 1u << 0, /* "-" means standard output */
    APP_OUT_NEW_ONLY = 1u << 1      /* never replace: commit fails if the name exists */
};

typedef struct app_out {
    const char *prog;   /* prefixes every message */
    const char *flag;   /* "--csv": names the output in messages */
    const char *path;   /* as the user gave it */
    app_out_kind kind;
    unsigned options;
    char *target;       /* DIRECT, REPLACE: path with its links followed */
    char *tmp;          /* REPLACE: the temporary while staged */
    int fd;             /* REPLACE: the temporary's, until written; else -1 */
    bool exists;        /* the target existed when staged: id is its */
    app_file_id id;
    char *resolved;     /* where it does not exist: its canonical path */
    bool pipe_closed;   /* STDOUT: the reader went away while writing */
} app_out;

/* Classifies and checks path for flag (NULL path: not requested, returns
 * 0); REPLACE creates its temporary here. Returns 0, or 2 after printing
 * one line naming the flag and the file: a name with a control character
 * (a line break, an escape code), a directory, not writable, another
 * user's file in a sticky directory (not replaceable there), a missing
 * directory, "-" where it is not allowed, a link loop. */
int app_out_stage(app_out *o, const char *prog, const char *flag, const char *path,
                  unsigned options);

/* Whether two staged outputs write the same file (device and inode where
 * it exists, canonical path where it does not; "-" and /dev/stdout alike). */
bool app_out_same(const app_out *a, const app_out *b);
/* 0, or 2 after printing that the two flags name the same file. */
int app_out_check_pair(const app_out *a, const app_out *b);
/* app_out_check_pair over every pair of outs[0..n). */
int app_out_check_distinct(const app_out *outs, size_t n);
/* 0, or 2 after naming both flags, when one of outs[0..n) would replace
 * the existing file at path, which flag reads (a missing or unreadable
 * one is left to its reader to report). */
int app_out_check_input(const app_out *outs, size_t n, const char *flag, const char *path);

/* The stream to write the content to (the temporary, the FIFO or device,
 * standard output). NULL after printing why not. */
FILE *app_out_begin(app_out *o);
/* Ends what app_out_begin started: flushes (and syncs a temporary),
 * closes all but standard output. Returns 0, or 1 after printing why not;
 * a reader that went away from standard output is not an error here: it
 * sets pipe_closed. */
int app_out_end(app_out *o, FILE *f);

/* REPLACE: renames the temporary over the target (NEW_ONLY: links it to
 * the name, which must not exist). Returns 0, or 1 after printing why not. */
int app_out_commit(app_out *o);
/* Commits outs[0..n) (n <= APP_OUT_COMMIT_MAX) in order, all or none:
 * where one fails, those before it get their old content back (a file
 * that did not exist is removed again). Each replaced file is kept as a
 * hard link beside it until the end. Returns 0, or 1 after printing why. */
#define APP_OUT_COMMIT_MAX 8
int app_out_commit_all(app_out *outs, size_t n);
/* Removes the temporary if still there (says so where it cannot) and frees everything; safe twice. */
void app_out_discard(app_out *o);

/* Records at start-up whether file descriptors 0, 1 and 2 were open, and
 * fills the closed ones with /dev/null so that no file the program opens
 * later takes their place. Call first thing in main. */
void app_std_fds_guard(void);
/* Whether standard output was closed when the program started (>&-). */
bool app_stdout_was_closed(void);
/* Flushes standard output: 0, 141 (128 + SIGPIPE: the reader went away),
 * or 1 after printing why it failed (a full disk). */
int app_stdout_finish(const char *prog);

/* print(stdout) for --help and --version: 2 after saying so where standard
 * output was closed at start-up, else what app_stdout_finish returns. */
int app_print_to_stdout(const char *prog, void (*print)(FILE *f));

#endif /* APP_OUT_H */
