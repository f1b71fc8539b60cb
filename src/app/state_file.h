/* state_file.h - snapshot files (--save-state, --load-state): the bytes
 * sim_save_state makes, written through out.h (replaced whole or not at
 * all), and a file read whole and checked before any world is made. */
#ifndef APP_STATE_FILE_H
#define APP_STATE_FILE_H

#include <stddef.h>

#include "options.h"
#include "out.h"
#include "sim.h"

/* --load-state with a flag whose value the snapshot holds (--entities,
 * --seed, --world): false after one line naming both. */
bool app_state_check_options(const char *prog, const app_options *o);

/* A snapshot file read whole into memory. */
typedef struct app_state_file {
    unsigned char *bytes;
    size_t size;
    sim_state_info info;
} app_state_file;

/* Reads and checks path (--load-state). Returns 0, 2 after one line
 * "<prog>: --load-state PATH: what is wrong" (it cannot be read, is larger
 * than a snapshot can be or than memory holds; truncated, damaged, not a
 * snapshot, a newer version, values out of range), or app_stop_status
 * when a stop signal ended the reading (a FIFO waiting for its writer). */
int app_state_read(const char *prog, const char *path, app_state_file *out);
void app_state_free(app_state_file *f);
/* cfg's params and particles as f's snapshot makes them: its parameters,
 * and a particle for each of its entity slots or each particle of a new
 * wave, whichever is more (what app_mem_check measures). */
void app_state_size(const app_state_file *f, sim_config *cfg);

/* Writes w's snapshot to o, staged for --save-state (o's flag names it):
 * begun, written and ended, for the caller to commit. Returns 0, or 1
 * after one line naming the flag and the file. */
int app_state_write(app_out *o, const sim_world *w);

#endif /* APP_STATE_FILE_H */
