/*
 * Robust SFIO's memory check: whether a caller's buffer can be read (and
 * written) for its stated length, decided before any state changes, so a
 * failed check needs no roll-back (the study's third family of checks).
 */
#ifndef ROBUST_MEMORY_H
#define ROBUST_MEMORY_H

#include <stddef.h>

#pragma GCC visibility push(hidden)  /* the library's own, not its interface */

/* 1 if the n bytes at p can all be read, and written too when want_write;
 * 0 if not (NULL, unmapped, protected, or p + n wrapping around).  n == 0
 * asks nothing of the memory and is always 1. */
int rs_memory_ok(const void *p, size_t n, int want_write);

/* How many bytes from p, up to max, can be read (and written): the length
 * up to the first page that cannot be, so a page-granular answer. */
size_t rs_memory_span(const void *p, size_t max, int want_write);

/* The granule of access: the kernel grants and takes it a page at a time. */
size_t rs_memory_page_size(void);

#pragma GCC visibility pop

#endif
