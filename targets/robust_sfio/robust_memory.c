/*
 * The memory check (robust_memory.h).  It touches one byte per page, like
 * the study's stride through the buffer, but through process_vm_readv()
 * and process_vm_writev() on this very process: the kernel answers EFAULT
 * for a page that cannot be read or written, so no signal handler is
 * installed behind the caller's back and no sigsetjmp() is paid per call.
 * A page passes the write check by having its byte written back unchanged
 * (a thread writing the same byte at that instant would lose its write;
 * such a buffer is already in a data race).
 */
#include <stdint.h>
#include <sys/uio.h>
#include <unistd.h>

#include "robust_memory.h"

#define PAGES_PER_CALL 1024  /* IOV_MAX */

size_t rs_memory_page_size(void)
{
	static size_t size;

	if (!size)
		size = (size_t)sysconf(_SC_PAGESIZE);
	return size;
}

/* How many of the pages [first, first + count) can be used, counted from the
 * first: process_vm_readv/writev stop at the first iovec they cannot copy,
 * and every iovec here is one byte of one page.  count <= PAGES_PER_CALL. */
static size_t good_pages(uintptr_t start, uintptr_t first, size_t count, int want_write)
{
	struct iovec local = { 0 }, remote[PAGES_PER_CALL];
	unsigned char bytes[PAGES_PER_CALL];
	pid_t self = getpid();
	ssize_t readable;
	size_t i;

	for (i = 0; i < count; i++) {
		uintptr_t page = first + i * rs_memory_page_size();

		/* the first page from the buffer's own start, the rest from theirs */
		remote[i].iov_base = (void *)(page < start ? start : page);
		remote[i].iov_len = 1;
	}
	local.iov_base = bytes;
	local.iov_len = count;
	readable = process_vm_readv(self, &local, 1, remote, count, 0);
	if (readable <= 0 || !want_write)
		return readable > 0 ? (size_t)readable : 0;
	local.iov_len = (size_t)readable;
	readable = process_vm_writev(self, &local, 1, remote, (unsigned long)readable, 0);
	return readable > 0 ? (size_t)readable : 0;
}

/* The usable length from p, up to n (n >= 1, p + n - 1 not wrapping). */
static size_t usable(uintptr_t start, size_t n, int want_write)
{
	uintptr_t last = start + (n - 1), first = start & ~(uintptr_t)(rs_memory_page_size() - 1), page;

	for (page = first; page <= last; page += PAGES_PER_CALL * rs_memory_page_size()) {
		size_t left = (last - page) / rs_memory_page_size() + 1;
		size_t want = left < PAGES_PER_CALL ? left : PAGES_PER_CALL;
		size_t good = good_pages(start, page, want, want_write);

		if (good < want) {
			uintptr_t end = page + good * rs_memory_page_size();

			return end > start ? end - start : 0;
		}
		if (left <= PAGES_PER_CALL)
			break;
	}
	return n;
}

int rs_memory_ok(const void *p, size_t n, int want_write)
{
	uintptr_t start = (uintptr_t)p, last;

	if (n == 0)
		return 1;
	if (!p || __builtin_add_overflow(start, n - 1, &last))
		return 0;
	return usable(start, n, want_write) == n;
}

size_t rs_memory_span(const void *p, size_t max, int want_write)
{
	uintptr_t start = (uintptr_t)p, last;

	if (!p || max == 0)
		return 0;
	if (__builtin_add_overflow(start, max - 1, &last))
		max = UINTPTR_MAX - start + 1;
	return usable(start, max, want_write);
}
