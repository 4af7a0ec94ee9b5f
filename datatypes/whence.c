/*
 * whence: the origin argument of seek functions, valid and not.
 * All constants, so they cost nothing to build.
 */
#include <limits.h>
#include <stdio.h>

#include "datatype.h"

static const struct tb_value whence_values[] = {
	{ .name = "SET", .constant.i = SEEK_SET, .desc = "SEEK_SET (0)" },
	{ .name = "CUR", .constant.i = SEEK_CUR, .desc = "SEEK_CUR (1)" },
	{ .name = "END", .constant.i = SEEK_END, .desc = "SEEK_END (2)" },
	{ .name = "NEG_ONE", .constant.i = -1, .desc = "-1, no origin" },
	{ .name = "THREE", .constant.i = 3, .desc = "3, one past the valid origins" },
	{ .name = "INT_MAX", .constant.i = INT_MAX, .desc = "2^31-1" },
	{ 0 },
};

TB_DATATYPE(tb_type_whence) = {
	.name = "whence", .ctype = "int", .values = whence_values,
};
