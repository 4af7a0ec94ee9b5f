/*
 * The fork servers of a run.  One server is a single process: on a machine
 * of several cores it becomes the bottleneck (it pays for every fork), so a
 * run has one server per core, up to one per slot, each owning a share of
 * the slots.  The pool spreads requests to the least busy server and
 * gathers results from all of them.
 */
#ifndef TREBUCHET_POOL_H
#define TREBUCHET_POOL_H

#include <stddef.h>

#include "forkserver.h"
#include "outcome.h"

#define TB_MAX_SERVERS 64

/* What has come from a server and is not yet handed out: results travel
 * with their tails only (outcome.h), so one may arrive in parts. */
struct tb_inbox {
	char bytes[16384];  /* holds the largest result (outcome.h) */
	size_t head, len;  /* unread bytes are bytes[head .. head + len) */
};

struct tb_server_pool {
	int n;
	int slots;                       /* jobs, all servers together */
	volatile long long *slot_started; /* shared with the servers (forkserver.h) */
	struct tb_server servers[TB_MAX_SERVERS];
	size_t outstanding[TB_MAX_SERVERS];
	struct tb_inbox inbox[TB_MAX_SERVERS];
	enum tb_isolation isolation;     /* the sandbox the servers are in */
	char refused[400];               /* why not a better one, "" when none refused */
};

/* Starts min(servers, cfg->jobs) servers sharing cfg->jobs slots, in the
 * sandbox cfg->sandbox.isolation names, or in the next lower one where a
 * level is refused (pool->isolation says which, pool->refused why). */
int tb_pool_start(const struct tb_server_config *cfg, int servers, struct tb_server_pool *pool);

/* Sends each request to the server with the fewest outstanding. */
int tb_pool_send(struct tb_server_pool *pool, const struct tb_request *reqs, int n);

/* Waits up to timeout_ms for results and reads up to max of them: the
 * count, 0 if none came in time or a signal interrupted the wait, -1 if a
 * server is gone. */
int tb_pool_receive(struct tb_server_pool *pool, struct tb_result *buf, int max, int timeout_ms);

/* How many cases have been running for at least min_us. */
int tb_pool_running_longer(const struct tb_server_pool *pool, long long min_us);

size_t tb_pool_outstanding(const struct tb_server_pool *pool);

/* Whether a server has nothing in flight: the next request sent goes to
 * it (the least busy), and has its server, and so its core, to itself. */
int tb_pool_has_idle(const struct tb_server_pool *pool);

void tb_pool_stop(struct tb_server_pool *pool);

_Static_assert(sizeof(((struct tb_inbox *)0)->bytes) >= sizeof(struct tb_result),
	       "an inbox holds a whole result");

#endif
