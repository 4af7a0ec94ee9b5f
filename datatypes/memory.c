/*
 * Memory helpers for pointer-like values: blocks that end at a guard page,
 * whatever protection their own pages end with, and deterministic garbage.
 * Every buffer and string value of our dictionary is built here, so a read
 * or write one byte past its end faults in a plain run.
 */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "datatype.h"

static size_t page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

void *tb_guarded_block(size_t size)
{
	size_t page = page_size();
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

int tb_guarded_protect(void *block, size_t size, int prot)
{
	size_t page = page_size();
	uintptr_t end = (uintptr_t)block + size;  /* the guard page */
	uintptr_t first = ((uintptr_t)block) / page * page;

	return mprotect((void *)first, end - first, prot);
}

void *tb_guarded_text(const char *text)
{
	size_t size = strlen(text) + 1;
	char *s = tb_guarded_block(size);

	if (!s)
		return NULL;
	memcpy(s, text, size);
	return tb_guarded_protect(s, size, PROT_READ) ? NULL : s;
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
