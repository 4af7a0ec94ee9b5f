/*
 * The process boundary's server: holds the real streams of libgvpr.so.2 and
 * answers one request at a time on descriptor 3 (proxy_wire.h).  Started by
 * the caller's side (proxy_client.c) as `sfio-proxy-server GENERATION`;
 * ends at end of file.  Every stream a request names is looked up in the
 * handle table first: a number this server never handed out, or one whose
 * stream was closed, is answered with EBADF and never touched.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proxy_wire.h"
#include "sfio_abi.h"

#define SOCK 3
#define TABLE 4096
#define CHUNK (64 * 1024)
#define SCAN_SCRATCH 4096
#define SCAN_FILL 0xa5
#define SPRINTF_MAX (1 << 20)

static Sfio_t *table[TABLE];
static uint64_t generation;

struct answer {
	int64_t ret;
	unsigned char *data;
	size_t len;
};

/* ---- the handle table */

static uint64_t handle_of_index(size_t i)
{
	return PROXY_HANDLE(i < 3 ? 0 : generation, i);
}

/* The stream a handle names: NULL for 0, else its table entry; -1 in *bad
 * for a number this server did not hand out or whose stream is gone. */
static Sfio_t *stream(uint64_t h, int *bad)
{
	uint64_t i;

	if (!h)
		return NULL;
	i = (h - PROXY_HANDLE_BASE) / 16 & ((1u << 20) - 1);
	if (h < PROXY_HANDLE_BASE || (h - PROXY_HANDLE_BASE) % 16 || i >= TABLE ||
	    h != handle_of_index(i) || !table[i]) {
		*bad = 1;
		return NULL;
	}
	return table[i];
}

/* The handle of a stream SFIO returned: its entry, or a new one. */
static int64_t handed_out(Sfio_t *f)
{
	size_t i, free_slot = TABLE;

	if (!f)
		return 0;
	for (i = 0; i < TABLE; i++) {
		if (table[i] == f)
			return (int64_t)handle_of_index(i);
		if (!table[i] && free_slot == TABLE && i >= 3)
			free_slot = i;
	}
	if (free_slot == TABLE)
		return 0;
	table[free_slot] = f;
	return (int64_t)handle_of_index(free_slot);
}

static void forget(Sfio_t *f)
{
	size_t i;

	for (i = 3; i < TABLE; i++)
		if (table[i] == f)
			table[i] = NULL;
}

/* ---- what the calls need beyond the request */

static ssize_t pass_read(Sfio_t *f, Void_t *buf, size_t n, Sfdisc_t *disc) { return sfrd(f, buf, n, disc); }
static ssize_t pass_write(Sfio_t *f, const Void_t *buf, size_t n, Sfdisc_t *disc) { return sfwr(f, buf, n, disc); }
static Sfoff_t pass_seek(Sfio_t *f, Sfoff_t addr, int whence, Sfdisc_t *disc) { return sfsk(f, addr, whence, disc); }

/* A discipline of the server's own in the shape of the caller's: a
 * pass-through where the caller's function is set (the one shape the spec
 * has), none where it is NULL.  The caller's functions cannot be called
 * from here; the caller's pointer is kept to be handed back. */
struct server_disc {
	Sfdisc_t d;
	int64_t caller;
	struct server_disc *next;
};
static struct server_disc *discs;

static Sfdisc_t *server_disc(const Sfdisc_t *model, int64_t caller)
{
	struct server_disc *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->d.readf = model->readf ? pass_read : NULL;
	s->d.writef = model->writef ? pass_write : NULL;
	s->d.seekf = model->seekf ? pass_seek : NULL;
	s->caller = caller, s->next = discs, discs = s;
	return &s->d;
}

static int64_t caller_disc(Sfdisc_t *d)
{
	struct server_disc *s;

	for (s = discs; s; s = s->next)
		if (&s->d == d)
			return s->caller;
	return (int64_t)(uintptr_t)d;
}

/* A buffer handed to sfnew or sfsetbuf: the server's copy of the caller's
 * bytes (a buffer of SF_UNBOUND size is only told apart from NULL). */
static void *own_buffer(int64_t caller, uint64_t size, unsigned char *copy, size_t len)
{
	void *b;

	if (!caller)
		return NULL;
	if (size == (uint64_t)SF_UNBOUND || !len)
		return malloc(1);
	b = malloc(len);
	return b ? memcpy(b, copy, len) : NULL;
}

static void read_all(Sfio_t *f, uint64_t n, struct answer *a)
{
	size_t cap = 0;

	a->ret = 0;
	while ((uint64_t)a->ret < n) {
		size_t want = n - (uint64_t)a->ret < CHUNK ? (size_t)(n - (uint64_t)a->ret) : CHUNK;
		ssize_t got;

		if ((size_t)a->ret + want > cap) {
			unsigned char *grown = realloc(a->data, cap = (size_t)a->ret + want);

			if (!grown) {
				a->ret = -1, errno = ENOMEM;
				return;
			}
			a->data = grown;
		}
		got = sfread(f, a->data + a->ret, want);
		if (got < 0 && !a->ret)
			a->ret = -1;
		if (got <= 0)
			break;
		a->ret += got;
		if ((size_t)got < want)
			break;
	}
	a->len = a->ret > 0 ? (size_t)a->ret : 0;
}

/* What a scan stored: the scratch up to its last byte changed. */
static void stored(unsigned char *scratch, struct answer *a)
{
	size_t n = SCAN_SCRATCH;

	while (n && scratch[n - 1] == SCAN_FILL)
		n--;
	a->data = scratch, a->len = n;
}

static void copy_back(const void *p, size_t n, struct answer *a)
{
	if (p && (a->data = malloc(n ? n : 1)))
		memcpy(a->data, p, n), a->len = n;
}

/* ---- one request */

static void serve(const struct proxy_request *rq, unsigned char *b0, unsigned char *b1, int fd,
		  struct answer *a)
{
	const int64_t *x = rq->a;
	int bad = 0;
	Sfio_t *f = stream(rq->h[0], &bad), *g = stream(rq->h[1], &bad);
	const char *s0 = rq->len[0] ? (const char *)b0 : NULL, *s1 = rq->len[1] ? (const char *)b1 : NULL;
	unsigned char *scratch;

	if (bad) {
		a->ret = proxy_fail(rq->op), errno = EBADF;
		return;
	}
	switch (rq->op) {
	case PROXY_NEW: a->ret = handed_out(sfnew(f, own_buffer(x[0], (uint64_t)x[1], b0, rq->len[0]),
						 (size_t)x[1], rq->has_fd ? fd : (int)x[3], (int)x[2])); break;
	case PROXY_OPEN: a->ret = handed_out(sfopen(f, s0, s1)); break;
	case PROXY_POPEN: a->ret = handed_out(sfpopen(f, s0, s1)); break;
	case PROXY_TMP: a->ret = handed_out(sftmp((size_t)x[0])); break;
	case PROXY_CLOSE: if (!(a->ret = sfclose(f))) forget(f); break;
	case PROXY_STACK: a->ret = handed_out(sfstack(f, g)); break;
	case PROXY_SWAP: a->ret = handed_out(sfswap(f, g)); break;
	case PROXY_POOL: a->ret = handed_out(sfpool(f, g, (int)x[0])); break;
	case PROXY_SET: a->ret = sfset(f, (int)x[0], (int)x[1]); break;
	case PROXY_SETFD: a->ret = sfsetfd(f, (int)x[0]); break;
	case PROXY_SETBUF: a->ret = (int64_t)(uintptr_t)sfsetbuf(f, own_buffer(x[0], (uint64_t)x[1], b0, rq->len[0]),
							     (size_t)x[1]); break;
	case PROXY_SYNC: a->ret = sfsync(f); break;
	case PROXY_PURGE: a->ret = sfpurge(f); break;
	case PROXY_DISC: a->ret = caller_disc(sfdisc(f, x[0] ? server_disc((const Sfdisc_t *)b0, x[0]) : NULL)); break;
	case PROXY_RAISE: a->ret = sfraise(f, (int)x[0], (Void_t *)(uintptr_t)x[1]); break;
	case PROXY_RESIZE: a->ret = sfresize(f, x[0]); break;
	case PROXY_READ: read_all(f, (uint64_t)x[0], a); break;
	case PROXY_WRITE: a->ret = sfwrite(f, b0, (size_t)x[0]); break;
	case PROXY_RESERVE: {
		void *r = sfreserve(f, (ssize_t)x[0], (int)x[1]);

		a->ret = (int64_t)(uintptr_t)r;
		copy_back(r, r ? (size_t)(x[0] > 0 ? x[0] : sfvalue(f)) : 0, a);
		break;
	}
	case PROXY_MOVE: a->ret = sfmove(f, g, x[0], (int)x[1]); break;
	case PROXY_GETR: {
		char *r = sfgetr(f, (int)x[0], (int)x[1]);

		a->ret = (int64_t)(uintptr_t)r;
		copy_back(r, r ? (size_t)sfvalue(f) : 0, a);
		break;
	}
	case PROXY_PUTR: a->ret = sfputr(f, s0, (int)x[0]); break;
	case PROXY_NPUTC: a->ret = sfnputc(f, (int)x[0], (size_t)x[1]); break;
	case PROXY_UNGETC: a->ret = sfungetc(f, (int)x[0]); break;
	case PROXY_SEEK: a->ret = sfseek(f, x[0], (int)x[1]); break;
	case PROXY_TELL: a->ret = sftell(f); break;
	case PROXY_SIZE: a->ret = sfsize(f); break;
	/* the variadic shapes: one word after the format, as the spec's shims pass */
	case PROXY_PRINTF: a->ret = sfprintf(f, s0, (long)x[0]); break;
	case PROXY_SCANF:
	case PROXY_SSCANF:
		if (!(scratch = malloc(SCAN_SCRATCH)))
			break;
		memset(scratch, SCAN_FILL, SCAN_SCRATCH);
		a->ret = rq->op == PROXY_SCANF ? sfscanf(f, s0, scratch) : sfsscanf(s0, s1, scratch);
		stored(scratch, a);
		break;
	case PROXY_SPRINTF: {
		int n = x[0] > SPRINTF_MAX ? SPRINTF_MAX : (int)x[0];
		char *buf = malloc(n > 0 ? (size_t)n : 1);

		if (!buf)
			break;
		a->ret = sfsprintf(buf, n, s0, (long)x[1]);
		a->data = (unsigned char *)buf, a->len = n > 0 ? strnlen(buf, (size_t)n - 1) + 1 : 0;
		break;
	}
	case PROXY_GETC: a->ret = sfgetc(f); break;
	case PROXY_PUTC: a->ret = sfputc(f, (int)x[0]); break;
	case PROXY_FILENO: a->ret = sffileno(f); break;
	case PROXY_EOF: a->ret = sfeof(f); break;
	case PROXY_ERROR: a->ret = sferror(f); break;
	case PROXY_CLRERR: a->ret = sfclrerr(f); break;
	case PROXY_STACKED: a->ret = sfstacked(f); break;
	case PROXY_VALUE: a->ret = sfvalue(f); break;
	case PROXY_CLOSE_FD: a->ret = f ? close(sffileno(f)) : -1; break;
	default: a->ret = -1, errno = EINVAL;
	}
}

static unsigned char *block(uint64_t len)
{
	unsigned char *b = malloc(len ? (size_t)len : 1);

	if (b && proxy_recv(SOCK, b, (size_t)len, NULL))
		exit(0);
	return b;
}

int main(int argc, char **argv)
{
	sigset_t xcpu;

	/* the CPU limit the caller's process left us is the harness's: a call
	 * that computes for ever is killed at its hard limit, a second after
	 * the soft one, so that the caller's watchdog decides first */
	sigemptyset(&xcpu);
	sigaddset(&xcpu, SIGXCPU);
	sigprocmask(SIG_BLOCK, &xcpu, NULL);
	generation = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
	table[0] = sfstdin, table[1] = sfstdout, table[2] = sfstderr;
	for (;;) {
		struct proxy_request rq;
		struct proxy_reply rp = { 0 };
		struct answer a = { 0 };
		unsigned char *b0, *b1;
		int fd = -1;

		if (proxy_recv(SOCK, &rq, sizeof(rq), &fd))
			return 0;
		if (rq.len[0] > PROXY_BLOCK_MAX || rq.len[1] > PROXY_BLOCK_MAX)
			return 2;
		b0 = block(rq.len[0]), b1 = block(rq.len[1]);
		errno = 0;
		if (b0 && b1)
			serve(&rq, b0, b1, fd, &a);
		else
			a.ret = proxy_fail(rq.op), errno = ENOMEM;
		rp.ret = a.ret, rp.err = errno, rp.len = a.len;
		if (proxy_send(SOCK, &rp, sizeof(rp), -1, a.data, a.len, NULL, 0))
			return 0;
		if (a.data != b0)
			free(a.data);
		free(b0), free(b1);
	}
}
