/*
 * The selftest target's functions (selftest.h).  Each does exactly one bad
 * thing, so a test can say which outcome it must have.
 */
#include <assert.h>
#include <fcntl.h>
#include <stdio.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "selftest.h"

int st_return(size_t a, size_t b, size_t c, size_t d)
{
	return (int)((a ^ b ^ c ^ d) & 1);
}

int st_crash(int code)
{
	*(volatile int *)(size_t)code = 1;  /* code is 0 or small: no page there */
	return 0;
}

int st_abort(int code)
{
	abort();
}

/* Talks on stderr, more than the harness keeps of it, then ends by code:
 * 0 returns (PASS), above 0 fails an assertion (ABORT, SIGABRT, with
 * glibc's message last), below 0 blocks (RESTART). */
int st_complain(int code)
{
	char line[64];
	int i, n;

	for (i = 1; i <= ST_COMPLAIN_LINES; i++) {
		n = snprintf(line, sizeof(line), "st_complain: line %d of %d\n", i, ST_COMPLAIN_LINES);
		if (write(2, line, (size_t)n) != n)
			return -1;
	}
	if (code < 0) {
		fputs("st_complain: blocking now\n", stderr);
		for (;;)
			pause();
	}
	assert(code == 0);
	return 0;
}

int st_hang(int code)
{
	for (;;)
		pause();
}

int st_spin(int code)
{
	volatile unsigned long n = 0;

	for (;;)
		n++;
}

int st_compute(void)
{
	struct timespec t;
	volatile unsigned long n = 0;

	do {
		n++;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	} while (t.tv_sec * 1000000LL + t.tv_nsec / 1000 < ST_COMPUTE_US);
	return 0;
}

/* Recurses without end, so the stack overflows (SIGSEGV at its guard).
 * The volatile frame and the addition after the call keep the compiler
 * from making a loop of it. */
int st_recurse(int code)
{
	volatile char frame[64];

	frame[0] = (char)code;
	return st_recurse(code + 1) + frame[0];
}

int st_slow(size_t a, size_t b)
{
	struct timespec tenth = { 0, 100000000 };

	return nanosleep(&tenth, NULL);
}

int st_exit(int code)
{
	exit(code & 0xff);
}

/* Leaves a child behind in the test's process group. */
int st_fork_linger(int code)
{
	pid_t pid = fork();

	if (pid == 0)
		for (;;)
			pause();
	return pid > 0 ? 0 : -1;
}

/* Leaves a child behind that escapes the process group and the session. */
int st_fork_escape(int code)
{
	pid_t pid = fork();

	if (pid == 0) {
		setsid();
		for (;;)
			pause();
	}
	return pid > 0 ? 0 : -1;
}

int st_scribble_fds(int code)
{
	char garbage[512];
	int fd, hits = 0;

	memset(garbage, 0xA5, sizeof(garbage));
	for (fd = 0; fd < 1024; fd++)
		hits += write(fd, garbage, sizeof(garbage)) > 0;
	return hits;
}

int st_close_fds(int code)
{
	int fd, closed = 0;

	for (fd = 0; fd < 1024; fd++)
		closed += close(fd) == 0;
	return closed;
}

/* Allocates until the allocator says no.  It touches one byte per MiB:
 * what is tested is the executor's address-space limit, and zeroing every
 * page would make the case's duration (and so its outcome) the machine's. */
long st_allocate(int code)
{
	long mib = 0;
	char *p;

	while ((p = malloc(1 << 20))) {
		p[0] = 1;
		mib++;
	}
	return mib;
}

int st_kill_parent(int code)
{
	return kill(getppid(), SIGKILL);
}

/* The toggle lives in the directory the caller shares with test processes
 * (TREBUCHET_SHARE), which the sandbox shows as scratch/share: the test
 * process works in scratch/sN. */
#define FLAKY_TOGGLE "../share/st_flaky.toggle"

int st_flaky(void)
{
	int fd = open(FLAKY_TOGGLE, O_RDWR);
	char state = '0';

	if (fd < 0)
		return 0;
	if (read(fd, &state, 1) == 1 && pwrite(fd, state == '1' ? "0" : "1", 1, 0) == 1 &&
	    state == '1')
		raise(SIGSEGV);
	close(fd);
	return 0;
}

int st_take_value(int value)
{
	return value;
}

/* FNV-1a over every environment string, in order; of TMPDIR and HOME
 * only the name, since they name the run's own scratch directory. */
static long long environment_hash(void)
{
	extern char **environ;
	unsigned long long h = 14695981039346656037ull;

	for (char **e = environ; *e; e++) {
		int scratch = !strncmp(*e, "TMPDIR=", 7) || !strncmp(*e, "HOME=", 5);

		for (const char *c = *e; *c && !(scratch && c > *e && c[-1] == '='); c++)
			h = (h ^ (unsigned char)*c) * 1099511628211ull;
		h = (h ^ 0xff) * 1099511628211ull;
	}
	return (long long)(h >> 1);
}

static long long ignored_signals(void)
{
	long long mask = 0;
	struct sigaction sa;

	for (int sig = 1; sig < 63; sig++)
		if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
			mask |= 1ll << sig;
	return mask;
}

long long st_world(int what)
{
	volatile char local;
	struct rlimit rl;
	mode_t mask;
	void *block;
	int fd;

	switch (what) {
	case 0:
		return (long long)(size_t)&local;
	case 1:
		block = malloc(64);
		return (long long)(size_t)block;
	case -1:
		return environment_hash();
	case INT_MAX:
		mask = umask(0);
		return mask;
	case INT_MIN:
		return ignored_signals();
	case 255:
		fd = open("/dev/tty", O_RDWR);
		return fd >= 0;
	default:
		getrlimit(RLIMIT_NOFILE, &rl);
		return (long long)rl.rlim_cur;
	}
}
