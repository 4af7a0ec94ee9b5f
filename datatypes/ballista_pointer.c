/*
 * Ballista's b_ptr_void (7 values) and b_ptr_buf (+13): the generic pointer
 * and the buffer.  Unlike ours, nothing here ends at a guard page: blocks
 * come from malloc, so a short overrun of a small block lands in the heap
 * and usually returns, as it did under Ballista.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ballista.h"

/* The address of a 56-byte array of a frame that has returned: mapped,
 * writable, holding whatever the stack held.  noinline keeps the frame. */
static __attribute__((noinline)) uintptr_t dead_frame(void)
{
	volatile char frame[56];

	frame[0] = 0;
	return (uintptr_t)frame;
}

static int setup_static(union tb_arg *out)
{
	out->u = dead_frame();
	return 0;
}

static int block(union tb_arg *out, size_t size, size_t offset, char fill)
{
	/* volatile: the two sizes malloc refuses are meant, not a mistake */
	volatile size_t n = size;
	char *p = malloc(n);

	if (!p)
		return tb_setup_fail("malloc(%zu)", (size_t)n);
	if (fill)
		memset(p, fill, size);
	out->ptr = p + offset;
	return 0;
}

static int setup_dynamic(union tb_arg *out) { return block(out, 16, 0, 0); }

/* Freed just before the call, as Ballista's commit step did: the block
 * stays mapped, so a read through it does not fault. */
static int freed(union tb_arg *out, size_t size, char fill)
{
	if (block(out, size, 0, fill))
		return -1;
	free(out->ptr);
	return 0;
}

static int setup_freed(union tb_arg *out) { return freed(out, 10240, 0); }

static const struct tb_value void_values[] = {
	{ .name = "NULL", .constant.ptr = NULL, .desc = "NULL" },
	{ .name = "NEGONE", .constant.u = UINTPTR_MAX, .desc = "(void *)-1", .misuse = 1 },
	/* a 32-bit constant, kept: unmapped on i386 Linux and here alike */
	{ .name = "MAXINT", .constant.u = 0x7fffffff, .desc = "(void *)0x7fffffff", .misuse = 1 },
	{ .name = "STATIC", .setup = setup_static, .desc = "a 56-byte array of a returned frame" },
	{ .name = "DYNAMIC", .setup = setup_dynamic, .desc = "malloc(16)" },
	{ .name = "CONST", .constant.ptr = (void *)"                ",
	  .desc = "a string literal: read-only" },
	{ .name = "FREED", .setup = setup_freed, .desc = "malloc(10240), freed", .misuse = 1 },
	{ 0 },
};

TB_DATATYPE(tb_type_b_ptr_void) = {
	.name = "b_ptr_void", .ctype = "void *", .values = void_values,
};

#define PAGE 4096

static int setup_small(union tb_arg *out) { return block(out, 1, 0, 'a'); }
static int setup_med(union tb_arg *out) { return block(out, PAGE, 0, 'a'); }
/* the two large ones unfilled, as Ballista left them; under trebuchet's
 * address-space limit (--memory-mb, 1 GiB) XLARGE cannot be built: SETUP */
static int setup_large(union tb_arg *out) { return block(out, (1u << 29) + 1, 0, 0); }
static int setup_xlarge(union tb_arg *out) { return block(out, (1u << 30) + 1, 0, 0); }
/* Ballista's (1 << 31) + 1 overflows an int: malloc of a negative size,
 * which fails, so the value was never built; nor is it here. */
static int setup_huge(union tb_arg *out) { return block(out, (size_t)(long)INT32_MIN + 1, 0, 0); }
static int setup_bufmax(union tb_arg *out) { return block(out, SIZE_MAX, 0, 0); }
static int setup_64k(union tb_arg *out) { return block(out, (1u << 16) + 1, 0, 'a'); }
static int setup_end_med(union tb_arg *out) { return block(out, PAGE, PAGE - 1, 'a'); }
static int setup_far_past(union tb_arg *out) { return block(out, PAGE, PAGE * 1000, 'a'); }
static int setup_odd(union tb_arg *out) { return block(out, PAGE, 1, 'a'); }
static int setup_buf_freed(union tb_arg *out) { return freed(out, PAGE, 'a'); }

static int code_address(void) { return 0; }

static int setup_code(union tb_arg *out)
{
	out->ptr = (void *)(uintptr_t)code_address;
	return 0;
}

static const struct tb_value buf_values[] = {
	{ .name = "BUF_SMALL", .setup = setup_small, .desc = "1 byte, 'a'" },
	{ .name = "BUF_MED", .setup = setup_med, .desc = "4096 bytes of 'a'" },
	{ .name = "BUF_LARGE", .setup = setup_large, .desc = "malloc(2^29 + 1)" },
	{ .name = "BUF_XLARGE", .setup = setup_xlarge, .desc = "malloc(2^30 + 1)" },
	{ .name = "BUF_HUGE", .setup = setup_huge, .desc = "malloc((int)(2^31 + 1)): fails" },
	{ .name = "BUFMAX", .setup = setup_bufmax, .desc = "malloc(SIZE_MAX): fails" },
	{ .name = "BUF_64K", .setup = setup_64k, .desc = "65537 bytes of 'a'" },
	{ .name = "BUF_END_MED", .setup = setup_end_med, .desc = "the last byte of a 4 KiB block" },
	{ .name = "BUF_FAR_PAST", .setup = setup_far_past, .desc = "4000 KiB past a 4 KiB block", .misuse = 1 },
	{ .name = "BUF_ODD", .setup = setup_odd, .desc = "a 4 KiB block plus one" },
	{ .name = "BUF_FREED", .setup = setup_buf_freed, .desc = "a 4 KiB block, freed", .misuse = 1 },
	{ .name = "BUF_CODE", .setup = setup_code, .desc = "the address of a function" },
	{ .name = "BUF_LOW", .constant.u = 16, .desc = "(void *)16", .misuse = 1 },
	{ 0 },
};

TB_DATATYPE(tb_type_b_ptr_buf) = {
	.name = "b_ptr_buf", .parent = &tb_type_b_ptr_void, .ctype = "void *",
	.values = buf_values,
};
