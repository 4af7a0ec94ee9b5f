/*
 * The fork servers of a run (pool.h).
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <string.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "clock.h"
#include "pool.h"

/* Starts a server and, when wait, waits until it is ready. */
static int start(const struct tb_server_config *cfg, struct tb_server *srv, int wait,
		 char *why, size_t len)
{
	if (tb_server_start(cfg, srv, why, len) || (wait && tb_server_ready(srv, why, len)))
		return -1;
	return 0;
}

/* The n-th core (from 0) in set. */
static int nth_cpu(const cpu_set_t *set, int n)
{
	int cpu;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, set) && n-- == 0)
			return cpu;
	return -1;
}

int tb_pool_start(const struct tb_server_config *cfg, int servers, struct tb_server_pool *pool)
{
	struct tb_server_config share = *cfg;
	cpu_set_t allowed;
	char why[400];
	int i, ncpus;

	if (servers > cfg->jobs)
		servers = cfg->jobs;
	if (servers > TB_MAX_SERVERS)
		servers = TB_MAX_SERVERS;
	if (servers < 1)
		servers = 1;
	pool->n = 0;
	pool->slots = cfg->jobs;
	pool->slot_started = mmap(NULL, (size_t)cfg->jobs * sizeof(long long),
				  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (pool->slot_started == MAP_FAILED)
		return pool->slot_started = NULL, -1;
	share.slot_started = pool->slot_started;
	share.first_slot = 0;
	/* one core each when there are as many servers as cores this
	 * executor may use (forkserver.c, pin()); with fewer, as for runs
	 * side by side with --jobs 1, the scheduler places them */
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		CPU_ZERO(&allowed);
	ncpus = CPU_COUNT(&allowed);
	pool->refused[0] = '\0';
	for (i = 0; i < servers; i++) {
		/* the first jobs % servers servers take one slot more */
		share.jobs = cfg->jobs / servers + (i < cfg->jobs % servers);
		share.cpu = ncpus == servers ? nth_cpu(&allowed, i) : -1;
		pool->outstanding[i] = 0;
		pool->inbox[i].head = pool->inbox[i].len = 0;
		/* the first server finds what the machine allows, the
		 * others get the same or the run fails; they set up their
		 * sandboxes side by side, and are waited for together */
		while (start(&share, &pool->servers[i], i == 0, why, sizeof(why))) {
			tb_server_stop(&pool->servers[i]);
			/* refused, a level leaves none: root's test processes
			 * become nobody, who has no place in a user namespace
			 * that maps root alone */
			if (i > 0 || share.sandbox.isolation == TB_ISOLATION_NONE)
				return -1;
			snprintf(pool->refused, sizeof(pool->refused), "%s", why);
			share.sandbox.isolation = TB_ISOLATION_NONE;
		}
		pool->n++;
		share.first_slot += share.jobs;
	}
	for (i = 1; i < pool->n; i++)
		if (tb_server_ready(&pool->servers[i], why, sizeof(why)))
			return -1;
	pool->isolation = share.sandbox.isolation;
	return 0;
}

static int least_busy(const struct tb_server_pool *pool)
{
	int i, best = 0;

	for (i = 1; i < pool->n; i++)
		if (pool->outstanding[i] < pool->outstanding[best])
			best = i;
	return best;
}

/* requests in one write: whole below PIPE_BUF, as the server reads them */
#define SHARE_MAX 64
_Static_assert(SHARE_MAX * sizeof(struct tb_request) <= PIPE_BUF, "a share is one atomic write");

static int send_share(struct tb_server_pool *pool, int s, const struct tb_request *share,
		      int *count)
{
	size_t bytes = (size_t)*count * sizeof(*share);

	*count = 0;
	return write(pool->servers[s].request_fd, share, bytes) == (ssize_t)bytes ? 0 : -1;
}

int tb_pool_send(struct tb_server_pool *pool, const struct tb_request *reqs, int n)
{
	/* Each server's share goes in one write, not one per request: a
	 * write wakes a server asleep in poll(), and one wake-up per request
	 * cost the servers about as many context switches as cases.  A share
	 * is at most SHARE_MAX requests, below PIPE_BUF bytes, so it arrives whole, and a server, which
	 * reads whole requests, never sees part of one; callers keep the
	 * outstanding total below what a pipe holds. */
	struct tb_request share[TB_MAX_SERVERS][SHARE_MAX];
	int count[TB_MAX_SERVERS] = { 0 };
	int i, s;

	for (i = 0; i < n; i++) {
		s = least_busy(pool);
		if (count[s] == SHARE_MAX &&
		    send_share(pool, s, share[s], &count[s]))
			return -1;
		share[s][count[s]++] = reqs[i];
		pool->outstanding[s]++;
	}
	for (s = 0; s < pool->n; s++)
		if (count[s] && send_share(pool, s, share[s], &count[s]))
			return -1;
	return 0;
}

/* Moves the whole results in server s's inbox to buf, up to max. */
static int take_whole(struct tb_server_pool *pool, int s, struct tb_result *buf, int max)
{
	struct tb_inbox *in = &pool->inbox[s];
	int n = 0;

	while (n < max && in->len >= TB_RESULT_HEAD) {
		size_t size = tb_result_wire_size_at(in->bytes + in->head);

		if (in->len < size)
			break;
		tb_result_unpack(in->bytes + in->head, &buf[n++]);
		in->head += size;
		in->len -= size;
	}
	if (!in->len)
		in->head = 0;
	pool->outstanding[s] -= (size_t)n;
	return n;
}

/* Reads whole results from server s: at least one, up to max. */
static int read_from(struct tb_server_pool *pool, int s, struct tb_result *buf, int max)
{
	struct tb_inbox *in = &pool->inbox[s];

	for (;;) {
		int n = take_whole(pool, s, buf, max);
		ssize_t got;

		if (n)
			return n;
		/* what is left is part of one result: room after it */
		memmove(in->bytes, in->bytes + in->head, in->len);
		in->head = 0;
		got = read(pool->servers[s].result_fd, in->bytes + in->len,
			   sizeof(in->bytes) - in->len);
		if (got < 0 && errno == EINTR)
			continue;  /* a result is half read: finish it */
		if (got <= 0)
			return -1;
		in->len += (size_t)got;
	}
}

int tb_pool_receive(struct tb_server_pool *pool, struct tb_result *buf, int max, int timeout_ms)
{
	struct pollfd fds[TB_MAX_SERVERS];
	int i;

	/* results already read come first: no poll would announce them */
	for (i = 0; i < pool->n; i++) {
		int n = take_whole(pool, i, buf, max);

		if (n)
			return n;
	}
	for (i = 0; i < pool->n; i++) {
		fds[i].fd = pool->servers[i].result_fd;
		fds[i].events = POLLIN;
	}
	if (poll(fds, (nfds_t)pool->n, timeout_ms) < 0)
		return errno == EINTR ? 0 : -1;
	for (i = 0; i < pool->n; i++)
		if (fds[i].revents)
			return read_from(pool, i, buf, max);
	return 0;
}

int tb_pool_running_longer(const struct tb_server_pool *pool, long long min_us)
{
	long long now = tb_now_us();
	int i, n = 0;

	if (!pool->slot_started)
		return 0;
	for (i = 0; i < pool->slots; i++) {
		long long started = pool->slot_started[i];

		n += started && now - started >= min_us;
	}
	return n;
}

size_t tb_pool_outstanding(const struct tb_server_pool *pool)
{
	size_t total = 0;
	int i;

	for (i = 0; i < pool->n; i++)
		total += pool->outstanding[i];
	return total;
}

int tb_pool_has_idle(const struct tb_server_pool *pool)
{
	return pool->n > 0 && pool->outstanding[least_busy(pool)] == 0;
}

void tb_pool_stop(struct tb_server_pool *pool)
{
	int i;

	/* every server told first, so that they wind down side by side */
	for (i = 0; i < pool->n; i++) {
		if (pool->servers[i].request_fd >= 0)
			close(pool->servers[i].request_fd);
		pool->servers[i].request_fd = -1;
	}
	for (i = 0; i < pool->n; i++)
		tb_server_stop(&pool->servers[i]);
	pool->n = 0;
	if (pool->slot_started)
		munmap((void *)pool->slot_started, (size_t)pool->slots * sizeof(long long));
	pool->slot_started = NULL;
}
