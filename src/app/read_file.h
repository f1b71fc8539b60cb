/* read_file.h - a named input file (a snapshot, a recording, a hashes
 * file, a bench JSON, a shader, the font) read whole into memory. The one
 * place that opens and reads one: a FIFO whose writer never comes waits
 * without holding up a stop signal (stop.h), and a file past its limit
 * or past the memory there is ends the reading with one reason. */
#ifndef APP_READ_FILE_H
#define APP_READ_FILE_H

#include <stddef.h>
#include <stdint.h>

/* What app_read_file ended with. */
typedef enum app_read_status {
    APP_READ_OK = 0,
    APP_READ_FAILED, /* why says: cannot be read (errno's text), larger than
                      * the limit (named), out of memory past N bytes */
    APP_READ_STOPPED /* a stop signal came before or during the reading */
} app_read_status;

/* Reads path whole into *bytes (malloc'd, exactly *size + 1 bytes, a NUL
 * after the content), at most max bytes. On failure nothing is kept and
 * why (why_size bytes) holds the reason, without the path: the caller
 * names the flag and the file. A stop signal that came before the call or
 * comes while it waits ends it with APP_READ_STOPPED and no message: the
 * caller exits with app_stop_status. */
app_read_status app_read_file(const char *path, uint64_t max, unsigned char **bytes,
                              size_t *size, char *why, size_t why_size);

/* The line of text[0..size) that starts at *at, for reading a text file
 * line by line: *len its bytes up to and with its '\n' (a last line cut
 * short has none), *at moved past it. NULL at the end. */
char *app_next_line(char *text, size_t size, size_t *at, size_t *len);

#endif /* APP_READ_FILE_H */
