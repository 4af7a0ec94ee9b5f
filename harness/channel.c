/*
 * The result channel's mapping between guard pages (channel.h): one
 * mapping, its first and last page made inaccessible, once per fork server.
 */
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "channel.h"

static size_t records_length(int n)
{
	size_t page = (size_t)getpagesize();

	return ((size_t)n * sizeof(struct tb_record) + page - 1) / page * page;
}

struct tb_record *tb_channel_map(int n)
{
	size_t page = (size_t)getpagesize(), length = records_length(n);
	char *base = mmap(NULL, length + 2 * page, PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (base == MAP_FAILED)
		return NULL;
	if (mprotect(base, page, PROT_NONE) || mprotect(base + page + length, page, PROT_NONE)) {
		munmap(base, length + 2 * page);
		return NULL;
	}
	return (struct tb_record *)(base + page);
}

void tb_channel_unmap(struct tb_record *records, int n)
{
	size_t page = (size_t)getpagesize();

	munmap((char *)records - page, records_length(n) + 2 * page);
}
