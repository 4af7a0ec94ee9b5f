/*
 * Functions that misbehave on purpose: the executor's own test bed, and the
 * function the throughput benchmark calls.
 */
#ifndef TREBUCHET_SELFTEST_H
#define TREBUCHET_SELFTEST_H

#include <stddef.h>

int st_return(size_t a, size_t b, size_t c, size_t d);
int st_crash(int code);
int st_abort(int code);
/* lines st_complain writes to stderr before it ends */
#define ST_COMPLAIN_LINES 40
int st_complain(int code);
int st_hang(int code);
int st_spin(int code);
/* Computes for ST_COMPUTE_US of CPU time, then returns 0: just past the
 * CPU limit of a run with --timeout 1, and well inside four times it. */
#define ST_COMPUTE_US 1200000
int st_compute(void);
int st_recurse(int code);
int st_exit(int code);
/* Returns after a tenth of a second: a slow case. */
int st_slow(size_t a, size_t b);
int st_fork_linger(int code);
int st_fork_escape(int code);
int st_scribble_fds(int code);
int st_close_fds(int code);
long st_allocate(int code);
int st_kill_parent(int code);
int st_take_value(int value);
/* Passes, unless a file st_flaky.toggle (mode 0666) is in the directory the
 * caller shares with test processes (TREBUCHET_SHARE): then it flips the file's first byte
 * between '0' and '1' and dies of SIGSEGV when it read '1', so it fails on
 * alternate runs.  The gate's test of a flaky new failure. */
int st_flaky(void);
/* What the test process sees, by code: 0 a stack address, 1 a heap
 * address, -1 a hash of the environment, INT_MAX the umask, INT_MIN the
 * ignored signals, 255 whether /dev/tty opens, else the descriptor limit. */
long long st_world(int what);

/* Hostile functions, one per way out of a run (escapes.c): each writes a
 * file st-escape-WHAT-RUN (RUN: the name of the run's scratch directory)
 * in /tmp, /var/tmp, /dev/shm, $HOME and the password file's home, the
 * directory the scratch directory is made in, or ../store beside it; or
 * connects to 127.0.0.1 at the port in ../st-escape.port beside the
 * scratch directory, creates SysV shared memory under ST_ESCAPE_SHM_KEY,
 * leaves a daemon (a session of its own, SIGTERM ignored, named
 * st-escape-d), sends SIGTERM to the pid in ../st-escape.pid, or forks
 * without bound.  0 when the attempt went through as far as it can tell. */
#define ST_ESCAPE_SHM_KEY 0x7eb5e1f
int st_escape_tmp(void);
int st_escape_var_tmp(void);
int st_escape_dev_shm(void);
int st_escape_home(void);
int st_escape_above(void);
int st_escape_store(void);
int st_escape_connect(void);
int st_escape_shm(void);
int st_escape_daemon(void);
int st_escape_signal(void);
int st_escape_fork_bomb(void);

#endif
