/*
 * pointer: the exceptional addresses every pointer parameter is tried with.
 * Other pointer-like datatypes (buffer, path, mode, FILE, ...) inherit these.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "datatype.h"

static size_t page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

/* A page-size heap block, filled with a fixed pattern and freed: big
 * enough that a struct read through it (a FILE is 216 bytes) finds the
 * pattern and the allocator's own bookkeeping, never bytes left over from
 * whatever the executor did before, which would differ from run to run. */
#define FREED_SIZE 4096

static int setup_freed(union tb_arg *out)
{
	void *p = malloc(FREED_SIZE);

	if (!p)
		return -1;
	memset(p, 0xA5, FREED_SIZE);
	/* keep the address as a number: it is the point of the value */
	out->u = (uintptr_t)p;
	free(p);
	return 0;
}

/* A page of random bytes with protection prot, followed by a PROT_NONE
 * guard page, as VALID's block is: a read past its end faults the same on
 * every machine, instead of meeting whatever mapping happens to follow. */
static void *page_with(int prot)
{
	char *p = tb_garbage_block(page_size());

	return p && !tb_guarded_protect(p, page_size(), prot) ? p : NULL;
}

static int setup_read_only(union tb_arg *out)
{
	return (out->ptr = page_with(PROT_READ)) ? 0 : -1;
}

static int setup_no_access(union tb_arg *out)
{
	return (out->ptr = page_with(PROT_NONE)) ? 0 : -1;
}

/* An address that is not mapped and will not be: a freshly munmapped page
 * could be handed out again by the next value's mmap, so instead take the
 * first of a few far-away addresses that msync() confirms unmapped. */
static int setup_unmapped(union tb_arg *out)
{
	static const uintptr_t candidates[] = {
		0x100000000000ull, 0x200000000000ull, 0x300000000000ull,
	};
	size_t i;

	for (i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++) {
		void *p = (void *)candidates[i];

		if (msync(p, page_size(), MS_ASYNC) && errno == ENOMEM) {
			out->ptr = p;
			return 0;
		}
	}
	return -1;
}

static int setup_misaligned(union tb_arg *out)
{
	char *p = tb_guarded_block(page_size());

	if (!p)
		return -1;
	out->ptr = p + 1;
	return 0;
}

static int setup_valid(union tb_arg *out)
{
	return (out->ptr = tb_guarded_block(page_size())) ? 0 : -1;
}

static const struct tb_value pointer_values[] = {
	{ .name = "NULL", .constant.ptr = NULL, .desc = "the null pointer" },
	{ .name = "MINUS_ONE", .constant.u = UINTPTR_MAX, .desc = "all bits set", .misuse = 1 },
	{ .name = "ONE", .constant.u = 1, .desc = "address 1", .misuse = 1 },
	{ .name = "FREED", .setup = setup_freed, .desc = "a 4 KiB malloc block, filled with 0xA5, then freed", .misuse = 1 },
	{ .name = "READ_ONLY", .setup = setup_read_only, .desc = "an anonymous page of random bytes, read-only: a write is SIGSEGV" },
	{ .name = "NO_ACCESS", .setup = setup_no_access, .desc = "a PROT_NONE page: any access is SIGSEGV", .misuse = 1 },
	{ .name = "UNMAPPED", .setup = setup_unmapped, .desc = "the address of an unmapped page", .misuse = 1 },
	{ .name = "MISALIGNED", .setup = setup_misaligned, .desc = "VALID plus one byte: 4095 bytes before a guard page" },
	{ .name = "VALID", .setup = setup_valid,
	  .desc = "4,096 zero bytes, read-write, before a guard page: memory, no object of any type" },
	{ 0 },
};

TB_DATATYPE(tb_type_pointer) = {
	.name = "pointer",
	.ctype = "void *",
	.values = pointer_values,
};
