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
 * keep an in-line fast path that costs what SFIO's macro costs plus one
 * comparison: when the stream is the one the function itself last checked in
 * full and no SFIO code has run since (robust_check.h's rs_fast), they work
 * on its buffer as SFIO's macros do.
 */
#ifndef ROBUST_SFIO_H
#define ROBUST_SFIO_H

#include "robust_check.h"
#include "sfio_abi.h"

#undef sfputc
#undef sfgetc
#undef sffileno
#undef sfeof
#undef sferror
#undef sfclrerr
#undef sfstacked
#undef sfvalue

int sfputc(Sfio_t *f, int c);
int sfgetc(Sfio_t *f);
int sffileno(Sfio_t *f);
int sfeof(Sfio_t *f);
int sferror(Sfio_t *f);
int sfclrerr(Sfio_t *f);
int sfstacked(Sfio_t *f);
ssize_t sfvalue(Sfio_t *f);

/* The fast path is marked likely so that the compiler lays it out as the
 * loop's straight line, one taken branch per byte as with SFIO's macro;
 * without the hint it put the check's success out of line (two taken
 * branches per byte, about a fifth more time on getc). */
static inline int rs_putc_fast(Sfio_t *f, int c)
{
	if (__builtin_expect(f == rs_fast.writer && f->next < f->endw, 1))
		return *f->next++ = (unsigned char)c;
	return (sfputc)(f, c);
}

static inline int rs_getc_fast(Sfio_t *f)
{
	if (__builtin_expect(f == rs_fast.reader && f->next < f->endr, 1))
		return *f->next++;
	return (sfgetc)(f);
}

#define sfputc(f, c) rs_putc_fast((f), (c))
#define sfgetc(f)    rs_getc_fast(f)

#endif
