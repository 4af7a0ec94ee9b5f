/*
 * Hardened data functions: reading, writing, records, seeking.  Each checks
 * the stream and its mode, then the caller's memory for the stated length,
 * then the values, all before SFIO changes anything.
 */
#include <stdio.h>
#include <string.h>

#include "robust_fail.h"
#include "robust_real.h"
#include "robust_sfio.h"

/* sfread and sfwrite are what a block loop calls: the case every check
 * answers from memory goes straight to SFIO (rs_transfer_remembered), and
 * only the rest takes the function with the full checks, which is kept
 * out of line so that the common path saves no registers. */
static __attribute__((noinline)) ssize_t sfread_checked(Sfio_t *f, Void_t *buf, size_t n)
{
	RS_FORWARD_IF_NESTED(sfread, f, buf, n);
	if (!rs_stream_ok(f, SF_READ) || !rs_buffer_ok(buf, n, 1))
		return -1;
	return RS_CALL(sfread, f, buf, n);
}

ssize_t sfread(Sfio_t *f, Void_t *buf, size_t n)
{
	if (__builtin_expect(!RS_NESTED() && rs_transfer_remembered(f, SF_READ, buf, n, 1), 1))
		return RS_CALL(sfread, f, buf, n);
	return sfread_checked(f, buf, n);
}

static __attribute__((noinline)) ssize_t sfwrite_checked(Sfio_t *f, const Void_t *buf,
							 size_t n)
{
	RS_FORWARD_IF_NESTED(sfwrite, f, buf, n);
	if (!rs_stream_ok(f, SF_WRITE) || !rs_buffer_ok(buf, n, 0))
		return -1;
	return RS_CALL(sfwrite, f, buf, n);
}

ssize_t sfwrite(Sfio_t *f, const Void_t *buf, size_t n)
{
	if (__builtin_expect(!RS_NESTED() && rs_transfer_remembered(f, SF_WRITE, buf, n, 0), 1))
		return RS_CALL(sfwrite, f, buf, n);
	return sfwrite_checked(f, buf, n);
}

Void_t *sfreserve(Sfio_t *f, ssize_t n, int type)
{
	RS_FORWARD_IF_NESTED(sfreserve, f, n, type);
	if (!rs_stream_open(f))
		return NULL;
	if (type & ~RS_SFIO_TYPES)
		RS_REFUSE(EINVAL, NULL);
	return RS_CALL(sfreserve, f, n, type);
}

/* rsc: a byte value for records, negative for a byte count. */
Sfoff_t sfmove(Sfio_t *fr, Sfio_t *fw, Sfoff_t n, int rsc)
{
	RS_FORWARD_IF_NESTED(sfmove, fr, fw, n, rsc);
	if ((fr && !rs_stream_ok(fr, SF_READ)) || (fw && !rs_stream_ok(fw, SF_WRITE)))
		return -1;
	if (rsc > 255)
		RS_REFUSE(EINVAL, -1);
	return RS_CALL(sfmove, fr, fw, n, rsc);
}

char *sfgetr(Sfio_t *f, int rsc, int type)
{
	RS_FORWARD_IF_NESTED(sfgetr, f, rsc, type);
	if (!rs_stream_ok(f, SF_READ))
		return NULL;
	if (rsc < 0 || rsc > 255 || (type & ~RS_GETR_TYPES))
		RS_REFUSE(EINVAL, NULL);
	return RS_CALL(sfgetr, f, rsc, type);
}

/* SFIO's sfputr runs past the end of a string stream of fixed size (no
 * SF_MALLOC) when the record does not fit; sfwrite stops at the end. */
static int record_fits(const Sfio_t *f, const char *s, int rsc)
{
	size_t left;

	if ((f->flags & (SF_STRING | SF_MALLOC)) != SF_STRING)
		return 1;
	left = f->next >= f->data && f->next <= f->data + f->size
	     ? (size_t)(f->data + f->size - f->next) : 0;
	return strlen(s) + (rsc >= 0) <= left;
}

/* Streams whose sfputr does more than copy into the buffer (flushes a
 * line or a shared stream, takes a lock, raises events, fills a string
 * stream the caller may read past its end): the real sfputr serves them. */
#define PUTR_SLOW_FLAGS (SF_STRING | SF_LINE | SF_SHARE | SF_WHOLE | SF_MTSAFE | SF_IOCHECK)

/* The record copied into the write buffer of f (open for writing) in the
 * same pass that finds the string's end, as SFIO's sfputr does when the
 * record fits: a memccpy into [next, endw), the separator over the NUL.
 * The copy reads no further than a range remembered readable, and a
 * window with next < endw is what SFIO's own sfputc macro writes into
 * (SFIO closes it while a stream is locked, not in write mode, or line
 * buffered).  Returns the bytes written, or -1 when the record does not
 * end inside both (then only bytes past next changed, which SFIO's copy
 * overwrites too): the checks and the real sfputr decide. */
static ssize_t putr_in_buffer(Sfio_t *f, const char *s, int rsc)
{
	const struct rs_range *r;
	unsigned char *end;
	size_t room, known;

	if ((f->flags & PUTR_SLOW_FLAGS) || f->push || f->next >= f->endw || rsc > 255)
		return -1;
	r = rs_covering((uintptr_t)s, 1, 0, &rs_string_hint);
	if (!r)
		return -1;
	room = (size_t)(f->endw - f->next);
	known = r->end - (uintptr_t)s;
	end = memccpy(f->next, s, '\0', room < known ? room : known);
	if (!end)
		return -1;
	end--;  /* on the NUL */
	if (rsc >= 0)
		*end++ = (unsigned char)rsc;
	room = (size_t)(end - f->next);
	f->next = end;
	return (ssize_t)room;
}

/* rsc: a byte to end the record with, negative for none.  A record that
 * does not fit a fixed string stream is refused whole (ENOSPC). */
ssize_t sfputr(Sfio_t *f, const char *s, int rsc)
{
	ssize_t n;

	RS_FORWARD_IF_NESTED(sfputr, f, s, rsc);
	if (!rs_stream_ok(f, SF_WRITE))
		return -1;
	n = putr_in_buffer(f, s, rsc);
	if (n >= 0)
		return n;
	if (!rs_string_ok(s))
		return -1;
	if (rsc > 255)
		RS_REFUSE(EINVAL, -1);
	if (!record_fits(f, s, rsc))
		RS_REFUSE(ENOSPC, -1);
	return RS_CALL(sfputr, f, s, rsc);
}

ssize_t sfnputc(Sfio_t *f, int c, size_t n)
{
	RS_FORWARD_IF_NESTED(sfnputc, f, c, n);
	if (!rs_stream_ok(f, SF_WRITE))
		return -1;
	if (n > RS_NPUTC_MAX)
		RS_REFUSE(EINVAL, -1);
	return RS_CALL(sfnputc, f, c, n);
}

int sfungetc(Sfio_t *f, int c)
{
	RS_FORWARD_IF_NESTED(sfungetc, f, c);
	return rs_stream_open(f) ? RS_CALL(sfungetc, f, c) : -1;
}

/* The position a seek asks for must exist: not before the start, and not
 * past what an Sfoff_t holds.  SFIO's own arithmetic on such positions
 * wraps, and on a string stream it then loops for ever. */
static int seek_target_ok(Sfio_t *f, Sfoff_t addr, int whence)
{
	Sfoff_t base = 0, target;

	switch (whence & ~(SF_PUBLIC | SF_SHARE)) {
	case SEEK_SET:
		break;
	case SEEK_CUR:
		base = RS_CALL(sftell, f);
		break;
	case SEEK_END:
		base = RS_CALL(sfsize, f);
		break;
	default:
		RS_REFUSE(EINVAL, 0);
	}
	if (base < 0)  /* unknown here (a pipe, say): SFIO decides */
		return 1;
	if (__builtin_add_overflow(base, addr, &target) || target < 0)
		RS_REFUSE(EINVAL, 0);
	return 1;
}

Sfoff_t sfseek(Sfio_t *f, Sfoff_t addr, int whence)
{
	RS_FORWARD_IF_NESTED(sfseek, f, addr, whence);
	if (!rs_stream_open(f) || !seek_target_ok(f, addr, whence))
		return -1;
	return RS_CALL(sfseek, f, addr, whence);
}

Sfoff_t sftell(Sfio_t *f)
{
	RS_FORWARD_IF_NESTED(sftell, f);
	return rs_stream_open(f) ? RS_CALL(sftell, f) : -1;
}

Sfoff_t sfsize(Sfio_t *f)
{
	RS_FORWARD_IF_NESTED(sfsize, f);
	return rs_stream_open(f) ? RS_CALL(sfsize, f) : -1;
}
