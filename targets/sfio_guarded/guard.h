/*
 * The guard around one call into SFIO (guard.c).  The handler is installed
 * on the way in and the one before it put back on the way out, so that a
 * fault outside SFIO still reaches whoever handled it before (trebuchet's
 * crash-site handler, in a campaign).  The signal mask is saved by
 * sigsetjmp, so that the fault path leaves SIGSEGV and SIGBUS unblocked.
 *
 * libgvpr.so.2 calls its own exported functions through the PLT, so with
 * this library linked ahead of it SFIO's internal calls (sfclose calling
 * sfsync, ...) arrive at the wrappers too: inside a guarded call they go
 * straight to the real function, under the guard already set.  Like this
 * build of SFIO, the guard is not thread-safe.
 */
#ifndef SFIO_GUARD_H
#define SFIO_GUARD_H

#include <errno.h>
#include <setjmp.h>
#include <signal.h>

#include "sfio_forwarded.h"

#pragma GCC visibility push(hidden)

#define SG_REAL_FUNCTIONS(X) SFIO_FORWARDED_FUNCTIONS(X)

#define SG_REAL_FIELD(name) __typeof__(name) *name;
struct sg_real {
	SG_REAL_FUNCTIONS(SG_REAL_FIELD)
};

extern struct sg_real sg_real;
extern int sg_depth;           /* guarded calls in progress: 0 or 1 */
extern sigjmp_buf sg_env;

void sg_enter(struct sigaction saved[2]);
void sg_leave(const struct sigaction saved[2]);

/* The body of a wrapper: call(args) under the guard, or straight through
 * when a guarded call is already in progress; on a fault, `fail` with errno
 * EFAULT. */
#define SG_GUARDED(fail, call, ...) do { \
	struct sigaction saved_[2]; \
	__typeof__(call(__VA_ARGS__)) volatile result_; \
	volatile int faulted_ = 0; \
	if (sg_depth) \
		return call(__VA_ARGS__); \
	sg_enter(saved_); \
	if (sigsetjmp(sg_env, 1)) \
		faulted_ = 1, result_ = (fail); \
	else \
		result_ = call(__VA_ARGS__); \
	sg_leave(saved_); \
	if (faulted_) \
		errno = EFAULT; \
	return result_; \
} while (0)

#pragma GCC visibility pop

#endif
