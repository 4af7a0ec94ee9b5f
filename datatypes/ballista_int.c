/*
 * Ballista's integer family, each inheriting its parent's values:
 * b_short_int_common (19) -> b_short (22) -> b_int (25) -> b_long (27) and
 * b_int_whence (28); b_short_int_common -> b_unsigned_short (21) ->
 * b_unsigned_int (22) -> b_unsigned_long (23).  The study ran on ILP32
 * Linux, so its long constants were 32-bit; they are kept 32-bit here
 * (MAXLONG = 2^31 - 1, ULONG_MAX = 2^32 - 1), not swapped for LP64's.
 */
#include <stdio.h>
#include <stdint.h>

#include "ballista.h"

#define N(v) { .name = "N_" #v, .constant.i = v, .desc = #v }

static const struct tb_value common_values[] = {
	N(0), N(1), N(2), N(15), N(16), N(17),
	/* Ballista's SC_PAGE is the sysconf name _SC_PAGESIZE (30 on Linux),
	 * not the page size: kept */
	{ .name = "SC_PAGE", .constant.i = 30, .desc = "_SC_PAGESIZE, the name, not the size" },
	N(64), N(65), N(127), N(129), N(255), N(256), N(257), N(4096), N(8192), N(8193),
	N(16383), N(32767),
	{ 0 },
};

static const struct tb_datatype b_short_int_common = {
	.name = "b_short_int_common", .ctype = "short", .values = common_values,
};

static const struct tb_value short_values[] = {
	{ .name = "NEG_1", .constant.i = -1, .desc = "-1" },
	{ .name = "NEG_64", .constant.i = -64, .desc = "-64" },
	{ .name = "NEG_32767", .constant.i = -32767, .desc = "-32767" },
	{ 0 },
};

static const struct tb_datatype b_short = {
	.name = "b_short", .parent = &b_short_int_common, .ctype = "short", .values = short_values,
};

static const struct tb_value int_values[] = {
	{ .name = "MAXINT", .constant.i = INT32_MAX, .desc = "INT_MAX, 2^31 - 1" },
	{ .name = "NEG_MAXINT", .constant.i = -INT32_MAX, .desc = "-INT_MAX" },
	{ .name = "CHAR_A", .constant.i = 'A', .desc = "'A', 65" },
	{ 0 },
};

TB_DATATYPE(tb_type_b_int) = {
	.name = "b_int", .parent = &b_short, .ctype = "int", .values = int_values,
};

static const struct tb_value long_values[] = {
	{ .name = "MAXLONG", .constant.i = INT32_MAX, .desc = "2^31 - 1, ILP32's LONG_MAX" },
	{ .name = "NEG_MAXLONG", .constant.i = -INT32_MAX, .desc = "-(2^31 - 1)" },
	{ 0 },
};

TB_DATATYPE(tb_type_b_long) = {
	.name = "b_long", .parent = &tb_type_b_int, .ctype = "long", .values = long_values,
};

static const struct tb_value whence_values[] = {
	{ .name = "SEEK_SET", .constant.i = SEEK_SET, .desc = "SEEK_SET" },
	{ .name = "SEEK_CUR", .constant.i = SEEK_CUR, .desc = "SEEK_CUR" },
	{ .name = "SEEK_END", .constant.i = SEEK_END, .desc = "SEEK_END" },
	{ 0 },
};

TB_DATATYPE(tb_type_b_int_whence) = {
	.name = "b_int_whence", .parent = &tb_type_b_int, .ctype = "int", .values = whence_values,
};

static const struct tb_value ushort_values[] = {
	{ .name = "N_32768", .constant.u = 32768, .desc = "32768" },
	{ .name = "N_65535", .constant.u = 65535, .desc = "65535" },
	{ 0 },
};

static const struct tb_datatype b_unsigned_short = {
	.name = "b_unsigned_short", .parent = &b_short_int_common, .ctype = "unsigned short",
	.values = ushort_values,
};

static const struct tb_value uint_values[] = {
	{ .name = "UINT_MAX", .constant.u = UINT32_MAX, .desc = "UINT_MAX, 2^32 - 1" },
	{ 0 },
};

static const struct tb_datatype b_unsigned_int = {
	.name = "b_unsigned_int", .parent = &b_unsigned_short, .ctype = "unsigned",
	.values = uint_values,
};

/* equal to UINT_MAX, as on ILP32 */
static const struct tb_value ulong_values[] = {
	{ .name = "ULONG_MAX", .constant.u = UINT32_MAX, .desc = "2^32 - 1, ILP32's ULONG_MAX" },
	{ 0 },
};

TB_DATATYPE(tb_type_b_unsigned_long) = {
	.name = "b_unsigned_long", .parent = &b_unsigned_int, .ctype = "unsigned long",
	.values = ulong_values,
};
