/*
 * sfio_type: the type argument of sfgetr() and sfreserve(): the lock and
 * last-record bits, both, none, and words SFIO does not define.
 */
#include "datatype.h"
#include "sfio_abi.h"

static const struct tb_value type_values[] = {
	{ .name = "ZERO", .constant.i = 0 },
	{ .name = "LOCKR", .constant.i = SF_LOCKR },
	{ .name = "LASTR", .constant.i = SF_LASTR },
	{ .name = "LOCKR_LASTR", .constant.i = SF_LOCKR | SF_LASTR },
	{ .name = "ONE", .constant.i = 1 },
	{ .name = "NEG_ONE", .constant.i = -1 },
	{ .name = "GARBAGE", .constant.i = 0x7ff0 },
	{ 0 },
};

const struct tb_datatype tb_type_sfio_type = {
	.name = "sfio_type", .ctype = "int", .values = type_values,
};
