/*
 * Copying between the caller's memory and the proxy's own messages
 * (proxy_copy.c).  The copies go through the kernel (process_vm_readv and
 * process_vm_writev on the process itself), so a pointer that is wild for
 * the length stated is an error, EFAULT, as a write(2) from it would be.
 * Built with PROXY_USER_COPY, they are memcpy and strlen in the caller's own
 * code instead, and a wild pointer kills the caller there.
 */
#ifndef SFIO_PROXY_COPY_H
#define SFIO_PROXY_COPY_H

#include <stddef.h>

/* The n bytes at p, in memory of the proxy's (free it); NULL with errno
 * EFAULT when they cannot all be read, ENOMEM when they cannot be held. */
void *proxy_copy_in(const void *p, size_t n);
/* The string at p with its NUL, its length with the NUL in *len. */
char *proxy_copy_string(const char *p, size_t *len);
/* The n bytes at src written to the caller's dst; 0, or -1 with EFAULT. */
int proxy_copy_out(void *dst, const void *src, size_t n);

#endif
