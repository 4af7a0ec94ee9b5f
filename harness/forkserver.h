/*
 * The fork server: a small process, forked before the executor opens the
 * store or allocates anything large, that forks one test process per case.
 * It keeps up to `jobs` cases in flight, kills a case's process group at its
 * deadline, reaps, classifies and sends one tb_result per tb_request.
 */
#ifndef TREBUCHET_FORKSERVER_H
#define TREBUCHET_FORKSERVER_H

#include <sys/types.h>

#include "testprocess.h"
#include "target.h"

#define TB_SERVER_MAX_JOBS 256

/* A call the watchdog stopped is run once more before it is called RESTART
 * (tb_request.second_look): alone, with nothing else of the run beside it,
 * at this many times its CPU limit and its wall-clock deadline.  A call that
 * needs about the limit flips with the machine's load (other processes on
 * its core stretch its CPU time and keep it asleep past its deadline); one
 * that returns within four times it is PASS, and slow. */
#define TB_SECOND_LOOK 4

struct tb_server_config {
	const struct tb_target *target;
	struct tb_sandbox sandbox;
	int jobs;
	int first_slot;            /* its slot directories are s<first_slot + i> */
	int cpu;                   /* the core it and its test processes run on, or -1 */
	long timeout_ms;
	int crash_sites;           /* test processes record where they die (crashsite.h) */
	const char *scratch_root;  /* the server works (and forks) from here */
	const char *share;         /* TREBUCHET_SHARE, or NULL (isolation.h) */
	/* the start of a mapping shared with the executor, indexed by
	 * first_slot + slot: when the slot's case started (tb_now_us()), 0 when
	 * free; read only for the progress display.  May be NULL. */
	volatile long long *slot_started;
};

struct tb_server {
	pid_t pid;
	int request_fd;  /* write tb_request here */
	int result_fd;   /* read tb_result here */
};

/* Forks a server, into the namespaces cfg->sandbox.isolation names.  0, or
 * -1 with the reason in why.  Servers set up their sandboxes at once:
 * start them all, then wait for each to be ready. */
int tb_server_start(const struct tb_server_config *cfg, struct tb_server *srv,
		    char *why, size_t len);

/* Waits until the server's sandbox is up: 0, or -1 with the reason in why
 * (its sandbox could not be set up, or it died first).  After -1,
 * tb_server_stop() still reaps it. */
int tb_server_ready(struct tb_server *srv, char *why, size_t len);

/* Closes the request pipe (the server kills what is in flight and exits)
 * and waits for it.  Returns the server's wait status. */
int tb_server_stop(struct tb_server *srv);

#endif
