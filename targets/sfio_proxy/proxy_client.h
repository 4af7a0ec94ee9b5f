/*
 * The caller's side of the boundary (proxy_client.c) as the functions
 * (proxy_functions.c) use it.
 */
#ifndef SFIO_PROXY_CLIENT_H
#define SFIO_PROXY_CLIENT_H

#include "proxy_wire.h"

#pragma GCC visibility push(hidden)

/* One call: the request (its len[] says how long b0 and b1 are) and a
 * descriptor to hand over (or -1); the reply's return value, errno set from
 * it, and the length of its bytes in *reply_len (NULL: none wanted). */
int64_t proxy_call(struct proxy_request *rq, int fd, const void *b0, const void *b1,
		   size_t *reply_len);
/* The last reply's bytes, until the next call. */
const unsigned char *proxy_reply_data(void);

#pragma GCC visibility pop

#endif
