/* stop.c - the stop request set by SIGINT, SIGTERM and SIGHUP; on
 * Windows by the console's Ctrl+C (SIGINT) and Ctrl+Break, close, log-off
 * and shut-down events (SIGTERM). */
#include "stop.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#else
#include <pthread.h>
#include <sys/select.h>
#endif

/* The signal that asked to stop (0: none yet), with PUTTING added while
 * app_stop_unless puts a result in place. One atomic word, so that the
 * handler, on whichever thread the signal lands, and app_stop_unless agree
 * on which came first. */
#define PUTTING 0x10000
static atomic_int stop_state;

static void on_signal(int sig)
{
    int s = atomic_load(&stop_state);
    while (!(s & ~PUTTING) && !atomic_compare_exchange_weak(&stop_state, &s, s | sig)) {
    }
}

#if defined(_WIN32)

/* Runs on a thread of its own that the system starts for the event. */
static BOOL WINAPI on_console(DWORD event)
{
    on_signal(event == CTRL_C_EVENT ? SIGINT : SIGTERM);
    return TRUE; /* handled: the program stops at its next check */
}

void app_stop_install(void) { SetConsoleCtrlHandler(on_console, TRUE); }

#else

/* The signals that ask to stop. */
static const int stop_sigs[] = {SIGINT, SIGTERM, SIGHUP};
#define STOP_SIG_COUNT (sizeof stop_sigs / sizeof stop_sigs[0])

static void stop_signals(sigset_t *set)
{
    sigemptyset(set);
    for (unsigned i = 0; i < STOP_SIG_COUNT; i++) sigaddset(set, stop_sigs[i]);
}

void app_stop_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (unsigned i = 0; i < STOP_SIG_COUNT; i++) sigaction(stop_sigs[i], &sa, NULL);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
}

#endif

int app_stop_signal(void) { return atomic_load(&stop_state) & ~PUTTING; }

int app_stop_status(void) { return 128 + app_stop_signal(); }

int app_stop_unless(int (*put)(void *ctx), void *ctx)
{
    int idle = 0;
    if (!atomic_compare_exchange_strong(&stop_state, &idle, PUTTING)) return -1;
    int rc = put(ctx);
    atomic_fetch_and(&stop_state, ~PUTTING);
    return rc;
}

#if defined(_WIN32)

/* Windows has no FIFOs: a file or pipe read as it is. */
ssize_t app_stop_read(int fd, void *buf, size_t size)
{
    if (app_stop_signal()) {
        errno = EINTR;
        return -1;
    }
    return read(fd, buf, size > INT_MAX ? INT_MAX : (unsigned)size);
}

#else

ssize_t app_stop_read(int fd, void *buf, size_t size)
{
    sigset_t stop, old;
    stop_signals(&stop);
    for (;;) {
        /* Blocked from the check to the wait, which unblocks them: a
         * signal that comes in between ends the wait instead of being
         * missed by it. */
        pthread_sigmask(SIG_BLOCK, &stop, &old);
        if (app_stop_signal()) {
            pthread_sigmask(SIG_SETMASK, &old, NULL);
            errno = EINTR;
            return -1;
        }
        fd_set in;
        FD_ZERO(&in);
        if (fd < FD_SETSIZE) FD_SET(fd, &in);
        int r = fd < FD_SETSIZE ? pselect(fd + 1, &in, NULL, NULL, NULL, &old) : 1;
        int err = errno;
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        if (r < 0 && err != EINTR) {
            errno = err;
            return -1;
        }
        if (r <= 0) continue; /* a signal: checked above */
        ssize_t n = read(fd, buf, size);
        if (n >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) return n;
    }
}

#endif
