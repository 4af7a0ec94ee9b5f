/*
 * size: byte counts and lengths, with the values whose arithmetic overflows.
 * All constants, so they cost nothing to build.
 */
#include <limits.h>
#include <stdint.h>

#include "datatype.h"

static const struct tb_value size_values[] = {
	{ .name = "ZERO", .constant.u = 0 },
	{ .name = "ONE", .constant.u = 1 },
	{ .name = "PAGE", .constant.u = 4096 },
	{ .name = "PAGE_PLUS_1", .constant.u = 4097 },
	{ .name = "INT_MAX", .constant.u = INT_MAX },
	{ .name = "UINT_MAX", .constant.u = UINT_MAX },
	{ .name = "SIZE_MAX", .constant.u = SIZE_MAX },
	{ .name = "SIZE_MAX_HALF", .constant.u = SIZE_MAX / 2 },
	/* the same bits as SIZE_MAX on LP64; named for the bug that makes it */
	{ .name = "NEG_ONE_INT", .constant.u = (size_t)(int)-1, .desc = "(size_t)(int)-1" },
	{ 0 },
};

const struct tb_datatype tb_type_size = {
	.name = "size", .ctype = "size_t", .values = size_values,
};
