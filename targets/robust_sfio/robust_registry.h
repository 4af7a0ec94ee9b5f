/*
 * Robust SFIO's registry of open streams: a stream pointer is valid when the
 * library made it (sfopen, sfnew, sftmp, sfpopen, ...) or it is a standard
 * stream, and it has not been closed since (the study's first family of
 * checks).  A wild pointer is never dereferenced to find out.
 */
#ifndef ROBUST_REGISTRY_H
#define ROBUST_REGISTRY_H

#include <stdint.h>

#pragma GCC visibility push(hidden)  /* the library's own, not its interface */

/* 0, or -1 when the set cannot grow (the stream is then not known). */
int rs_stream_add(const void *f);
void rs_stream_remove(const void *f);
int rs_stream_known(const void *f);

/* Changes whenever a stream is removed, so that a remembered validation of
 * a stream can tell it has gone stale.  A variable, so that the in-line
 * fast paths of robust_sfio.h read it without a call. */
extern uint64_t rs_registry_generation;

#pragma GCC visibility pop

#endif
