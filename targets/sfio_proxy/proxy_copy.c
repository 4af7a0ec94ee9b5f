/*
 * The proxy's copies of the caller's memory (proxy_copy.h).  Through the
 * kernel they go a chunk at a time, so that a block larger than what is
 * mapped fails at its first unreadable byte without the proxy holding more.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "proxy_copy.h"

#define CHUNK (64 * 1024)

#ifndef PROXY_USER_COPY

/* Copies up to n bytes of the caller's src into dst; the bytes copied. */
static size_t kernel_read(void *dst, const void *src, size_t n)
{
	struct iovec local = { dst, n }, remote = { (void *)src, n };
	ssize_t got = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);

	return got > 0 ? (size_t)got : 0;
}

void *proxy_copy_in(const void *p, size_t n)
{
	unsigned char *copy = NULL;
	size_t done = 0;

	while (done < n || !copy) {
		size_t want = n - done < CHUNK ? n - done : CHUNK;
		unsigned char *grown = realloc(copy, done + want + 1);

		if (!grown) {
			free(copy);
			errno = ENOMEM;
			return NULL;
		}
		copy = grown;
		if (want && kernel_read(copy + done, (const char *)p + done, want) != want) {
			free(copy);
			errno = EFAULT;
			return NULL;
		}
		done += want;
	}
	return copy;
}

/* A page at a time, up to the page's end: a string that ends just before
 * an unmapped page is read without touching it. */
char *proxy_copy_string(const char *p, size_t *len)
{
	char *copy = NULL;
	size_t done = 0;

	for (;;) {
		size_t want = 4096 - ((uintptr_t)(p + done) & 4095);
		char *grown = realloc(copy, done + want), *nul;

		if (!grown || done > ((size_t)256 << 20)) {
			free(grown ? grown : copy);
			errno = grown ? EFAULT : ENOMEM;
			return NULL;
		}
		copy = grown;
		if (kernel_read(copy + done, p + done, want) != want) {
			free(copy);
			errno = EFAULT;
			return NULL;
		}
		if ((nul = memchr(copy + done, 0, want))) {
			*len = (size_t)(nul - copy) + 1;
			return copy;
		}
		done += want;
	}
}

int proxy_copy_out(void *dst, const void *src, size_t n)
{
	struct iovec local = { (void *)src, n }, remote = { dst, n };

	if (n && process_vm_writev(getpid(), &local, 1, &remote, 1, 0) != (ssize_t)n) {
		errno = EFAULT;
		return -1;
	}
	return 0;
}

#else

void *proxy_copy_in(const void *p, size_t n)
{
	void *copy = malloc(n ? n : 1);

	if (!copy)
		errno = ENOMEM;
	return copy ? memcpy(copy, p, n) : NULL;
}

char *proxy_copy_string(const char *p, size_t *len)
{
	*len = strlen(p) + 1;
	return proxy_copy_in(p, *len);
}

int proxy_copy_out(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
	return 0;
}

#endif
