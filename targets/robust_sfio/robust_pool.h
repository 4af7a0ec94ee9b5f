/*
 * The stream pool: where the streams Robust SFIO makes live, so that the
 * in-line sfgetc and sfputc (robust_sfio.h) can tell a stream from a wild
 * pointer by arithmetic alone.  The pool is one static array of slots, each
 * a power of two in size; whether a pointer is the start of a slot is a
 * function of the pointer and of link-time constants, so the compiler
 * decides it once outside a loop and the per-byte code is SFIO's macro.
 *
 * Streams enter the pool without SFIO knowing: SFIO allocates its stream
 * structs with malloc(), and while one of this library's stream-making
 * wrappers runs (sfnew, sfopen, sfpopen, sftmp, sfswap), the first malloc
 * of exactly a stream struct's size (learned once, by making one stream)
 * is given a free slot (robust_mapwatch.c's malloc).  free() of a slot gives
 * it back, cleared, so that a closed stream's buffer pointers are NULL; a
 * realloc() of one moves the block out of the pool.  A stream SFIO makes
 * when the pool is full, or whose struct does not fit a slot, and SFIO's
 * standard streams, which are static, live outside it and take the
 * out-of-line path: correct, only not in line.
 */
#ifndef ROBUST_POOL_H
#define ROBUST_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "sfio_abi.h"

#define RS_SLOT 256u     /* bytes in a slot: a power of two */
#define RS_SLOTS 128u    /* slots in the pool: a power of two */

struct rs_slot {
	unsigned char bytes[RS_SLOT];
} __attribute__((aligned(64)));

/* Read by programs' in-line code, so exported. */
extern struct rs_slot rs_pool[RS_SLOTS];

/* What the in-line pair works on for a pointer that is no slot: a stream
 * whose buffer pointers are all NULL, so the in-line test fails for it. */
extern Sfio_t rs_no_stream;

/* p is the start of a slot of the pool (in use or not). */
static inline int rs_in_pool(const void *p)
{
	return (((uintptr_t)p - (uintptr_t)rs_pool) & ~(uintptr_t)(sizeof(rs_pool) - RS_SLOT)) == 0;
}

#pragma GCC visibility push(hidden)  /* the library's own, not its interface */

/* Nonzero while a malloc() may be given a slot (or, once, recorded to
 * learn the stream struct's size): the allocator's one test otherwise. */
extern int rs_pool_watching;

/* Around a real call that may allocate one stream struct. */
void rs_pool_arm(void);
void rs_pool_disarm(void);

/* malloc(n) while rs_pool_watching: a slot, or real_malloc's block. */
void *rs_pool_malloc(size_t n, void *(*real_malloc)(size_t));

/* The slot at p (rs_in_pool(p)) is free again, cleared; a slot not in use
 * is left as it is. */
void rs_pool_release(void *p);

/* realloc() of a slot: the contents moved to real_malloc's block. */
void *rs_pool_realloc(void *p, size_t n, void *(*real_malloc)(size_t));

#pragma GCC visibility pop

#endif
