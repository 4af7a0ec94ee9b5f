/*
 * SFIO's in-line macros as hardened functions.  For NULL each gives what
 * SFIO's macro gives for NULL (or, for sfputc and sfgetc, which have no
 * answer for NULL, -1); for any other pointer that is not an open stream,
 * the same value with errno EBADF.
 */
#include "robust_real.h"
#include "robust_sfio.h"

#undef sfputc
#undef sfgetc

int sfputc(Sfio_t *f, int c)
{
	if (!rs_stream_ok(f, SF_WRITE))
		return -1;
	if (f->next >= f->endw)
		return RS_CALL(_sfflsbuf, f, (int)(unsigned char)c);
	return *f->next++ = (unsigned char)c;
}

int sfgetc(Sfio_t *f)
{
	if (!rs_stream_ok(f, SF_READ))
		return -1;
	if (f->next >= f->endr)
		return RS_CALL(_sffilbuf, f, 0);
	return *f->next++;
}

int sffileno(Sfio_t *f)
{
	return f && rs_stream_open(f) ? f->file : -1;
}

int sfeof(Sfio_t *f)
{
	return f && rs_stream_open(f) ? f->flags & SF_EOF : 0;
}

int sferror(Sfio_t *f)
{
	return f && rs_stream_open(f) ? f->flags & SF_ERROR : 0;
}

int sfclrerr(Sfio_t *f)
{
	if (f && rs_stream_open(f))
		f->flags &= (unsigned short)~(SF_ERROR | SF_EOF);
	return 0;
}

int sfstacked(Sfio_t *f)
{
	return f && rs_stream_open(f) ? f->push != NULL : 0;
}

static __attribute__((noinline)) ssize_t sfvalue_looked_up(Sfio_t *f)
{
	return f && rs_stream_open_slow(f) ? f->val : 0;
}

/* A record loop asks for each record's length: a stream remembered open
 * (never NULL) answers with no frame. */
ssize_t sfvalue(Sfio_t *f)
{
	if (__builtin_expect(rs_stream_remembered(f), 1))
		return f->val;
	return sfvalue_looked_up(f);
}
