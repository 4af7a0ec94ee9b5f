/*
 * size: byte counts and lengths, with the values whose arithmetic overflows.
 * All constants, so they cost nothing to build.
 */
#include <limits.h>
#include <stdint.h>

#include "datatype.h"

static const struct tb_value size_values[] = {
	{ .name = "ZERO", .constant.u = 0, .desc = "0" },
	{ .name = "ONE", .constant.u = 1, .desc = "1" },
	{ .name = "PAGE", .constant.u = 4096, .desc = "4096, one page" },
	{ .name = "PAGE_PLUS_1", .constant.u = 4097, .desc = "4097, one byte past a page" },
	{ .name = "INT_MAX", .constant.u = INT_MAX, .desc = "2^31-1" },
	{ .name = "UINT_MAX", .constant.u = UINT_MAX, .desc = "2^32-1, the largest unsigned int" },
	{ .name = "SIZE_MAX", .constant.u = SIZE_MAX, .desc = "2^64-1, all bits set" },
	{ .name = "SIZE_MAX_HALF", .constant.u = SIZE_MAX / 2, .desc = "2^63-1, the largest ssize_t" },
	/* the same bits as SIZE_MAX on LP64; named for the bug that makes it */
	{ .name = "NEG_ONE_INT", .constant.u = (size_t)(int)-1, .desc = "(size_t)(int)-1" },
	{ 0 },
};

TB_DATATYPE(tb_type_size) = {
	.name = "size", .ctype = "size_t", .values = size_values,
};
