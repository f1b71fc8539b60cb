/* diff.h - `particles diff A B`: the first frame, and the first system
 * where the files have them, at which two --hashes files (hashes.h)
 * differ. */
#ifndef APP_DIFF_H
#define APP_DIFF_H

#include <stdio.h>

/* argv[0] is "diff". Exit status: 0 identical, 1 they differ, 2 bad
 * input (an option, a file that cannot be read or is no hashes file, two
 * runs of different configurations), each after one line naming it. */
int diff_main(int argc, char **argv);
void diff_usage(FILE *f);

#endif /* APP_DIFF_H */
