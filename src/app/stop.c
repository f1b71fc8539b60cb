/* stop.c - the stop request set by SIGINT, SIGTERM and SIGHUP. */
#include "stop.h"

#include <signal.h>
#include <stdatomic.h>
#include <string.h>

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

void app_stop_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (unsigned i = 0; i < sizeof sigs / sizeof sigs[0]; i++) sigaction(sigs[i], &sa, NULL);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
}

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
