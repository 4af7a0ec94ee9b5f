/*
 * int: plain integers, including the two just past a character's range.
 * All constants, so they cost nothing to build.
 */
#include <limits.h>

#include "datatype.h"

static const struct tb_value int_values[] = {
	{ .name = "ZERO", .constant.i = 0, .desc = "0" },
	{ .name = "ONE", .constant.i = 1, .desc = "1" },
	{ .name = "NEG_ONE", .constant.i = -1, .desc = "-1" },
	{ .name = "INT_MAX", .constant.i = INT_MAX, .desc = "2^31-1" },
	{ .name = "INT_MIN", .constant.i = INT_MIN, .desc = "-2^31" },
	{ .name = "CHAR_255", .constant.i = 255, .desc = "255, the largest unsigned char" },
	{ .name = "CHAR_256", .constant.i = 256, .desc = "256, one past an unsigned char" },
	{ 0 },
};

TB_DATATYPE(tb_type_int) = {
	.name = "int", .ctype = "int", .values = int_values,
};
