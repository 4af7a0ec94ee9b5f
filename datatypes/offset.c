/*
 * offset: file positions (long), at and beyond both ends.
 * All constants, so they cost nothing to build.
 */
#include <limits.h>

#include "datatype.h"

static const struct tb_value offset_values[] = {
	{ .name = "ZERO", .constant.i = 0, .desc = "0" },
	{ .name = "ONE", .constant.i = 1, .desc = "1" },
	{ .name = "NEG_ONE", .constant.i = -1, .desc = "-1, before the start" },
	{ .name = "LLONG_MAX", .constant.i = LLONG_MAX, .desc = "2^63-1, far past any end" },
	{ .name = "LLONG_MIN", .constant.i = LLONG_MIN, .desc = "-2^63" },
	{ .name = "PAGE", .constant.i = 4096, .desc = "4096, inside the 9280-byte scratch file" },
	{ 0 },
};

TB_DATATYPE(tb_type_offset) = {
	.name = "offset", .ctype = "long", .values = offset_values,
};
