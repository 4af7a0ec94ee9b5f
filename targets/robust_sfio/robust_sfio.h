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
 * keep an in-line fast path: when the stream is the one last found open and
 * nothing was closed since, they work on its buffer as SFIO's macros do.
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

static inline int rs_putc_fast(Sfio_t *f, int c)
{
	if (rs_stream_remembered(f) && (f->flags & SF_WRITE) && f->next < f->endw)
		return *f->next++ = (unsigned char)c;
	return (sfputc)(f, c);
}

static inline int rs_getc_fast(Sfio_t *f)
{
	if (rs_stream_remembered(f) && (f->flags & SF_READ) && f->next < f->endr)
		return *f->next++;
	return (sfgetc)(f);
}

#define sfputc(f, c) rs_putc_fast((f), (c))
#define sfgetc(f)    rs_getc_fast(f)

#endif
