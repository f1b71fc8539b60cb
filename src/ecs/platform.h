/* platform.h - what the ecs module needs from the operating system, in one
 * place: waiting on a 32-bit word until another thread changes it and
 * wakes the waiter, a monotonic clock, the number of processors and
 * thread names.
 * Private to the ecs module. Also virtual memory: fresh mappings for the
 * allocator (alloc.c) and two hints about them.
 *
 * Waiting: a futex, or, when built with ECS_WAIT_FALLBACK, a table of
 * mutexes and condition variables keyed by the word's address. */
#ifndef ECS_PLATFORM_H
#define ECS_PLATFORM_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* Monotonic clock in nanoseconds (spin budgets, per-system timings). */
uint64_t ecs__now_ns(void);

/* Processors online now, at least 1. */
uint32_t ecs__cpu_count(void);

/* Names the calling thread (at most 15 bytes are kept), as top -H, ps
 * -L, gdb and perf show it. */
void ecs__name_thread(const char *name);

/* Gives the processor to another runnable thread, if any (sched_yield);
 * returns at once otherwise. */
void ecs__yield(void);

/* Blocks while *word == expected, until a wake call on word. It may also
 * return early for no reason: callers re-check their condition. A waker
 * changes the word first, then calls wake, so a waiter that has not
 * blocked yet sees the change and one that has is woken. */
void ecs__wait_on(atomic_uint *word, unsigned expected);
/* Wakes one thread blocked on word (the fallback may wake more). */
void ecs__wake_one(atomic_uint *word);

/* The system's page size in bytes (a power of two; 4096 if unknown). */
size_t ecs__page_size(void);
/* A fresh private mapping of len bytes (a multiple of the page size),
 * readable, writable and zeroed by the system as it is first touched;
 * NULL when the system refuses (the allocator then uses calloc). */
void *ecs__map(size_t len);
/* Returns whole pages [p, p + len) of a mapping to the system: all of it,
 * or a part at either end. */
void ecs__unmap(void *p, size_t len);
/* Hints, errors ignored, no-ops where the kernel headers lack the advice
 * (MADV_HUGEPAGE, MADV_POPULATE_WRITE: Linux 5.14 on): back
 * [p, p + len) with huge pages (2 MiB, Linux's transparent ones); map the
 * whole pages of [p, p + len) now, for writing, in one call. */
void ecs__advise_huge(void *p, size_t len);
void ecs__populate(void *p, size_t len);

#endif
