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
 * run's scratch directory was made in: then it flips the file's first byte
 * between '0' and '1' and dies of SIGSEGV when it read '1', so it fails on
 * alternate runs.  The gate's test of a flaky new failure. */
int st_flaky(void);
/* What the test process sees, by code: 0 a stack address, 1 a heap
 * address, -1 a hash of the environment, INT_MAX the umask, INT_MIN the
 * ignored signals, 255 whether /dev/tty opens, else the descriptor limit. */
long long st_world(int what);

#endif
