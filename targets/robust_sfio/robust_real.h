/*
 * The real SFIO behind Robust SFIO: every function a wrapper forwards to,
 * looked up in libgvpr.so.2 itself (dlopen + dlsym on its handle), so that
 * the wrappers, which carry the same names, are never found instead.
 *
 * libgvpr.so.2 calls its own exported functions through the PLT, so once
 * this library is linked ahead of it, SFIO's internal calls (sfclose calling
 * sfsync, sfopen calling sfnew, ...) arrive at the wrappers too.  RS_CALL
 * counts the depth of real calls in progress, and a wrapper entered at depth
 * > 0 forwards at once (RS_NESTED): SFIO's own calls are SFIO's business and
 * are neither checked twice nor refused for the locked states SFIO makes them
 * in.  Like this build of SFIO, the library is not thread-safe.
 */
#ifndef ROBUST_REAL_H
#define ROBUST_REAL_H

#include "robust_check.h"
#include "robust_pool.h"
#include "sfio_forwarded.h"

#pragma GCC visibility push(hidden)  /* the library's own, not its interface */

#define RS_REAL_FUNCTIONS(X) SFIO_FORWARDED_FUNCTIONS(X)

#define RS_REAL_FIELD(name) __typeof__(name) *name;
struct rs_real {
	RS_REAL_FUNCTIONS(RS_REAL_FIELD)
};

extern struct rs_real rs_real;
extern int rs_depth;

/* Calls the real function, counting the depth while it runs. */
#define RS_CALL(name, ...) ({ \
	__typeof__(rs_real.name(__VA_ARGS__)) rs_result_; \
	rs_depth++; \
	rs_result_ = rs_real.name(__VA_ARGS__); \
	rs_depth--; \
	rs_result_; })

/* Inside a real SFIO call: forward without checks.  The depth is already
 * counted by the outer call, so the forward is a plain (tail) call. */
#define RS_NESTED() (rs_depth > 0)
#define RS_FORWARD_IF_NESTED(name, ...) do { \
	if (RS_NESTED()) \
		return rs_real.name(__VA_ARGS__); \
} while (0)

/* RS_CALL of a function that may allocate a stream struct: the struct is
 * given a slot of the stream pool if one is free (robust_pool.h). */
#define RS_CALL_MAKING(name, ...) ({ \
	Sfio_t *rs_made_; \
	rs_pool_arm(); \
	rs_made_ = RS_CALL(name, __VA_ARGS__); \
	rs_pool_disarm(); \
	rs_made_; })

/* Whether f is one of SFIO's standard streams, which are static and never
 * go away: its bit among the three (1, 2, 4), or 0. */
unsigned rs_standard_stream(const Sfio_t *f);

#pragma GCC visibility pop

#endif
