/*
 * Memory helpers for pointer-like values: blocks that end at a guard page,
 * and deterministic garbage.
 */
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "datatype.h"

void *tb_guarded_block(size_t size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t span = (size + page - 1) / page * page;
	char *base;

	base = mmap(NULL, span + page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		return NULL;
	if (mprotect(base + span, page, PROT_NONE)) {
		munmap(base, span + page);
		return NULL;
	}
	return base + span - size;
}

void *tb_garbage_block(size_t size)
{
	void *p = tb_guarded_block(size);

	if (p)
		tb_garbage_fill(p, size);
	return p;
}

void tb_garbage_fill(void *buf, size_t len)
{
	/* splitmix64 from a fixed seed: garbage, but the same garbage every run */
	uint64_t state = 0x7eb0c4e7u;
	unsigned char *p = buf;
	size_t i;

	for (i = 0; i < len; i++) {
		uint64_t z = (state += 0x9e3779b97f4a7c15ull);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		p[i] = (unsigned char)(z ^ (z >> 31));
	}
}
