/* stop.h - SIGINT, SIGTERM and SIGHUP as a request to stop: the handler
 * only records the signal; the running mode checks app_stop_signal between
 * frames, removes its temporaries, leaves existing files as they were and
 * exits with app_stop_status. SIGPIPE is ignored, so that a reader going
 * away shows up as EPIPE on a write (see app_stdout_finish). On Windows
 * the console's events ask the same: Ctrl+C as SIGINT, the others
 * (Ctrl+Break, closing the console, logging off) as SIGTERM. */
#ifndef APP_STOP_H
#define APP_STOP_H

#include <stddef.h>
#include <sys/types.h>

/* Installs the handlers (sigaction, no SA_RESTART: a blocking open of a
 * FIFO or a wait for gnuplot returns EINTR) and ignores SIGPIPE. */
void app_stop_install(void);
/* The signal that asked to stop, or 0. */
int app_stop_signal(void);
/* 128 + that signal: the exit status of a stopped run. */
int app_stop_status(void);
/* Runs put(ctx), the step that puts a result in place (renames a file over
 * the old one), unless a stop signal has arrived: returns -1 without
 * running it where one came first (the old file stays), else what put
 * returns. A signal that comes while put runs is recorded as usual. */
int app_stop_unless(int (*put)(void *ctx), void *ctx);

/* read(2) of fd that waits for data, or for a stop signal: returns what
 * read returns, or -1 with errno EINTR once a stop signal has come. Open
 * fd with O_NONBLOCK (then opening a FIFO does not wait for its writer:
 * this waits instead). For the main thread while no other runs: the
 * signal must land on the waiting thread to end the wait. */
ssize_t app_stop_read(int fd, void *buf, size_t size);

#endif /* APP_STOP_H */
