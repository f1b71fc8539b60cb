/* bench_json.c - a recursive-descent JSON reader (RFC 8259) into a flat
 * array of nodes; strings are unescaped in place in the text. */
#include "bench_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct reader {
    bench_json *j;
    char *p, *end;
    const char *fail; /* the first reason it is not JSON */
} reader;

static void skip_space(reader *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
        r->p++;
}

static uint32_t new_node(reader *r, bench_json_kind kind)
{
    bench_json *j = r->j;
    if (j->count == j->cap) {
        uint32_t cap = j->cap ? j->cap * 2u : 64u;
        bench_json_node *n = cap > j->cap ? realloc(j->nodes, cap * sizeof *n) : NULL;
        if (!n) {
            r->fail = "out of memory";
            return BENCH_JSON_NONE;
        }
        j->nodes = n;
        j->cap = cap;
    }
    j->nodes[j->count] = (bench_json_node){.kind = kind, .child = BENCH_JSON_NONE,
                                           .next = BENCH_JSON_NONE};
    return j->count++;
}

static int hex4(const char *s)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

/* \uXXXX (and its low surrogate) at s as UTF-8 at out; the bytes written,
 * 0 if malformed. *used: characters read after the backslash. */
static size_t unicode(const char *s, const char *end, char *out, size_t *used)
{
    long c = end - s >= 5 ? hex4(s + 1) : -1;
    *used = 5;
    if (c >= 0xD800 && c < 0xDC00) { /* a surrogate pair */
        long lo = end - s >= 11 && s[5] == '\\' && s[6] == 'u' ? hex4(s + 7) : -1;
        if (lo < 0xDC00 || lo > 0xDFFF) return 0;
        c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
        *used = 11;
    } else if (c < 0 || (c >= 0xDC00 && c < 0xE000) || c == 0) {
        return 0; /* malformed, a lone low surrogate, or a NUL the strings cannot hold */
    }
    if (c < 0x80) return out[0] = (char)c, 1;
    if (c < 0x800) return out[0] = (char)(0xC0 | (c >> 6)), out[1] = (char)(0x80 | (c & 0x3F)), 2;
    if (c < 0x10000) {
        out[0] = (char)(0xE0 | (c >> 12));
        out[1] = (char)(0x80 | ((c >> 6) & 0x3F));
        out[2] = (char)(0x80 | (c & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (c >> 18));
    out[1] = (char)(0x80 | ((c >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((c >> 6) & 0x3F));
    out[3] = (char)(0x80 | (c & 0x3F));
    return 4;
}

/* The string at r->p (at its opening quote), unescaped in place. */
static const char *string(reader *r)
{
    char *out = ++r->p, *start = out;
    static const char ESC[] = "\"\\/bfnrt", VAL[] = "\"\\/\b\f\n\r\t";
    while (r->p < r->end && *r->p != '"') {
        unsigned char c = (unsigned char)*r->p;
        if (c < 0x20) return r->fail = "a control character in a string", NULL;
        if (c != '\\') {
            *out++ = *r->p++;
            continue;
        }
        const char *e = r->p + 1 < r->end ? strchr(ESC, r->p[1]) : NULL;
        if (e && *e) {
            *out++ = VAL[e - ESC];
            r->p += 2;
        } else if (r->p + 1 < r->end && r->p[1] == 'u') {
            size_t used, n = unicode(r->p + 1, r->end, out, &used);
            if (!n) return r->fail = "a bad \\u escape", NULL;
            out += n;
            r->p += 1 + used;
        } else {
            return r->fail = "a bad escape in a string", NULL;
        }
    }
    if (r->p >= r->end) return r->fail = "a string not closed", NULL;
    r->p++;
    *out = '\0'; /* out <= the closing quote: unescaping never lengthens */
    return start;
}

static bool literal(reader *r, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(r->end - r->p) < n || strncmp(r->p, word, n) != 0) return false;
    r->p += n;
    return true;
}

/* A number as RFC 8259 writes it. */
static bool number(reader *r, double *out)
{
    char *s = r->p;
    if (s < r->end && *s == '-') s++;
    size_t lead = strspn(s, "0123456789");
    if (lead == 0 || (lead > 1 && *s == '0')) return false;
    s += lead;
    if (*s == '.' && !strspn(s + 1, "0123456789")) return false;
    if (*s == '.') s += 1 + strspn(s + 1, "0123456789");
    if (*s == 'e' || *s == 'E') {
        s += 1 + (s[1] == '+' || s[1] == '-');
        size_t k = strspn(s, "0123456789");
        if (!k) return false;
        s += k;
    }
    if (s > r->end) return false;
    char save = *s; /* the text is NUL-terminated past end: strtod stops at s */
    *s = '\0';
    *out = strtod(r->p, NULL);
    *s = save;
    r->p = s;
    return true;
}

static uint32_t value(reader *r, unsigned depth);

/* The elements of an array or the members of an object, after the
 * opening bracket. */
static bool elements(reader *r, uint32_t parent, bool object, unsigned depth)
{
    char close = object ? '}' : ']';
    uint32_t last = BENCH_JSON_NONE;
    skip_space(r);
    if (r->p < r->end && *r->p == close) return r->p++, true;
    for (;;) {
        const char *key = NULL;
        skip_space(r);
        if (object) {
            if (r->p >= r->end || *r->p != '"') return r->fail = "a member without a name", false;
            if (!(key = string(r))) return false;
            skip_space(r);
            if (r->p >= r->end || *r->p != ':') return r->fail = "a member without ':'", false;
            r->p++;
        }
        uint32_t v = value(r, depth + 1u);
        if (v == BENCH_JSON_NONE) return false;
        r->j->nodes[v].key = key;
        if (last == BENCH_JSON_NONE) r->j->nodes[parent].child = v;
        else r->j->nodes[last].next = v;
        last = v;
        skip_space(r);
        if (r->p < r->end && *r->p == ',') {
            r->p++;
            continue;
        }
        if (r->p < r->end && *r->p == close) return r->p++, true;
        return r->fail = object ? "an object not closed" : "an array not closed", false;
    }
}

static uint32_t value(reader *r, unsigned depth)
{
    skip_space(r);
    if (depth > BENCH_JSON_DEPTH) return r->fail = "nested too deep", BENCH_JSON_NONE;
    if (r->p >= r->end) return r->fail = "a value missing", BENCH_JSON_NONE;
    char c = *r->p;
    bench_json_kind kind = c == '{' ? BENCH_JSON_OBJECT : c == '[' ? BENCH_JSON_ARRAY
                         : c == '"' ? BENCH_JSON_STRING : c == 't' || c == 'f' ? BENCH_JSON_BOOL
                         : c == 'n' ? BENCH_JSON_NULL : BENCH_JSON_NUMBER;
    uint32_t n = new_node(r, kind);
    if (n == BENCH_JSON_NONE) return n;
    bench_json_node *node = &r->j->nodes[n];
    bool ok = true;
    switch (kind) {
    case BENCH_JSON_OBJECT:
    case BENCH_JSON_ARRAY:
        r->p++;
        return elements(r, n, kind == BENCH_JSON_OBJECT, depth) ? n : BENCH_JSON_NONE;
    case BENCH_JSON_STRING: {
        const char *s = string(r);
        r->j->nodes[n].string = s; /* nodes may have moved: index again */
        return s ? n : BENCH_JSON_NONE;
    }
    case BENCH_JSON_BOOL:
        node->boolean = c == 't';
        ok = literal(r, c == 't' ? "true" : "false");
        break;
    case BENCH_JSON_NULL: ok = literal(r, "null"); break;
    case BENCH_JSON_NUMBER: ok = number(r, &node->number); break;
    }
    if (!ok && !r->fail) r->fail = "not a JSON value";
    return ok ? n : BENCH_JSON_NONE;
}

bool bench_json_parse(bench_json *j, char *text, size_t len, char *why, size_t why_size)
{
    *j = (bench_json){.text = text};
    reader r = {j, text, text + len, NULL};
    if (memchr(text, '\0', len)) r.fail = "a NUL byte";
    uint32_t root = r.fail ? BENCH_JSON_NONE : value(&r, 0);
    skip_space(&r);
    if (root != BENCH_JSON_NONE && r.p != r.end) r.fail = "more after the value";
    if (!r.fail) return true;
    unsigned line = 1;
    for (const char *c = text; c < r.p && c < r.end; c++) line += *c == '\n';
    snprintf(why, why_size, "%s (line %u)", r.fail, line);
    bench_json_free(j);
    return false;
}

void bench_json_free(bench_json *j)
{
    free(j->text);
    free(j->nodes);
    *j = (bench_json){0};
}

const bench_json_node *bench_json_first(const bench_json *j, const bench_json_node *a)
{
    bool parent = a && (a->kind == BENCH_JSON_ARRAY || a->kind == BENCH_JSON_OBJECT);
    return parent && a->child != BENCH_JSON_NONE ? &j->nodes[a->child] : NULL;
}

const bench_json_node *bench_json_next(const bench_json *j, const bench_json_node *e)
{
    return e->next != BENCH_JSON_NONE ? &j->nodes[e->next] : NULL;
}

const bench_json_node *bench_json_get(const bench_json *j, const bench_json_node *o,
                                      const char *key)
{
    if (!o || o->kind != BENCH_JSON_OBJECT) return NULL;
    for (const bench_json_node *e = bench_json_first(j, o); e; e = bench_json_next(j, e))
        if (strcmp(e->key, key) == 0) return e;
    return NULL;
}
