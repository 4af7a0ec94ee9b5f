/*
 * SFIO behind a guarded call: SFIO's interface, every call into libgvpr.so.2
 * made under a SIGSEGV/SIGBUS handler and sigsetjmp, so that a fault inside
 * SFIO becomes SFIO's error value with errno EFAULT and the caller carries
 * on.  A program includes this header in place of SFIO's and links
 * libsfio_guarded.so ahead of libgvpr.so.2.  SFIO's in-line macros read the
 * stream in the caller's own code, out of any guard, so here they are
 * functions, each run under the guard as the others are.
 */
#ifndef SFIO_GUARDED_H
#define SFIO_GUARDED_H

#include "sfio_inline_calls.h"

#endif
