/*
 * The fork server (forkserver.h).  One loop: launch cases into free slots,
 * poll a signalfd for SIGCHLD and the request pipe with the nearest deadline
 * as timeout, reap and report, and kill what has overrun.  It is a child
 * subreaper, so whatever a test forks and abandons comes back to it to be
 * killed and reaped.
 *
 * The watchdog follows what a call does, so that a slow call's outcome does
 * not depend on how busy the machine is.  A call that computes is stopped by
 * its CPU limit (testprocess.c), whatever other processes share the cores.  A
 * call still asleep at the wall-clock deadline is killed there: blocked, it
 * would wait for ever.  A call found runnable at the deadline is computing
 * but has been kept from the CPU: its deadline moves on and its CPU limit
 * decides, up to WALL_LIMIT deadlines in all.
 *
 * With crash sites on, a call killed at its wall-clock deadline is first
 * sent SIGXCPU, so that its handler (crashsite.h) records where it was, and
 * its process group is killed KILL_GRACE_US later if it has not died of it.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "crashsite.h"
#include "channel.h"
#include "forkserver.h"
#include "outcome.h"
#include "scratch.h"
#include "crashsite_reader.h"
#include "world.h"

#define QUEUE_SIZE 1024
/* The records' mapping is as large whatever --jobs is (channel.c seals
 * the slots in use during a call and closes the rest).  Its size decided
 * where every later mapping went, a value's pages included: with two
 * slots a server (--jobs 3 and more on two cores) instead of one, the
 * mapping took two pages, every value's page and its guard landed a page
 * lower, and fmemopen's write, which reads the last
 * byte of a request that wraps round the address space, met a mapped page
 * or none: fwrite cases 7366 and 14317 on a MEMSTREAM (seed 7) passed at
 * --jobs 1 and 2 and crashed at --jobs 4.  Unused, its pages cost nothing. */
#define RECORDS_BYTES ((size_t)TB_SERVER_MAX_JOBS * sizeof(struct tb_record))
#define WALL_LIMIT 10  /* most deadlines a runnable call is given */
/* Results are sent in batches of this many, or sooner when the request
 * queue runs dry (the executor may be waiting on them to send more): fewer
 * writes for the server, fewer wake-ups for the executor. */
#define RESULT_BATCH 64
/* ... and no result waits longer than this: when slow cases dominate, the
 * executor still hears of each one soon (to store it, to show progress) */
#define RESULT_WAIT_US 200000
/* How long a call sent SIGXCPU at its deadline has to die of it before its
 * group is killed.  The handler's work is a few hundred microseconds; the
 * rest is room for a loaded machine to schedule the process.  Only a
 * process that cannot take the signal (it blocked it, is stopped, or sleeps
 * uninterruptibly) waits it out, and its RESTART is this much longer. */
#define KILL_GRACE_US 500000

struct slot {
	pid_t pid;  /* 0: free */
	int timed_out;
	long long kill_at_us;  /* when its group is killed after SIGXCPU, 0: done or none */
	int extensions;  /* deadlines passed while runnable */
	struct tb_request req;
	long long start_us;
	long long deadline_us;
	long long timeout_us;  /* its deadline's step: --timeout, more on a second look */
	struct tb_record *record;
	char dir[16];    /* its directory in the scratch root */
	int dir_fd;      /* kept open to empty it after each case */
	int err_fd;      /* a memory file: its cases' descriptor 2 */
};

/* The server's mutable state.  It lives in a mapping that fork() does not
 * copy (MADV_DONTFORK): test processes never need it, and the server's
 * writes to it after each fork would otherwise each cost a copy-on-write
 * fault.  A test process must therefore not touch it: launch() hands the
 * child only copies on its stack. */
struct server {
	const struct tb_server_config *cfg;
	struct slot slots[TB_SERVER_MAX_JOBS];
	int running;
	struct tb_request queue[QUEUE_SIZE];
	int head, count;
	int request_eof;
	uint64_t nonce_state;
	int result_fd;
	/* results not yet sent, as they travel (outcome.h) */
	char out[(RESULT_BATCH + TB_SERVER_MAX_JOBS) * sizeof(struct tb_result)];
	size_t out_bytes;
	int nout;
	long long first_out_us;  /* when the first of them was classified */
	char dirents[8192];
};

static uint64_t next_nonce(struct server *s)
{
	uint64_t z = (s->nonce_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	return z ^ (z >> 31);
}

/* The executor's stderr, kept above the descriptors the sandbox replaces. */
static int server_stderr = 2;
static int under_valgrind;

static void die(const char *what)
{
	dprintf(server_stderr, "trebuchet-exec: fork server: %s: %s\n", what, strerror(errno));
	_exit(3);
}

/* In a test process under Valgrind: the mappings fork() did not pass on
 * (MADV_DONTFORK: the server's state, the slots' start times) unmapped,
 * which Valgrind then knows they are.  It does not follow madvise, and at
 * the process's end its leak scan, which XML output makes it run, read
 * each word of them and caught a fault on each: 200,000 faults, 0.8 s of
 * every case. */
static void forget_unforked(struct server *s, const struct tb_server_config *cfg)
{
	munmap(s, sizeof(*s));
	if (cfg->slot_started)
		munmap((void *)cfg->slot_started, (size_t)getpagesize());
}

static void launch(struct server *s, struct slot *slot)
{
	/* what the child needs, copied out of the server's unforked state */
	const struct tb_server_config *cfg = s->cfg;
	struct tb_request req = s->queue[s->head];
	struct tb_record *record = slot->record;
	int err_fd = slot->err_fd;
	int look = req.second_look ? TB_SECOND_LOOK : 1;
	char dir[sizeof(slot->dir)];
	pid_t pid;

	memcpy(dir, slot->dir, sizeof(dir));
	memset(record, 0, TB_RECORD_CLEARED);
	record->nonce = next_nonce(s);
	record->building = -1;
	slot->req = req;
	s->head = (s->head + 1) % QUEUE_SIZE;
	s->count--;
	slot->start_us = tb_now_us();
	if (cfg->slot_started)
		cfg->slot_started[cfg->first_slot + (slot - s->slots)] = slot->start_us;
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		if (under_valgrind)
			forget_unforked(s, cfg);
		tb_case_run(&cfg->sandbox, &cfg->target->functions[req.fn], req.case_index,
			    record, dir, err_fd, cfg->sandbox.cpu_seconds * (rlim_t)look);
	}
	/* no setpgid(pid, pid) here: until the child has made its group, the
	 * watchdog's kill(pid) still reaches it */
	slot->pid = pid;
	slot->timed_out = 0;
	slot->kill_at_us = 0;
	slot->extensions = 0;
	slot->timeout_us = s->cfg->timeout_ms * 1000LL * look;
	slot->deadline_us = slot->start_us + slot->timeout_us;
	s->running++;
}

/* When the results gathered so far must go, in µs: 0 now (a full batch,
 * or the request queue dry: the executor may be waiting on them to send
 * more; or the oldest has waited RESULT_WAIT_US), -1 when there are none. */
static long long results_due_in(const struct server *s)
{
	long long left;

	if (!s->nout)
		return -1;
	if (s->nout >= RESULT_BATCH || !s->count || s->request_eof)
		return 0;
	left = s->first_out_us + RESULT_WAIT_US - tb_now_us();
	return left > 0 ? left : 0;
}

/* Sends the results gathered since the last call in one write. */
static void send_results(struct server *s)
{
	const char *p = s->out;
	size_t left = s->out_bytes;

	while (left) {
		ssize_t n = write(s->result_fd, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;  /* the executor is gone or stopping: no one reads them */
		p += n;
		left -= (size_t)n;
	}
	s->nout = 0;
	s->out_bytes = 0;
}

/* The end of what a case wrote to its descriptor 2: the last whole lines
 * that fit in TB_STDERR_TAIL bytes (or the end of one longer line). */
static uint32_t read_tail(int fd, off_t size, char *tail)
{
	off_t from = size > TB_STDERR_TAIL ? size - TB_STDERR_TAIL : 0;
	ssize_t n = pread(fd, tail, (size_t)(size - from), from);
	char *cut;

	if (n <= 0)
		return 0;
	cut = from ? memchr(tail, '\n', (size_t)n - 1) : NULL;
	if (cut) {
		n -= cut + 1 - tail;
		memmove(tail, cut + 1, (size_t)n);
	}
	return (uint32_t)n;
}

/* What a case wrote to its descriptor 2: the end of it is kept when the
 * case failed (ABORT, RESTART), where an assertion's message or a
 * library's last words are; the slot's file is emptied for the next case
 * either way.  A case that wrote nothing costs one system call (which
 * also leaves the offset the case shares at 0), and only a failing one
 * reads. */
static void take_stderr(struct slot *slot, struct tb_result *res)
{
	off_t size = lseek(slot->err_fd, 0, SEEK_END);

	res->stderr_len = 0;
	if (size <= 0)
		return;
	if (res->outcome == TB_ABORT || res->outcome == TB_RESTART)
		res->stderr_len = read_tail(slot->err_fd, size, res->stderr_tail);
	if (ftruncate(slot->err_fd, 0) || lseek(slot->err_fd, 0, SEEK_SET))
		die("emptying a slot's stderr");
}

static void finish(struct server *s, struct slot *slot, int status, const struct rusage *ru)
{
	struct tb_observation obs = {
		.status = status, .timed_out = slot->timed_out, .record = slot->record,
		.cpu_us = (long long)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1000000 +
			  ru->ru_utime.tv_usec + ru->ru_stime.tv_usec,
		.cpu_limit_us = (long long)s->cfg->sandbox.cpu_seconds * 1000000 *
				(slot->req.second_look ? TB_SECOND_LOOK : 1),
	};
	struct tb_result result, *res = &result;
	long long now = tb_now_us();

	if (++s->nout == 1)
		s->first_out_us = now;
	tb_classify(&obs, res);
	res->fn = slot->req.fn;
	res->case_index = slot->req.case_index;
	res->tag = slot->req.tag;
	res->second_look = slot->req.second_look;
	res->duration_us = now - slot->start_us;
	res->cpu_us = obs.cpu_us;
	res->pid = slot->pid;
	/* anything the test left running in its group goes with it */
	kill(-slot->pid, SIGKILL);
	take_stderr(slot, res);
	res->site_len = res->outcome == TB_ABORT || res->outcome == TB_RESTART
			? tb_site_read(slot->record, &res->site) : 0;
	s->out_bytes += tb_result_pack(res, s->out + s->out_bytes);
	tb_empty_dir(slot->dir_fd, s->dirents, sizeof(s->dirents));
	if (s->cfg->slot_started)
		s->cfg->slot_started[s->cfg->first_slot + (slot - s->slots)] = 0;
	slot->pid = 0;
	s->running--;
}

static struct slot *slot_of(struct server *s, pid_t pid)
{
	int i;

	for (i = 0; i < s->cfg->jobs; i++)
		if (s->slots[i].pid == pid)
			return &s->slots[i];
	return NULL;  /* an orphan adopted as subreaper: already killed */
}

static void reap(struct server *s)
{
	struct rusage ru;
	int status;
	pid_t pid;

	while ((pid = wait4(-1, &status, WNOHANG, &ru)) > 0) {
		struct slot *slot = slot_of(s, pid);

		if (slot)
			finish(s, slot, status, &ru);
	}
}

/* Whether pid is running or waiting for a CPU (state R), as opposed to
 * asleep or stopped.  Read only when a deadline passes. */
static int is_runnable(pid_t pid)
{
	char path[64], stat[512], *end;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, stat, sizeof(stat) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	stat[n] = '\0';
	end = strrchr(stat, ')');
	return end && end[1] == ' ' && end[2] == 'R';
}

static void kill_case(struct slot *slot)
{
	kill(-slot->pid, SIGKILL);
	kill(slot->pid, SIGKILL);  /* in case it left its group */
	slot->kill_at_us = 0;
}

/* Whether the slot's case is inside its call: only there is SIGXCPU sent
 * first.  A value's setup or cleanup that hangs is killed at once, as
 * always, so that its SETUP or cleanup flag keeps the signal it had. */
static int in_call(const struct slot *slot)
{
	const struct tb_record *r = slot->record;

	return r->calling_mark == tb_mark(r->nonce, TB_MARK_CALLING, 0, 0, 0) &&
	       !r->returned_mark;
}

/* The deadline passed: kill the case, or with crash sites on and the case
 * in its call, have its handler record where it is first. */
static void deadline_passed(struct server *s, struct slot *slot, long long now)
{
	slot->timed_out = 1;
	if (s->cfg->crash_sites && in_call(slot)) {
		kill(slot->pid, SIGXCPU);
		slot->kill_at_us = now + KILL_GRACE_US;
	} else {
		kill_case(slot);
	}
}

static long long watchdog(struct server *s)
{
	long long now = tb_now_us(), next = -1;
	int i;

	for (i = 0; i < s->cfg->jobs; i++) {
		struct slot *slot = &s->slots[i];
		long long due;

		if (!slot->pid)
			continue;
		if (slot->timed_out) {
			if (!slot->kill_at_us)
				continue;
			if (now >= slot->kill_at_us)
				kill_case(slot);
			due = slot->kill_at_us;
		} else if (now >= slot->deadline_us && is_runnable(slot->pid) &&
			   ++slot->extensions < WALL_LIMIT) {
			due = slot->deadline_us += slot->timeout_us;
		} else if (now >= slot->deadline_us) {
			deadline_passed(s, slot, now);
			due = slot->kill_at_us;
		} else {
			due = slot->deadline_us;
		}
		if (due && (next < 0 || due < next))
			next = due;
	}
	return next < 0 ? -1 : (next - now + 999) / 1000;
}

static void read_requests(struct server *s, int fd)
{
	struct tb_request buf[64];
	int room = QUEUE_SIZE - s->count;
	int want = room < 64 ? room : 64;
	ssize_t n = read(fd, buf, (size_t)want * sizeof(buf[0]));
	int i;

	if (n < 0 && errno == EINTR)
		return;
	if (n <= 0) {
		s->request_eof = 1;
		return;
	}
	/* requests are written whole and are smaller than PIPE_BUF */
	for (i = 0; i < (int)(n / (ssize_t)sizeof(buf[0])); i++) {
		s->queue[(s->head + s->count) % QUEUE_SIZE] = buf[i];
		s->count++;
	}
}

static void launch_ready(struct server *s)
{
	int i;

	for (i = 0; i < s->cfg->jobs && s->count; i++)
		if (!s->slots[i].pid)
			launch(s, &s->slots[i]);
}

/* Kills and reaps every descendant still alive: the cases in flight and
 * anything a test abandoned that escaped its process group. */
static void kill_descendants(void)
{
	char path[64], buf[4096];
	int status;

	for (;;) {
		FILE *f;
		char *tok, *save;
		size_t n;

		snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)getpid());
		f = fopen(path, "r");
		n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
		if (f)
			fclose(f);
		buf[n] = '\0';
		for (tok = strtok_r(buf, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
			kill(-atoi(tok), SIGKILL);
			kill(atoi(tok), SIGKILL);
		}
		if (waitpid(-1, &status, 0) < 0 && errno == ECHILD)
			return;
	}
}

static int make_slot(const struct tb_server_config *cfg, struct slot *slot,
		     struct tb_record *record, int index)
{
	const struct tb_sandbox *sb = &cfg->sandbox;

	slot->record = record;
	/* three digits for every slot (TB_SERVER_MAX_JOBS): a case's working
	 * directory, which a library may copy (getcwd), is as long in any
	 * slot, whichever slot the order of the cases gives it */
	snprintf(slot->dir, sizeof(slot->dir), "s%03d", cfg->first_slot + index);
	if (mkdir(slot->dir, 0700) ||
	    (sb->drop_privileges && chown(slot->dir, sb->uid, sb->gid)))
		return -1;
	slot->dir_fd = open(slot->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/* a memory file, not a file in the scratch directory: a case sees
	 * nothing of it there, and cannot remove it */
	slot->err_fd = memfd_create("stderr", MFD_CLOEXEC);
	return slot->dir_fd < 0 || slot->err_fd < 0 ? -1 : 0;
}

static struct server *new_server(const struct tb_server_config *cfg, int result_fd)
{
	struct server *s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (s == MAP_FAILED || madvise(s, sizeof(*s), MADV_DONTFORK))
		die("mapping the server's state");
	s->cfg = cfg;
	s->result_fd = result_fd;
	s->nonce_state = (uint64_t)tb_now_us() ^ ((uint64_t)getpid() << 32);
	return s;
}

static void serve(const struct tb_server_config *cfg, int request_fd, int result_fd,
		  struct tb_record *records)
{
	struct server *sp = new_server(cfg, result_fd);
	struct pollfd fds[2];
	sigset_t chld, blocked;
	int i;

	for (i = 0; i < cfg->jobs; i++)
		if (make_slot(cfg, &sp->slots[i], &records[i], i))
			die("making a slot directory");

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	/* and SIGPIPE: results written to an executor that stopped reading
	 * fail with EPIPE, and the server still stops its cases (a test
	 * process sets its own mask, testprocess.c) */
	blocked = chld;
	sigaddset(&blocked, SIGPIPE);
	if (sigprocmask(SIG_BLOCK, &blocked, NULL))
		die("sigprocmask");
	fds[0].fd = signalfd(-1, &chld, SFD_NONBLOCK | SFD_CLOEXEC);
	fds[0].events = POLLIN;
	fds[1].fd = request_fd;
	fds[1].events = POLLIN;
	if (fds[0].fd < 0)
		die("signalfd");

	for (;;) {
		long long timeout, send_in;

		launch_ready(sp);
		send_in = results_due_in(sp);
		if (send_in == 0)
			send_results(sp), send_in = -1;
		if (sp->request_eof && !sp->running && !sp->count)
			break;
		timeout = watchdog(sp);
		if (send_in > 0 && (timeout < 0 || (send_in + 999) / 1000 < timeout))
			timeout = (send_in + 999) / 1000;
		/* stop reading requests while the queue is full or closed */
		fds[1].fd = (sp->request_eof || sp->count == QUEUE_SIZE) ? -1 : request_fd;
		if (poll(fds, 2, (int)timeout) < 0 && errno != EINTR)
			die("poll");
		if (fds[0].revents) {
			struct signalfd_siginfo info[16];

			/* the count does not matter: reap() asks waitpid() */
			while (read(fds[0].fd, info, sizeof(info)) == (ssize_t)sizeof(info))
				;
			reap(sp);
		}
		if (fds[1].fd >= 0 && fds[1].revents)
			read_requests(sp, request_fd);
		if (sp->request_eof && sp->running) {
			/* the executor stopped early: drop what is in flight */
			for (i = 0; i < cfg->jobs; i++)
				if (sp->slots[i].pid)
					kill(-sp->slots[i].pid, SIGKILL);
			break;
		}
	}
	kill_descendants();
}

static int ascending_fds(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Closes every descriptor from 3 up except the three given. */
static void keep_only(int a, int b, int c)
{
	int keep[3] = { a, b, c }, i;
	unsigned from = 3;

	qsort(keep, 3, sizeof(keep[0]), ascending_fds);
	for (i = 0; i < 3; i++) {
		if ((unsigned)keep[i] > from)
			close_range(from, (unsigned)keep[i] - 1, 0);
		from = (unsigned)keep[i] + 1;
	}
	close_range(from, ~0U, 0);
}

/* What a server says once, before any result: whether its sandbox is up. */
struct hello {
	int ok;
	char why[400];
};

/* The server and every test process it forks stay on one core (pool.c
 * gives each server its own).  A test process then starts on the core where
 * its fork just wrote its page tables and the server's pages it shares, and
 * both stay in that core's caches: about a twentieth more cases a second on
 * st_return than when the scheduler spread them (bench/throughput.py).  A
 * call that computes shares its server's core with the server's other
 * slots; its CPU limit, not the wall clock, still decides when it stops. */
static void pin(int cpu)
{
	cpu_set_t one;

	if (cpu < 0)
		return;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	sched_setaffinity(0, sizeof(one), &one);  /* a refusal leaves it unpinned */
}

static void say_hello(int fd, int ok, const char *why)
{
	struct hello h = { .ok = ok };

	snprintf(h.why, sizeof(h.why), "%s", why);
	if (write(fd, &h, sizeof(h)) != (ssize_t)sizeof(h) || !ok)
		_exit(3);
}

/* The executor reads every request's result before it sends more than the
 * pipe can hold, so a graceful stop is the request pipe closing with
 * nothing queued; an early stop is the pipe closing with cases in flight. */
static void become_server(const struct tb_server_config *cfg, int request_fd,
			  int result_fd, struct tb_record *records, pid_t executor)
{
	char why[sizeof(((struct hello *)0)->why)] = "";

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* in a PID namespace of its own its parent is outside: no pid to see
	 * (the request pipe's end tells it the executor is gone) */
	if (cfg->sandbox.isolation == TB_ISOLATION_NONE && getppid() != executor)
		_exit(0);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	/* its own session: a Ctrl-C meant for the executor does not kill it,
	 * and no test process has a controlling terminal, whether or not the
	 * run was started from one (setsid per case would cost a tenth of the
	 * throughput) */
	setsid();
	if (chdir(cfg->scratch_root))
		die("chdir to the scratch directory");
	if (tb_isolate(cfg->sandbox.isolation, cfg->scratch_root, cfg->share, why, sizeof(why)))
		say_hello(result_fd, 0, why);
	/* the slots' start times are for the executor's eyes: test processes
	 * must not inherit (or scribble on) them */
	if (cfg->slot_started)  /* the mapping's start: one page holds 256 slots */
		madvise((void *)cfg->slot_started, (size_t)getpagesize(), MADV_DONTFORK);
	server_stderr = fcntl(2, F_DUPFD_CLOEXEC, 10);
	under_valgrind = tb_world_under_valgrind();
	if (server_stderr < 0 || tb_sandbox_inherited(&cfg->sandbox))
		die("applying the sandbox");
	if (tb_channel_set(records, cfg->jobs, TB_SERVER_MAX_JOBS))
		die("protecting the unused records");
	/* after the sandbox, which resets every signal's disposition */
	if (cfg->crash_sites && tb_crashsite_install(records, cfg->jobs))
		die("installing the crash handler");
	/* nothing else of the executor's: a pipe end of another server kept
	 * open here would keep that server from ever seeing its end of input */
	keep_only(request_fd, result_fd, server_stderr);
	pin(cfg->cpu);
	say_hello(result_fd, 1, "");
	tb_world_memory();
	serve(cfg, request_fd, result_fd, records);
	_exit(0);
}

int tb_server_ready(struct tb_server *srv, char *why, size_t len)
{
	struct hello h;
	size_t got = 0;

	while (got < sizeof(h)) {
		ssize_t n = read(srv->result_fd, (char *)&h + got, sizeof(h) - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			snprintf(why, len, "the fork server ended before it was ready");
			return -1;
		}
		got += (size_t)n;
	}
	h.why[sizeof(h.why) - 1] = '\0';
	snprintf(why, len, "%s", h.why);
	return h.ok ? 0 : -1;
}

int tb_server_start(const struct tb_server_config *cfg, struct tb_server *srv,
		    char *why, size_t len)
{
	struct tb_record *records;
	int req[2], res[2];
	pid_t executor = getpid();

	srv->pid = -1;
	srv->request_fd = srv->result_fd = -1;
	records = mmap(NULL, RECORDS_BYTES, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (records == MAP_FAILED || pipe2(req, O_CLOEXEC) || pipe2(res, O_CLOEXEC)) {
		snprintf(why, len, "%s", strerror(errno));
		return -1;
	}
	srv->pid = tb_isolation_fork(cfg->sandbox.isolation);
	if (srv->pid < 0) {
		snprintf(why, len, cfg->sandbox.isolation == TB_ISOLATION_NONE ? "fork: %s"
			 : "the kernel refused new namespaces (%s)", strerror(errno));
		close(req[0]), close(req[1]), close(res[0]), close(res[1]);
		munmap(records, RECORDS_BYTES);
		return -1;
	}
	if (srv->pid == 0) {
		close(req[1]);
		close(res[0]);
		become_server(cfg, req[0], res[1], records, executor);
	}
	close(req[0]);
	close(res[1]);
	munmap(records, RECORDS_BYTES);
	srv->request_fd = req[1];
	srv->result_fd = res[0];
	return 0;
}

int tb_server_stop(struct tb_server *srv)
{
	int status = 0;

	if (srv->pid <= 0)
		return 0;
	/* both ends closed before the wait: a server stopped early may be
	 * blocked writing results no one reads any more (their tails and
	 * sites fill a pipe), and would wait for ever, and the executor on it */
	if (srv->request_fd >= 0)
		close(srv->request_fd);
	if (srv->result_fd >= 0)
		close(srv->result_fd);
	srv->request_fd = srv->result_fd = -1;
	while (waitpid(srv->pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}
