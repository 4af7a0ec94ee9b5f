/*
 * The functions a library in front of SFIO (Robust SFIO, the guarded call)
 * forwards to the real SFIO, found in libgvpr.so.2 itself, so that its own
 * wrappers, which carry the same names, are never found instead.
 */
#ifndef SFIO_FORWARDED_H
#define SFIO_FORWARDED_H

#include "sfio_abi.h"

#define SFIO_FORWARDED_FUNCTIONS(X) \
	X(sfnew) X(sfopen) X(sfpopen) X(sftmp) X(sfclose) X(sfstack) X(sfswap) \
	X(sfpool) X(sfset) X(sfsetfd) X(sfsetbuf) X(sfsync) X(sfpurge) X(sfdisc) \
	X(sfraise) X(sfresize) X(sfread) X(sfwrite) X(sfreserve) X(sfmove) \
	X(sfgetr) X(sfputr) X(sfnputc) X(sfungetc) X(sfseek) X(sftell) X(sfsize) \
	X(sfvprintf) X(sfvsprintf) X(sfvscanf) X(sfvsscanf) X(_sffilbuf) X(_sfflsbuf)

#endif
