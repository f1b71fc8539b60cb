/* bench_msg.h - the one way `particles bench` reports a failure. */
#ifndef BENCH_MSG_H
#define BENCH_MSG_H

/* One line on stderr, prefixed "particles bench: " (app_error's). */
void bench_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#endif /* BENCH_MSG_H */
