/*
 * SFIO's in-line functions as calls: for a library in front of SFIO whose
 * in-line functions cannot be macros over the caller's view of the stream
 * (Robust SFIO checks the stream first; the guarded call runs them under its
 * guard; the process boundary's caller holds no stream struct at all).
 */
#ifndef SFIO_INLINE_CALLS_H
#define SFIO_INLINE_CALLS_H

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

#endif
