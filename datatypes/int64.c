/*
 * int64: 64-bit integers (int64_t, long long, off64_t), at both ends and at
 * the 32-bit boundaries, where a value a 32-bit int or unsigned would hold
 * stops fitting.  All constants.
 */
#include <stdint.h>

#include "datatype.h"

static const struct tb_value int64_values[] = {
	{ .name = "ZERO", .constant.i = 0, .desc = "0" },
	{ .name = "ONE", .constant.i = 1, .desc = "1" },
	{ .name = "NEG_ONE", .constant.i = -1, .desc = "-1: all bits set" },
	{ .name = "INT64_MAX", .constant.i = INT64_MAX, .desc = "2^63-1" },
	{ .name = "INT64_MIN", .constant.i = INT64_MIN, .desc = "-2^63: its negation overflows" },
	{ .name = "INT32_MAX", .constant.i = INT32_MAX, .desc = "2^31-1, the largest int" },
	{ .name = "INT32_MAX_PLUS_1", .constant.i = (int64_t)INT32_MAX + 1,
	  .desc = "2^31: truncated to an int, INT_MIN" },
	{ .name = "INT32_MIN", .constant.i = INT32_MIN, .desc = "-2^31, the smallest int" },
	{ .name = "INT32_MIN_MINUS_1", .constant.i = (int64_t)INT32_MIN - 1,
	  .desc = "-2^31-1: truncated to an int, INT_MAX" },
	{ .name = "UINT32_MAX", .constant.i = UINT32_MAX,
	  .desc = "2^32-1, the largest unsigned int" },
	{ .name = "UINT32_MAX_PLUS_1", .constant.i = (int64_t)UINT32_MAX + 1,
	  .desc = "2^32: truncated to 32 bits, 0" },
	{ 0 },
};

TB_DATATYPE(tb_type_int64) = {
	.name = "int64", .ctype = "int64_t", .values = int64_values,
};
