/* bench_json.h - a small JSON reader, enough to read back what the bench
 * wrote with --json: the whole text parsed into a tree of nodes. */
#ifndef BENCH_JSON_H
#define BENCH_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BENCH_JSON_NONE UINT32_MAX /* no node */
#define BENCH_JSON_DEPTH 32u       /* arrays and objects nested at most */

typedef enum bench_json_kind {
    BENCH_JSON_NULL,
    BENCH_JSON_BOOL,
    BENCH_JSON_NUMBER,
    BENCH_JSON_STRING,
    BENCH_JSON_ARRAY,
    BENCH_JSON_OBJECT
} bench_json_kind;

typedef struct bench_json_node {
    bench_json_kind kind;
    bool boolean;
    double number;
    const char *string; /* a STRING's value, unescaped (may hold no NUL) */
    const char *key;    /* in an object: the member's name; else NULL */
    uint32_t child;     /* an ARRAY's or OBJECT's first element */
    uint32_t next;      /* the next element of the same parent */
} bench_json_node;

typedef struct bench_json {
    char *text;             /* owned: the strings point into it */
    bench_json_node *nodes; /* node 0 is the root */
    uint32_t count, cap;
} bench_json;

/* Parses text[0..len), text[len] being '\0' (taking it over: freed by
 * bench_json_free, also on failure). Returns false with *j empty and a short reason in why (with
 * the line) when it is not one JSON value or out of memory. */
bool bench_json_parse(bench_json *j, char *text, size_t len, char *why, size_t why_size);
void bench_json_free(bench_json *j);

/* The member key of an object node, or NULL (also when o is not an object). */
const bench_json_node *bench_json_get(const bench_json *j, const bench_json_node *o,
                                      const char *key);
/* An array's or object's first element, and the one after e; NULL at the end. */
const bench_json_node *bench_json_first(const bench_json *j, const bench_json_node *a);
const bench_json_node *bench_json_next(const bench_json *j, const bench_json_node *e);

#endif /* BENCH_JSON_H */
