#ifndef IMAGE_FEED_MEMORY_TUNING_H
#define IMAGE_FEED_MEMORY_TUNING_H

/// At most `count` malloc arenas (glibc makes one per thread by default; each keeps its own free memory).
void ifm_limit_arenas(int count);

/// Blocks of `bytes` and more get pages of their own, given back when freed, always: glibc otherwise raises
/// this bound to the largest block freed so far, and decoded pictures then land among long-lived small blocks,
/// whose pages can never be given back.
void ifm_fix_mmap_threshold(int bytes);

/// Gives free heap memory back to the system (glibc's malloc_trim). Returns 1 when some was released.
int ifm_release_free_memory(void);

/// Bytes of heap memory in use (allocated and not freed), or 0 where malloc cannot tell.
unsigned long long ifm_heap_in_use(void);

#endif
