/*
 * Robust SFIO: SFIO's interface with every function hardened.  A program
 * includes this header in place of SFIO's and links -lrobust_sfio ahead of
 * libgvpr.so.2 (or preloads librobust_sfio.so).  Every function keeps its
 * SFIO name and signature; a call that SFIO would let crash returns SFIO's
 * error value instead, with errno EBADF (not an open stream, or not open for
 * the operation), EFAULT (memory that cannot be read or written for the
 * stated length) or EINVAL (a value out of range).
 *
 * SFIO's in-line macros become function calls here.  sfputc and sfgetc
 * keep an in-line path that is SFIO's macro: when the stream is the start
 * of a slot of the stream pool (robust_pool.h), where the streams this
 * library makes live, they work on its buffer as SFIO's macros do; any
 * other pointer is taken for rs_no_stream, whose NULL buffer pointers send
 * it to the function and its full check.  Whether a pointer is a slot is
 * arithmetic on the pointer and link-time constants, so in a loop over one
 * stream the compiler decides it once, and the per-byte code is SFIO's.
 */
#ifndef ROBUST_SFIO_H
#define ROBUST_SFIO_H

#include "robust_check.h"
#include "robust_pool.h"
#include "sfio_inline_calls.h"

/* The stream the in-line pair may work on for f: f itself when it is a
 * slot, else one that sends every call to the function. */
static inline Sfio_t *rs_inline_stream(Sfio_t *f)
{
	return rs_in_pool(f) ? f : &rs_no_stream;
}

/* The in-line path is marked likely so that the compiler lays it out as the
 * loop's straight line, one taken branch per byte as with SFIO's macro. */
static inline int rs_putc_fast(Sfio_t *f, int c)
{
	Sfio_t *g = rs_inline_stream(f);

	if (__builtin_expect(g->next < g->endw, 1))
		return *g->next++ = (unsigned char)c;
	return (sfputc)(f, c);
}

static inline int rs_getc_fast(Sfio_t *f)
{
	Sfio_t *g = rs_inline_stream(f);

	if (__builtin_expect(g->next < g->endr, 1))
		return *g->next++;
	return (sfgetc)(f);
}

#define sfputc(f, c) rs_putc_fast((f), (c))
#define sfgetc(f)    rs_getc_fast(f)

#endif
