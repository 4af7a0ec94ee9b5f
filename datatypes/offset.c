/*
 * offset: file positions (long), at and beyond both ends.
 * All constants, so they cost nothing to build.
 */
#include <limits.h>

#include "datatype.h"

static const struct tb_value offset_values[] = {
	{ .name = "ZERO", .constant.i = 0 },
	{ .name = "ONE", .constant.i = 1 },
	{ .name = "NEG_ONE", .constant.i = -1 },
	{ .name = "LLONG_MAX", .constant.i = LLONG_MAX },
	{ .name = "LLONG_MIN", .constant.i = LLONG_MIN },
	{ .name = "PAGE", .constant.i = 4096 },
	{ 0 },
};

const struct tb_datatype tb_type_offset = {
	.name = "offset", .ctype = "long", .values = offset_values,
};
