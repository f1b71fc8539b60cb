/* window.h - the window mode: `particles`, `particles run`. */
#ifndef WINDOW_H
#define WINDOW_H

/* argv[0] is "run", or the program when no mode was given (then argv[1..]
 * are options). Returns the exit status: 0 done, 1 no display, no OpenGL
 * 3.3, or a missing or broken shader or font, 2 bad input. */
int window_main(int argc, char **argv);

#endif /* WINDOW_H */
