/*
 * callback: function pointers (comparators, allocators, handlers), tried
 * with NULL, a callback that succeeds, one that fails and an address that
 * is no code.  A callback that calls back into the library has the
 * library's signature, so it is a target's own: a target's datatype takes
 * this one as its parent, sets its own .ctype (the parameter's function
 * pointer type) and adds callbacks of that signature (docs/datatypes.md,
 * section 4).
 *
 * The two callbacks here are called through whatever type the parameter
 * has, which C leaves undefined and the x86-64 System V ABI defines: the
 * caller passes arguments in registers and on its own stack, which it
 * cleans up itself, so a function that reads none of them can be called
 * with any; and it reads an integer or pointer result from %rax, which a
 * function returning long sets in full.  A caller that reads a floating
 * result (%xmm0) or a struct returned in memory gets what was there.
 */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "datatype.h"

/* 0: success for a comparator's "equal", a handler's "go on", a NULL result */
static long returns_zero(void)
{
	return 0;
}

/* -1: the usual error, and all bits set as a pointer or an unsigned */
static long returns_minus_one(void)
{
	return -1;
}

/* The near-return opcode, which would make the page a harmless callback
 * were it executable: the fault comes from the page's protection alone. */
#define X86_RET 0xC3

static int setup_not_code(union tb_arg *out)
{
	size_t size = (size_t)sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -1;
	memset(p, X86_RET, size);
	out->ptr = p;
	return 0;
}

static const struct tb_value callback_values[] = {
	{ .name = "NULL", .constant.ptr = NULL, .desc = "NULL: no callback" },
	{ .name = "RETURNS_ZERO", .constant.ptr = (void *)returns_zero,
	  .desc = "ignores its arguments and returns 0 (an integer or pointer result)" },
	{ .name = "RETURNS_MINUS_ONE", .constant.ptr = (void *)returns_minus_one,
	  .desc = "ignores its arguments and returns -1 (all bits set as a pointer)" },
	{ .name = "NOT_CODE", .setup = setup_not_code, .misuse = 1,
	  .desc = "a read-write page that is not executable (of ret instructions): "
		  "calling it is SIGSEGV" },
	{ 0 },
};

TB_DATATYPE(tb_type_callback) = {
	.name = "callback", .ctype = "void (*)(void)", .values = callback_values,
};
