/* record_internal.h - what record.c (the writer) and replay.c (the
 * reader) share of the recording's format. */
#ifndef APP_RECORD_INTERNAL_H
#define APP_RECORD_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "record.h"

/* The first word of a recording's first line; the version follows. */
#define APP_RECORD_MAGIC "particles-recording"

/* The words of a switch, by its value. */
extern const char *const APP_ON_OFF[2];

/* How many values each app_param takes (APP_PARAM_NAMES its words). */
extern const int APP_PARAM_VALUES[APP_PARAM_COUNT];

/* Puts a PARAM input's values where they are kept: p's fields, or, for
 * the particles, *wave_size. */
void app_param_put(const app_input *in, sim_params *p, uint32_t *wave_size);

/* The POSIX cksum of a byte stream: crc starts at 0, app_cksum_add takes
 * the bytes in order, app_cksum_end the count and gives what `cksum`
 * prints. */
uint32_t app_cksum_add(uint32_t crc, const void *p, size_t n);
uint32_t app_cksum_end(uint32_t crc, uint64_t bytes);

#endif /* APP_RECORD_INTERNAL_H */
