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

/* After the call, f is trusted by the in-line path (robust_check.h) if it is
 * still the stream last found open and still open for want: the real call
 * forgot every trusted stream, and may have closed f or changed its mode. */
static Sfio_t *still_ok(Sfio_t *f, int want)
{
	return rs_stream_remembered(f) && (f->flags & want) ? f : &rs_no_stream;
}

int sfputc(Sfio_t *f, int c)
{
	int result;

	if (!rs_stream_ok(f, SF_WRITE))
		return -1;
	if (f->next >= f->endw)
		result = RS_CALL(_sfflsbuf, f, (int)(unsigned char)c);
	else
		result = *f->next++ = (unsigned char)c;
	rs_fast.writer = still_ok(f, SF_WRITE);
	return result;
}

int sfgetc(Sfio_t *f)
{
	int result;

	if (!rs_stream_ok(f, SF_READ))
		return -1;
	if (f->next >= f->endr)
		result = RS_CALL(_sffilbuf, f, 0);
	else
		result = *f->next++;
	rs_fast.reader = still_ok(f, SF_READ);
	return result;
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

ssize_t sfvalue(Sfio_t *f)
{
	return f && rs_stream_open(f) ? f->val : 0;
}
