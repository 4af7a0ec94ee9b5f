/*
 * Hardened stream functions: making, closing, stacking, swapping, pooling
 * and setting up streams.  The registry follows every stream SFIO hands out
 * and every one it frees, so that only open streams are ever passed on.
 */
#include <sys/types.h>

#include "robust_code.h"
#include "robust_fail.h"
#include "robust_real.h"
#include "robust_sfio.h"

/* Standard streams the caller closed, by rs_standard_stream's bits:
 * sfswap() onto one of them frees the other stream, as onto a NULL. */
static unsigned closed_standard;

/* A stream SFIO just made or reopened: known from now on.  Should the
 * registry be unable to grow, the stream is closed again rather than handed
 * out unknown (every later call on it would be refused). */
static Sfio_t *made(Sfio_t *f)
{
	if (!f)
		return NULL;
	closed_standard &= ~rs_standard_stream(f);
	if (rs_stream_add(f)) {
		RS_CALL(sfclose, f);
		RS_REFUSE(ENOMEM, NULL);
	}
	return f;
}

/* A stream SFIO has freed, or closed for good. */
static void gone(Sfio_t *f)
{
	unsigned standard = rs_standard_stream(f);

	if (standard)
		closed_standard |= standard;
	else
		rs_stream_remove(f);
}

Sfio_t *sfnew(Sfio_t *f, Void_t *buf, size_t size, int fd, int flags)
{
	int writes_buffer = !(flags & SF_STRING) || (flags & SF_WRITE);

	RS_FORWARD_IF_NESTED(sfnew, f, buf, size, fd, flags);
	if (!rs_stream_or_null(f))
		return NULL;
	if (flags & ~RS_SFIO_FLAGS)
		RS_REFUSE(EINVAL, NULL);
	/* a buffer of SF_UNBOUND (no stated length) cannot be checked */
	if (buf && size == SF_UNBOUND)
		RS_REFUSE(EINVAL, NULL);
	if (buf && !rs_buffer_ok(buf, size, writes_buffer))
		return NULL;
	return made(RS_CALL_MAKING(sfnew, f, buf, size, fd, flags));
}

Sfio_t *sfopen(Sfio_t *f, const char *name, const char *mode)
{
	RS_FORWARD_IF_NESTED(sfopen, f, name, mode);
	if (!rs_stream_or_null(f) || (name && !rs_string_ok(name)) || !rs_string_ok(mode))
		return NULL;
	return made(RS_CALL_MAKING(sfopen, f, name, mode));
}

Sfio_t *sfpopen(Sfio_t *f, const char *command, const char *mode)
{
	RS_FORWARD_IF_NESTED(sfpopen, f, command, mode);
	if (!rs_stream_or_null(f) || !rs_string_ok(command) || !rs_string_ok(mode))
		return NULL;
	return made(RS_CALL_MAKING(sfpopen, f, command, mode));
}

Sfio_t *sftmp(size_t size)
{
	RS_FORWARD_IF_NESTED(sftmp, size);
	return made(RS_CALL_MAKING(sftmp, size));
}

/* SFIO's own closes (of the streams stacked on one being closed) are
 * followed too, nested or not.  The stream is forgotten whatever sfclose
 * returns: a stream that might have been freed is never trusted again. */
int sfclose(Sfio_t *f)
{
	int result;

	if (!RS_NESTED() && !rs_stream_or_null(f))
		return -1;
	result = RS_CALL(sfclose, f);
	if (f)
		gone(f);
	return result;
}

Sfio_t *sfstack(Sfio_t *base, Sfio_t *top)
{
	RS_FORWARD_IF_NESTED(sfstack, base, top);
	if (!rs_stream_or_null(base) || !rs_stream_or_null(top))
		return NULL;
	return RS_CALL(sfstack, base, top);
}

/* Swapping into NULL, or into a closed standard stream, moves f1 into that
 * stream and frees f1. */
Sfio_t *sfswap(Sfio_t *f1, Sfio_t *f2)
{
	int frees_f1 = !f2 || (closed_standard & rs_standard_stream(f2));
	Sfio_t *result;

	RS_FORWARD_IF_NESTED(sfswap, f1, f2);
	if (!rs_stream_open(f1) || !rs_stream_or_null(f2))
		return NULL;
	result = RS_CALL_MAKING(sfswap, f1, f2);
	if (result && frees_f1 && f1 != result) {
		gone(f1);
		return made(result);
	}
	return result;
}

Sfio_t *sfpool(Sfio_t *f, Sfio_t *poolf, int mode)
{
	RS_FORWARD_IF_NESTED(sfpool, f, poolf, mode);
	if (!rs_stream_or_null(f) || !rs_stream_or_null(poolf))
		return NULL;
	return RS_CALL(sfpool, f, poolf, mode);
}

int sfset(Sfio_t *f, int flags, int on)
{
	RS_FORWARD_IF_NESTED(sfset, f, flags, on);
	if (!rs_stream_or_null(f))
		return 0;
	if (flags & ~RS_SFIO_FLAGS)
		RS_REFUSE(EINVAL, 0);
	return RS_CALL(sfset, f, flags, on);
}

int sfsetfd(Sfio_t *f, int fd)
{
	RS_FORWARD_IF_NESTED(sfsetfd, f, fd);
	if (!rs_stream_open(f))
		return -1;
	return RS_CALL(sfsetfd, f, fd);
}

/* SFIO keeps the buffer and fills it later: it must be writable now. */
Void_t *sfsetbuf(Sfio_t *f, Void_t *buf, size_t size)
{
	RS_FORWARD_IF_NESTED(sfsetbuf, f, buf, size);
	if (!rs_stream_open(f))
		return NULL;
	if (buf && size != SF_UNBOUND && !rs_buffer_ok(buf, size, 1))
		return NULL;
	return RS_CALL(sfsetbuf, f, buf, size);
}

int sfsync(Sfio_t *f)
{
	RS_FORWARD_IF_NESTED(sfsync, f);
	return rs_stream_or_null(f) ? RS_CALL(sfsync, f) : -1;
}

int sfpurge(Sfio_t *f)
{
	RS_FORWARD_IF_NESTED(sfpurge, f);
	return rs_stream_open(f) ? RS_CALL(sfpurge, f) : -1;
}

/* SFIO links a discipline into the stream (writing its `disc` field) and
 * calls its functions later: it must be writable, and each function must
 * be code. */
static int discipline_ok(Sfdisc_t *disc)
{
	if (!rs_buffer_ok(disc, sizeof(*disc), 1))
		return 0;
	if ((disc->readf && !rs_code_ok((const void *)disc->readf)) ||
	    (disc->writef && !rs_code_ok((const void *)disc->writef)) ||
	    (disc->seekf && !rs_code_ok((const void *)disc->seekf)) ||
	    (disc->exceptf && !rs_code_ok((const void *)disc->exceptf)))
		RS_REFUSE(EFAULT, 0);
	return 1;
}

Sfdisc_t *sfdisc(Sfio_t *f, Sfdisc_t *disc)
{
	RS_FORWARD_IF_NESTED(sfdisc, f, disc);
	if (!rs_stream_open(f) || (disc && !discipline_ok(disc)))
		return NULL;
	return RS_CALL(sfdisc, f, disc);
}

int sfraise(Sfio_t *f, int type, Void_t *data)
{
	RS_FORWARD_IF_NESTED(sfraise, f, type, data);
	return rs_stream_or_null(f) ? RS_CALL(sfraise, f, type, data) : -1;
}

int sfresize(Sfio_t *f, Sfoff_t size)
{
	RS_FORWARD_IF_NESTED(sfresize, f, size);
	if (!rs_stream_open(f))
		return -1;
	if (size < 0)
		RS_REFUSE(EINVAL, -1);
	return RS_CALL(sfresize, f, size);
}
