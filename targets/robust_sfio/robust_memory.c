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

static size_t page_size(void)
{
	static size_t size;

	if (!size)
		size = (size_t)sysconf(_SC_PAGESIZE);
	return size;
}

/* Checks the pages [first, first + count) with at most PAGES_PER_CALL iovecs. */
static int pages_ok(uintptr_t start, uintptr_t first, size_t count, int want_write)
{
	struct iovec local = { 0 }, remote[PAGES_PER_CALL];
	unsigned char bytes[PAGES_PER_CALL];
	pid_t self = getpid();
	size_t i;

	for (i = 0; i < count; i++) {
		uintptr_t page = first + i * page_size();

		/* the first page from the buffer's own start, the rest from theirs */
		remote[i].iov_base = (void *)(page < start ? start : page);
		remote[i].iov_len = 1;
	}
	local.iov_base = bytes;
	local.iov_len = count;
	if (process_vm_readv(self, &local, 1, remote, count, 0) != (ssize_t)count)
		return 0;
	return !want_write || process_vm_writev(self, &local, 1, remote, count, 0) == (ssize_t)count;
}

int rs_memory_ok(const void *p, size_t n, int want_write)
{
	uintptr_t start = (uintptr_t)p, last, page, first;

	if (n == 0)
		return 1;
	if (!p || __builtin_add_overflow(start, n - 1, &last))
		return 0;
	first = start & ~(uintptr_t)(page_size() - 1);
	for (page = first; page <= last; page += PAGES_PER_CALL * page_size()) {
		size_t left = (last - page) / page_size() + 1;

		if (!pages_ok(start, page, left < PAGES_PER_CALL ? left : PAGES_PER_CALL, want_write))
			return 0;
		if (left <= PAGES_PER_CALL)
			break;
	}
	return 1;
}
