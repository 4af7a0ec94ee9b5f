/*
 * The result channel sealed during the call (channel.h).  Two mprotect(2)
 * calls a case in the test process, on its own view of the mapping: the
 * fork server's stays writable.  The mapping's place and size are plain
 * statics, set before the first fork and only read in test processes, so
 * reading them costs no copy-on-write fault.
 *
 * The mapping is as large whatever --jobs is (forkserver.c says why), and
 * most of it is slots no case uses.  Those are made inaccessible once, in
 * the server, so that a wild write faults there as it does on a sealed
 * record, whatever --jobs is; and a case seals only the pages of the slots
 * in use.  Those pages are then a mapping of their own, so sealing them
 * changes its protection alone, where sealing part of a larger mapping
 * would split it and merge it again each time (twice the cost, measured:
 * about 12 µs a case against 6).
 */
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "channel.h"

static void *base;
static size_t length;

int tb_channel_set(struct tb_record *records, int used, int mapped)
{
	size_t page = (size_t)getpagesize();
	size_t whole = (size_t)mapped * sizeof(*records);

	base = records;
	length = ((size_t)used * sizeof(*records) + page - 1) / page * page;
	if (length >= whole) {
		length = whole;
		return 0;
	}
	return mprotect((char *)base + length, whole - length, PROT_NONE);
}

void tb_channel_seal(void)
{
	if (base)
		mprotect(base, length, PROT_READ);
}

/* async-signal-safe: a system call alone */
void tb_channel_unseal(void)
{
	if (base)
		mprotect(base, length, PROT_READ | PROT_WRITE);
}
