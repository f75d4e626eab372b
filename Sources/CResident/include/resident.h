// resident.h — what a long-running process does with the memory its start needed and no longer does: file pages mapped during the start (code and constants of the program and its libraries) given back, malloc's free pages returned.
#ifndef RESIDENT_H
#define RESIDENT_H

/// Unmaps from this process every page of its private file mappings (the program's and the
/// libraries' code and constant data) that is resident and still the file's own (never written:
/// relocated and written pages are the process's memory and stay). They stay in the page cache;
/// a page touched again comes back by a minor fault. Shared mappings are left alone.
/// Returns the kB unmapped, or -1 when /proc/self/maps or /proc/self/pagemap cannot be read.
long resident_drop_file_pages(void);

/// Returns malloc's free memory to the system (malloc_trim); the kB resident before and after
/// are in /proc/self/status.
void resident_trim_heap(void);

#endif
