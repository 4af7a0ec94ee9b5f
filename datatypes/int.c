/*
 * int: plain integers, including the two just past a character's range.
 * All constants, so they cost nothing to build.
 */
#include <limits.h>

#include "datatype.h"

static const struct tb_value int_values[] = {
	{ .name = "ZERO", .constant.i = 0 },
	{ .name = "ONE", .constant.i = 1 },
	{ .name = "NEG_ONE", .constant.i = -1 },
	{ .name = "INT_MAX", .constant.i = INT_MAX },
	{ .name = "INT_MIN", .constant.i = INT_MIN },
	{ .name = "CHAR_255", .constant.i = 255 },
	{ .name = "CHAR_256", .constant.i = 256 },
	{ 0 },
};

const struct tb_datatype tb_type_int = {
	.name = "int", .ctype = "int", .values = int_values,
};
