/* platform_windows.c - waiting on an address, the clock, the processor
 * count, thread names and virtual memory (see platform.h) on Windows 10 and
 * later, built with mingw-w64 (CI's windows preset, run under wine). The
 * wait is WaitOnAddress, Windows's counterpart of the futex. */
#define WIN32_LEAN_AND_MEAN
#include "platform.h"

#include <windows.h>

#include <stdbool.h>
#include <wchar.h>

/* Exported by kernel32 since Windows 10 1607; mingw-w64's headers before
 * version 11 do not declare it. */
WINBASEAPI HRESULT WINAPI SetThreadDescription(HANDLE thread, PCWSTR description);

void ecs__wait_on(atomic_uint *word, unsigned expected)
{
    /* Returns at once if *word != expected. */
    (void)WaitOnAddress((volatile VOID *)word, &expected, sizeof expected, INFINITE);
}

void ecs__wake_one(atomic_uint *word) { WakeByAddressSingle((PVOID)word); }

uint64_t ecs__now_ns(void)
{
    LARGE_INTEGER freq, t; /* the frequency is fixed at boot */
    QueryPerformanceFrequency(&freq);
    QueryPerformanceCounter(&t);
    uint64_t f = (uint64_t)freq.QuadPart, c = (uint64_t)t.QuadPart;
    return c / f * 1000000000u + c % f * 1000000000u / f;
}

uint32_t ecs__cpu_count(void)
{
    DWORD n = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
    return n > 0 ? (uint32_t)n : 1u;
}

void ecs__name_thread(const char *name)
{
    wchar_t wide[16];
    size_t i = 0;
    for (; i < 15 && name[i]; i++) wide[i] = (unsigned char)name[i]; /* ASCII names */
    wide[i] = 0;
    (void)SetThreadDescription(GetCurrentThread(), wide);
}

void ecs__yield(void) { (void)SwitchToThread(); }

size_t ecs__page_size(void)
{
    SYSTEM_INFO info;
    GetSystemInfo(&info);
    size_t ps = info.dwPageSize;
    return ps && !(ps & (ps - 1u)) ? ps : 4096u;
}

void *ecs__map(size_t len)
{
    return VirtualAlloc(NULL, len, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
}

/* Whether any page of the reservation that holds p is still committed. */
static bool any_committed(void *p)
{
    MEMORY_BASIC_INFORMATION m;
    if (!VirtualQuery(p, &m, sizeof m)) return false;
    unsigned char *base = m.AllocationBase, *at = base;
    while (VirtualQuery(at, &m, sizeof m) && m.AllocationBase == base) {
        if (m.State == MEM_COMMIT) return true;
        at = (unsigned char *)m.BaseAddress + m.RegionSize;
    }
    return false;
}

/* VirtualFree releases a reservation only whole: a part is decommitted
 * (its memory goes back, its addresses stay reserved), and the
 * reservation is released once no page of it is left committed. */
void ecs__unmap(void *p, size_t len)
{
    (void)VirtualFree(p, len, MEM_DECOMMIT);
    if (any_committed(p)) return;
    MEMORY_BASIC_INFORMATION m;
    if (VirtualQuery(p, &m, sizeof m)) (void)VirtualFree(m.AllocationBase, 0, MEM_RELEASE);
}

/* Large pages need a privilege that programs rarely hold; committed pages
 * fault in as they are first touched, as on Linux without the hints. */
void ecs__advise_huge(void *p, size_t len)
{
    (void)p;
    (void)len;
}

void ecs__populate(void *p, size_t len)
{
    WIN32_MEMORY_RANGE_ENTRY range = {p, len};
    (void)PrefetchVirtualMemory(GetCurrentProcess(), 1, &range, 0);
}
