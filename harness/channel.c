/*
 * The result channel sealed during the call (channel.h).  Two mprotect(2)
 * calls a case in the test process, on its own view of the mapping: the
 * fork server's stays writable.  The mapping's place and size are plain
 * statics, set before the first fork and only read in test processes, so
 * reading them costs no copy-on-write fault.
 */
#include <stdint.h>
#include <sys/mman.h>

#include "channel.h"

static void *base;
static size_t length;

void tb_channel_set(struct tb_record *records, int n)
{
	base = records;
	length = (size_t)n * sizeof(*records);
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
