/*
 * whence: the origin argument of seek functions, valid and not.
 * All constants, so they cost nothing to build.
 */
#include <limits.h>
#include <stdio.h>

#include "datatype.h"

static const struct tb_value whence_values[] = {
	{ .name = "SET", .constant.i = SEEK_SET },
	{ .name = "CUR", .constant.i = SEEK_CUR },
	{ .name = "END", .constant.i = SEEK_END },
	{ .name = "NEG_ONE", .constant.i = -1 },
	{ .name = "THREE", .constant.i = 3 },
	{ .name = "INT_MAX", .constant.i = INT_MAX },
	{ 0 },
};

const struct tb_datatype tb_type_whence = {
	.name = "whence", .ctype = "int", .values = whence_values,
};
