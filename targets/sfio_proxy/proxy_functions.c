/*
 * SFIO's functions on the caller's side of the boundary: each marshals its
 * arguments into one request (proxy_client.h) and its reply back.  Streams
 * cross as handles; a buffer, a string or a discipline is copied
 * (proxy_copy.h), and what the server read or stored is copied back into
 * the caller's memory.  A pointer SFIO returns into a stream's buffer
 * (sfreserve, sfgetr) is one into the proxy's copy of those bytes.  The
 * variadic functions pass one word after the format, the shape of every
 * call the spec makes; a discipline's functions cannot be called from the
 * server, which gives the stream pass-through ones where the caller's are
 * set.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "proxy_client.h"
#include "proxy_copy.h"
#include "sfio_proxy.h"

#define H(f) ((uint64_t)(uintptr_t)(f))
#define S(r) ((Sfio_t *)(uintptr_t)(r))
#define P(x) ((int64_t)(uintptr_t)(x))

Sfio_t *sfstdin = (Sfio_t *)(uintptr_t)PROXY_HANDLE(0, 0);
Sfio_t *sfstdout = (Sfio_t *)(uintptr_t)PROXY_HANDLE(0, 1);
Sfio_t *sfstderr = (Sfio_t *)(uintptr_t)PROXY_HANDLE(0, 2);

#define REQUEST(op_, f, g, ...) struct proxy_request rq = { .op = (op_), .h = { H(f), H(g) }, .a = { __VA_ARGS__ } }

static int64_t plain(int op, Sfio_t *f, Sfio_t *g, int64_t a0, int64_t a1, int64_t a2)
{
	REQUEST(op, f, g, a0, a1, a2);

	return proxy_call(&rq, -1, NULL, NULL, NULL);
}

/* A call with two strings (either may be NULL: no block), and a reply
 * whose bytes go to dest (the caller's memory, n bytes at most) if any. */
static int64_t with_strings(struct proxy_request *rq, const char *s0, const char *s1, void *dest)
{
	size_t n0 = 0, n1 = 0, got;
	char *c0 = NULL, *c1 = NULL;
	int64_t r;

	if ((s0 && !(c0 = proxy_copy_string(s0, &n0))) || (s1 && !(c1 = proxy_copy_string(s1, &n1)))) {
		free(c0);
		return proxy_fail(rq->op);
	}
	rq->len[0] = n0, rq->len[1] = n1;
	r = proxy_call(rq, -1, c0, c1, &got);
	free(c0), free(c1);
	if (got && proxy_copy_out(dest, proxy_reply_data(), got))
		return proxy_fail(rq->op);
	return r;
}

/* A call with a block of the caller's n bytes at p (none for NULL, or a
 * length that states none: SF_UNBOUND), and a descriptor to hand over. */
static int64_t with_block(struct proxy_request *rq, const void *p, size_t n, int fd)
{
	void *copy = NULL;
	int64_t r;

	if (p && n != SF_UNBOUND && !(copy = proxy_copy_in(p, n)))
		return proxy_fail(rq->op);
	rq->len[0] = copy ? n : 0;
	r = proxy_call(rq, fd, copy, NULL, NULL);
	free(copy);
	return r;
}

/* Bytes of the server's stream buffer, held here for the caller to read. */
static void *held(int64_t r, size_t len)
{
	static unsigned char *copy;

	if (!r || !(copy = realloc(copy, len + 1)))
		return NULL;
	memcpy(copy, proxy_reply_data(), len);
	copy[len] = 0;
	return copy;
}

Sfio_t *sfnew(Sfio_t *f, Void_t *buf, size_t size, int fd, int flags)
{
	int pass = fd >= 0 && fcntl(fd, F_GETFD) >= 0;
	REQUEST(PROXY_NEW, f, NULL, P(buf), (int64_t)size, flags, pass ? -1 : fd >= 0 ? PROXY_CLOSED_FD : fd);

	rq.has_fd = pass;
	return S(with_block(&rq, buf, size, pass ? fd : -1));
}

Sfio_t *sfopen(Sfio_t *f, const char *name, const char *mode)
{
	REQUEST(PROXY_OPEN, f, NULL, 0);

	return S(with_strings(&rq, name, mode, NULL));
}

Sfio_t *sfpopen(Sfio_t *f, const char *command, const char *mode)
{
	REQUEST(PROXY_POPEN, f, NULL, 0);

	return S(with_strings(&rq, command, mode, NULL));
}

Sfio_t *sftmp(size_t size) { return S(plain(PROXY_TMP, NULL, NULL, (int64_t)size, 0, 0)); }
int sfclose(Sfio_t *f) { return (int)plain(PROXY_CLOSE, f, NULL, 0, 0, 0); }
Sfio_t *sfstack(Sfio_t *base, Sfio_t *top) { return S(plain(PROXY_STACK, base, top, 0, 0, 0)); }
Sfio_t *sfswap(Sfio_t *f1, Sfio_t *f2) { return S(plain(PROXY_SWAP, f1, f2, 0, 0, 0)); }
Sfio_t *sfpool(Sfio_t *f, Sfio_t *poolf, int mode) { return S(plain(PROXY_POOL, f, poolf, mode, 0, 0)); }
int sfset(Sfio_t *f, int flags, int on) { return (int)plain(PROXY_SET, f, NULL, flags, on, 0); }
int sfsetfd(Sfio_t *f, int fd) { return (int)plain(PROXY_SETFD, f, NULL, fd, 0, 0); }
int sfsync(Sfio_t *f) { return (int)plain(PROXY_SYNC, f, NULL, 0, 0, 0); }
int sfpurge(Sfio_t *f) { return (int)plain(PROXY_PURGE, f, NULL, 0, 0, 0); }
int sfresize(Sfio_t *f, Sfoff_t size) { return (int)plain(PROXY_RESIZE, f, NULL, size, 0, 0); }
/* data goes to the stream's exception handlers, of which the server's have none */
int sfraise(Sfio_t *f, int type, Void_t *data) { return (int)plain(PROXY_RAISE, f, NULL, type, P(data), 0); }

Void_t *sfsetbuf(Sfio_t *f, Void_t *buf, size_t size)
{
	REQUEST(PROXY_SETBUF, f, NULL, P(buf), (int64_t)size);

	return (Void_t *)(uintptr_t)with_block(&rq, buf, size, -1);
}

Sfdisc_t *sfdisc(Sfio_t *f, Sfdisc_t *disc)
{
	REQUEST(PROXY_DISC, f, NULL, P(disc));

	return (Sfdisc_t *)(uintptr_t)with_block(&rq, disc, disc ? sizeof(*disc) : 0, -1);
}

ssize_t sfread(Sfio_t *f, Void_t *buf, size_t n)
{
	REQUEST(PROXY_READ, f, NULL, (int64_t)n);
	size_t got;
	int64_t r = proxy_call(&rq, -1, NULL, NULL, &got);

	return got && proxy_copy_out(buf, proxy_reply_data(), got) ? -1 : r;
}

ssize_t sfwrite(Sfio_t *f, const Void_t *buf, size_t n)
{
	REQUEST(PROXY_WRITE, f, NULL, (int64_t)n);

	/* NULL is sent as no block: the server's SFIO then sees no bytes */
	return with_block(&rq, buf, buf ? n : 0, -1);
}

Void_t *sfreserve(Sfio_t *f, ssize_t n, int type)
{
	REQUEST(PROXY_RESERVE, f, NULL, n, type);
	size_t got;
	int64_t r = proxy_call(&rq, -1, NULL, NULL, &got);

	return held(r, got);
}

char *sfgetr(Sfio_t *f, int rsc, int type)
{
	REQUEST(PROXY_GETR, f, NULL, rsc, type);
	size_t got;
	int64_t r = proxy_call(&rq, -1, NULL, NULL, &got);

	return held(r, got);
}

Sfoff_t sfmove(Sfio_t *fr, Sfio_t *fw, Sfoff_t n, int rsc) { return plain(PROXY_MOVE, fr, fw, n, rsc, 0); }

ssize_t sfputr(Sfio_t *f, const char *s, int rsc)
{
	REQUEST(PROXY_PUTR, f, NULL, rsc);

	return with_strings(&rq, s, NULL, NULL);
}

ssize_t sfnputc(Sfio_t *f, int c, size_t n) { return plain(PROXY_NPUTC, f, NULL, c, (int64_t)n, 0); }
int sfungetc(Sfio_t *f, int c) { return (int)plain(PROXY_UNGETC, f, NULL, c, 0, 0); }
Sfoff_t sfseek(Sfio_t *f, Sfoff_t addr, int whence) { return plain(PROXY_SEEK, f, NULL, addr, whence, 0); }
Sfoff_t sftell(Sfio_t *f) { return plain(PROXY_TELL, f, NULL, 0, 0, 0); }
Sfoff_t sfsize(Sfio_t *f) { return plain(PROXY_SIZE, f, NULL, 0, 0, 0); }

/* ---- the variadic functions, in the spec's shapes: one word after the format */

static long one_word(va_list args)
{
	return va_arg(args, long);
}

int sfprintf(Sfio_t *f, const char *format, ...)
{
	va_list args;
	REQUEST(PROXY_PRINTF, f, NULL, 0);

	va_start(args, format);
	rq.a[0] = one_word(args);
	va_end(args);
	return (int)with_strings(&rq, format, NULL, NULL);
}

int sfscanf(Sfio_t *f, const char *format, ...)
{
	va_list args;
	void *dest;
	REQUEST(PROXY_SCANF, f, NULL, 0);

	va_start(args, format);
	dest = (void *)one_word(args);
	va_end(args);
	return (int)with_strings(&rq, format, NULL, dest);
}

int sfsscanf(const char *s, const char *format, ...)
{
	va_list args;
	void *dest;
	REQUEST(PROXY_SSCANF, NULL, NULL, 0);

	va_start(args, format);
	dest = (void *)one_word(args);
	va_end(args);
	return (int)with_strings(&rq, s, format, dest);
}

int sfsprintf(char *s, int n, const char *format, ...)
{
	va_list args;
	REQUEST(PROXY_SPRINTF, NULL, NULL, n);

	va_start(args, format);
	rq.a[1] = one_word(args);
	va_end(args);
	return (int)with_strings(&rq, format, NULL, s);
}

/* ---- the in-line functions */

int sfgetc(Sfio_t *f) { return (int)plain(PROXY_GETC, f, NULL, 0, 0, 0); }
int sfputc(Sfio_t *f, int c) { return (int)plain(PROXY_PUTC, f, NULL, c, 0, 0); }
int sffileno(Sfio_t *f) { return (int)plain(PROXY_FILENO, f, NULL, 0, 0, 0); }
int sfeof(Sfio_t *f) { return (int)plain(PROXY_EOF, f, NULL, 0, 0, 0); }
int sferror(Sfio_t *f) { return (int)plain(PROXY_ERROR, f, NULL, 0, 0, 0); }
int sfclrerr(Sfio_t *f) { return (int)plain(PROXY_CLRERR, f, NULL, 0, 0, 0); }
int sfstacked(Sfio_t *f) { return (int)plain(PROXY_STACKED, f, NULL, 0, 0, 0); }
ssize_t sfvalue(Sfio_t *f) { return plain(PROXY_VALUE, f, NULL, 0, 0, 0); }
int sfio_proxy_close_fd(Sfio_t *f) { return (int)plain(PROXY_CLOSE_FD, f, NULL, 0, 0, 0); }

/* A discipline's own functions call these; only the server calls a
 * discipline's functions, and its disciplines are its own (proxy_server.c). */
ssize_t sfrd(Sfio_t *f, Void_t *buf, size_t n, Sfdisc_t *disc) { errno = ENOSYS; return -1; }
ssize_t sfwr(Sfio_t *f, const Void_t *buf, size_t n, Sfdisc_t *disc) { errno = ENOSYS; return -1; }
Sfoff_t sfsk(Sfio_t *f, Sfoff_t addr, int whence, Sfdisc_t *disc) { errno = ENOSYS; return -1; }
