/*
 * SFIO behind a process boundary: SFIO's interface, every call made by a
 * server process that holds the real streams (proxy_server.c), one request
 * and one reply over a socketpair.  A program includes this header in place
 * of SFIO's and links libsfio_proxy.so instead of libgvpr.so.2.  Its
 * streams are handles: numbers the server handed out, never memory the
 * caller can read, so SFIO's in-line macros are calls here too.
 */
#ifndef SFIO_PROXY_H
#define SFIO_PROXY_H

#include "sfio_inline_calls.h"

/* Closes the descriptor under f in the server, as a caller of plain SFIO
 * closes sffileno(f): the datatype's BAD_FD (proxy_stream.c).  0 or -1. */
int sfio_proxy_close_fd(Sfio_t *f);

#endif
