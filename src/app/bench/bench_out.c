/* bench_out.c - staging output files as FILE.tmp and renaming them into place. */
#include "bench_out.h"
#include "bench_msg.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool is_directory(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int bench_out_stage(bench_out *o, const char *flag, const char *path)
{
    *o = (bench_out){.flag = flag, .path = path};
    if (!path) return 0;
    if (is_directory(path)) {
        bench_error("%s %s: is a directory", flag, path);
        return 2;
    }
    size_t n = strlen(path);
    o->tmp = malloc(n + 5);
    if (!o->tmp) {
        bench_error("%s %s: out of memory", flag, path);
        return 2;
    }
    memcpy(o->tmp, path, n);
    memcpy(o->tmp + n, ".tmp", 5);
    FILE *f = fopen(o->tmp, "w");
    int err = f ? 0 : errno;
    if (f && fclose(f) != 0) {
        err = errno;
        remove(o->tmp);
    }
    if (err) {
        bench_error("%s %s: cannot write %s: %s", flag, path, o->tmp, strerror(err));
        free(o->tmp);
        o->tmp = NULL;
        return 2;
    }
    return 0;
}

int bench_out_commit(bench_out *o)
{
    if (!o->tmp) return 0;
    if (rename(o->tmp, o->path) != 0) {
        bench_error("%s: cannot rename %s to %s: %s", o->flag, o->tmp, o->path, strerror(errno));
        return 1;
    }
    free(o->tmp);
    o->tmp = NULL;
    return 0;
}

void bench_out_discard(bench_out *o)
{
    if (!o->tmp) return;
    remove(o->tmp);
    free(o->tmp);
    o->tmp = NULL;
}
