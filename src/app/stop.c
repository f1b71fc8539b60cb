/* stop.c - the stop request set by SIGINT, SIGTERM and SIGHUP. */
#include "stop.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
    if (!stop_signal) stop_signal = sig;
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

int app_stop_signal(void) { return stop_signal; }

int app_stop_status(void) { return 128 + stop_signal; }
