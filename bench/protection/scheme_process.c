/*
 * The process boundary: the service in a server process forked from the
 * caller, one request and one reply per call.  Two ways to move the data:
 * copied through a socketpair (the request's bytes go to the server and the
 * reply's come back, as a microkernel's IPC copies them), or shared: the
 * caller's buffers are a shared mapping the server also has, at the same
 * address, and a request is a few words beside them handed over with a
 * futex.  A server that dies (a fault in the service) is reaped and started
 * again, and the call that was in it fails with SVC_ECRASH; the service's
 * state dies with it, which the caller learns from that error.
 *
 * The server is forked, not executed anew: it runs the same service code,
 * its start costs one fork and is outside every timed loop.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "schemes.h"

/* ---- what both servers share ---- */

static void server_pin(const struct scheme_ctx *ctx)
{
	cpu_set_t set;

	if (ctx->place == PLACE_ANY)
		return;
	CPU_ZERO(&set);
	CPU_SET(ctx->place == PLACE_SAME ? ctx->cpu[0] : ctx->cpu[1], &set);
	sched_setaffinity(0, sizeof set, &set);
}

/* In the new server: die with the caller, let a fault kill it (not a
 * handler the caller had), pin it, map the service's arena. */
static void *server_setup(const struct scheme_ctx *ctx)
{
	void *state;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1)
		_exit(0);
	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	server_pin(ctx);
	state = mmap(NULL, ctx->state_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (state == MAP_FAILED)
		_exit(1);
	return state;
}

static void server_stop(struct scheme_ctx *ctx)
{
	if (ctx->server > 0) {
		kill(ctx->server, SIGKILL);
		waitpid(ctx->server, NULL, 0);
	}
	ctx->server = -1;
}

/* ---- copied: a socketpair ---- */

struct copy_head {
	uint32_t op, flags;
	uint64_t arg, arg2, in_len, out_cap;
};

struct copy_reply {
	int64_t result;
	uint64_t out_len;
};

static int send_all(int fd, struct iovec *iov, int n)
{
	while (n > 0) {
		struct msghdr msg = { .msg_iov = iov, .msg_iovlen = n };
		ssize_t sent = sendmsg(fd, &msg, MSG_NOSIGNAL);

		if (sent < 0 && errno == EINTR)
			continue;
		if (sent < 0)
			return -1;
		while (n > 0 && (size_t)sent >= iov->iov_len) {
			sent -= iov->iov_len;
			iov++;
			n--;
		}
		if (n > 0) {
			iov->iov_base = (char *)iov->iov_base + sent;
			iov->iov_len -= sent;
		}
	}
	return 0;
}

static int recv_all(int fd, void *buf, uint64_t len)
{
	char *p = buf;

	while (len > 0) {
		ssize_t got = read(fd, p, len);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return -1;
		p += got;
		len -= got;
	}
	return 0;
}

static int discard(int fd, uint64_t len, uint8_t *buf, uint64_t buf_len)
{
	while (len > 0) {
		uint64_t n = len < buf_len ? len : buf_len;

		if (recv_all(fd, buf, n) != 0)
			return -1;
		len -= n;
	}
	return 0;
}

/* the request's in and out inside the server's buffer; out is in for SVC_INOUT */
static int copy_place(const struct copy_head *h, uint8_t *buf, uint64_t buf_len, struct svc_req *r)
{
	*r = (struct svc_req){ .op = h->op, .flags = h->flags, .arg = h->arg, .arg2 = h->arg2,
			       .in = buf, .in_len = h->in_len };
	if (h->in_len > buf_len)
		return -1;
	if (h->flags & SVC_INOUT) {
		r->out = buf;
		r->out_len = h->out_cap > h->in_len ? h->out_cap : h->in_len;
	} else {
		r->out = buf + h->in_len;
		r->out_len = h->out_cap;
	}
	return r->out_len <= buf_len - (uint64_t)(r->out - buf) ? 0 : -1;
}

static void copy_serve(struct scheme_ctx *ctx, int fd)
{
	void *state = server_setup(ctx);
	uint64_t buf_len = ctx->client_len;
	uint8_t *buf = mmap(NULL, buf_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct copy_head h;

	if (buf == MAP_FAILED)
		_exit(1);
	/* the caller's buffers are nothing to this server */
	munmap(ctx->client, ctx->client_len);
	while (recv_all(fd, &h, sizeof h) == 0) {
		struct copy_reply rep = { .result = SVC_EINVAL };
		struct svc_req r;
		struct iovec iov[2] = { { &rep, sizeof rep }, { buf, 0 } };

		if (copy_place(&h, buf, buf_len, &r) != 0) {
			if (discard(fd, h.in_len, buf, buf_len) != 0)
				break;
		} else {
			if (recv_all(fd, buf, h.in_len) != 0)
				break;
			rep.result = svc_call(state, ctx->state_len, &r);
			rep.out_len = r.out_len;
			iov[1] = (struct iovec){ r.out, r.out_len };
		}
		if (send_all(fd, iov, 2) != 0)
			break;
	}
	_exit(0);
}

static int copy_start(struct scheme_ctx *ctx)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
		return -1;
	ctx->server = fork();
	if (ctx->server == 0) {
		close(sv[0]);
		copy_serve(ctx, sv[1]);
	}
	close(sv[1]);
	if (ctx->server < 0) {
		close(sv[0]);
		return -1;
	}
	ctx->sock = sv[0];
	return 0;
}

int process_copy_open(struct scheme_ctx *ctx)
{
	return copy_start(ctx);
}

static int64_t copy_restart(struct scheme_ctx *ctx)
{
	close(ctx->sock);
	ctx->sock = -1;
	waitpid(ctx->server, NULL, 0);
	ctx->server = -1;
	return copy_start(ctx) == 0 ? SVC_ECRASH : SVC_EFAULT;
}

int64_t process_copy_call(struct scheme_ctx *ctx, struct svc_req *r)
{
	struct copy_head h = { .op = r->op, .flags = r->flags, .arg = r->arg, .arg2 = r->arg2,
			       .in_len = r->in_len, .out_cap = r->out_len };
	struct iovec iov[2] = { { &h, sizeof h }, { (void *)r->in, r->in_len } };
	struct copy_reply rep;

	if (send_all(ctx->sock, iov, 2) != 0 || recv_all(ctx->sock, &rep, sizeof rep) != 0)
		return copy_restart(ctx);
	if (rep.out_len > r->out_len)
		return copy_restart(ctx);    /* a server that breaks the protocol is as good as dead */
	if (recv_all(ctx->sock, r->out, rep.out_len) != 0)
		return copy_restart(ctx);
	r->out_len = rep.out_len;
	return rep.result;
}

/* ---- shared: a futex beside the caller's buffers ---- */

enum { TURN_IDLE, TURN_REQUEST, TURN_DEAD };

struct shm_ctl {
	_Atomic uint32_t turn;
	uint32_t pad_;
	int64_t result;
	struct svc_req req;
};

static long futex(_Atomic uint32_t *word, int op, uint32_t val)
{
	return syscall(SYS_futex, word, op, val, NULL, NULL, 0);
}

/*
 * A server that dies leaves its client asleep on the futex: the client's
 * SIGCHLD handler reaps it and turns the word to TURN_DEAD, which wakes the
 * client (or stops it from sleeping: futex_wait compares the word first).
 * One shared-memory server at a time is watched.
 */
static struct scheme_ctx *shm_watched;
static struct sigaction shm_saved_chld;

static void shm_child_died(int sig)
{
	struct scheme_ctx *ctx = shm_watched;
	int saved = errno;

	if (ctx && ctx->server > 0 && waitpid(ctx->server, NULL, WNOHANG) == ctx->server) {
		ctx->server = -1;
		atomic_store(&ctx->ctl->turn, TURN_DEAD);
		futex(&ctx->ctl->turn, FUTEX_WAKE, 1);
	}
	errno = saved;
}

static int inside(const struct scheme_ctx *ctx, const void *p, uint64_t len)
{
	uintptr_t lo = (uintptr_t)ctx->client, at = (uintptr_t)p;

	return len == 0 || (at >= lo && len <= ctx->client_len && at - lo <= ctx->client_len - len);
}

static void shm_serve(struct scheme_ctx *ctx)
{
	void *state = server_setup(ctx);
	struct shm_ctl *ctl = ctx->ctl;

	for (;;) {
		uint32_t turn;
		struct svc_req r;

		while ((turn = atomic_load(&ctl->turn)) != TURN_REQUEST)
			futex(&ctl->turn, FUTEX_WAIT, turn);
		/* the request read once into this process: the client cannot change it under the checks */
		r = ctl->req;
		if (inside(ctx, r.in, r.in_len) && inside(ctx, r.out, r.out_len))
			ctl->result = svc_call(state, ctx->state_len, &r);
		else
			ctl->result = SVC_EINVAL;
		ctl->req.out_len = r.out_len;
		atomic_store(&ctl->turn, TURN_IDLE);
		futex(&ctl->turn, FUTEX_WAKE, 1);
	}
}

static int shm_start(struct scheme_ctx *ctx)
{
	sigset_t chld, old;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);
	atomic_store(&ctx->ctl->turn, TURN_IDLE);
	ctx->server = fork();
	if (ctx->server == 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		shm_serve(ctx);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ctx->server > 0 ? 0 : -1;
}

int process_shm_open(struct scheme_ctx *ctx)
{
	struct sigaction sa = { .sa_handler = shm_child_died, .sa_flags = SA_NOCLDSTOP };

	if (shm_watched)
		return -1;
	ctx->ctl = mmap(NULL, sizeof *ctx->ctl, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ctx->ctl == MAP_FAILED) {
		ctx->ctl = NULL;
		return -1;
	}
	shm_watched = ctx;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, &shm_saved_chld);
	return shm_start(ctx);
}

int64_t process_shm_call(struct scheme_ctx *ctx, struct svc_req *r)
{
	struct shm_ctl *ctl = ctx->ctl;
	uint32_t turn = TURN_IDLE;

	ctl->req = *r;
	if (atomic_compare_exchange_strong(&ctl->turn, &turn, TURN_REQUEST)) {
		futex(&ctl->turn, FUTEX_WAKE, 1);
		while ((turn = atomic_load(&ctl->turn)) == TURN_REQUEST)
			futex(&ctl->turn, FUTEX_WAIT, TURN_REQUEST);
	}
	if (turn == TURN_DEAD)
		return shm_start(ctx) == 0 ? SVC_ECRASH : SVC_EFAULT;
	r->out_len = ctl->req.out_len;
	return ctl->result;
}

void process_close(struct scheme_ctx *ctx)
{
	if (ctx->ctl) {
		shm_watched = NULL;
		sigaction(SIGCHLD, &shm_saved_chld, NULL);
	}
	server_stop(ctx);
	if (ctx->sock >= 0)
		close(ctx->sock);
	if (ctx->ctl)
		munmap(ctx->ctl, sizeof *ctx->ctl);
}
