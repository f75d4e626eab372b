// resident.c — gives back the pages a process's start needed: resident, never-written pages of its private file mappings unmapped (MADV_DONTNEED, chosen page by page from /proc/self/pagemap), malloc's free memory trimmed.
#define _GNU_SOURCE
#include "resident.h"

#include <fcntl.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

// /proc/self/pagemap: one 64-bit entry a page; bit 63 present, bit 61 a file page (or shared
// anonymous): a private mapping's page written once (copy on write) is anonymous, not a file page.
#define PM_PRESENT (1ULL << 63)
#define PM_FILE (1ULL << 61)
#define CHUNK 512

static long drop_range(int pagemap, uintptr_t start, uintptr_t end, long page) {
    uint64_t entries[CHUNK];
    long dropped = 0;
    for (uintptr_t at = start; at < end;) {
        size_t n = (end - at) / (uintptr_t)page;
        if (n > CHUNK) n = CHUNK;
        ssize_t got = pread(pagemap, entries, n * sizeof entries[0], (off_t)(at / (uintptr_t)page * sizeof entries[0]));
        if (got <= 0) return dropped;
        n = (size_t)got / sizeof entries[0];
        // Runs of pages that are there and still the file's own, unmapped a run at a time.
        size_t i = 0;
        while (i < n) {
            if ((entries[i] & (PM_PRESENT | PM_FILE)) != (PM_PRESENT | PM_FILE)) {
                i++;
                continue;
            }
            size_t j = i;
            while (j < n && (entries[j] & (PM_PRESENT | PM_FILE)) == (PM_PRESENT | PM_FILE)) j++;
            if (madvise((void *)(at + i * (uintptr_t)page), (j - i) * (size_t)page, MADV_DONTNEED) == 0)
                dropped += (long)(j - i) * (page / 1024);
            i = j;
        }
        at += n * (uintptr_t)page;
    }
    return dropped;
}

long resident_drop_file_pages(void) {
    long page = sysconf(_SC_PAGESIZE);
    FILE *maps = fopen("/proc/self/maps", "re");
    if (!maps) return -1;
    int pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    if (pagemap < 0) {
        fclose(maps);
        return -1;
    }
    // Read whole before any change: unmapping pages does not change the mappings, but the list
    // is taken at one moment.
    static char list[256 * 1024];
    size_t length = fread(list, 1, sizeof list - 1, maps);
    fclose(maps);
    list[length] = 0;
    // A list longer than the buffer: its cut last line is left out.
    if (length == sizeof list - 1) {
        char *last = strrchr(list, '\n');
        if (last) last[1] = 0;
    }
    long dropped = 0;
    for (char *line = list; *line;) {
        char *next = line;
        while (*next && *next != '\n') next++;
        if (*next) *next++ = 0;
        unsigned long start, end, offset, inode;
        unsigned int major, minor;
        char perms[5] = {0};
        // "start-end perms offset dev inode path": a file mapping has an inode; 'p' is private.
        if (sscanf(line, "%lx-%lx %4s %lx %x:%x %lu", &start, &end, perms, &offset, &major, &minor, &inode) == 7 && inode != 0 &&
            perms[0] == 'r' && perms[3] == 'p')
            dropped += drop_range(pagemap, start, end, page);
        line = next;
    }
    close(pagemap);
    return dropped;
}

void resident_trim_heap(void) { malloc_trim(0); }
