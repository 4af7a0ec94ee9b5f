/*
 * sfio_flags: the flag words of sfnew() and sfset(): the valid
 * combinations, every bit on its own, and bits SFIO does not define.
 */
#include <limits.h>

#include "datatype.h"
#include "sfio_abi.h"

static const struct tb_value flag_values[] = {
	{ .name = "ZERO", .constant.i = 0 },
	{ .name = "READ", .constant.i = SF_READ },
	{ .name = "WRITE", .constant.i = SF_WRITE },
	{ .name = "READ_WRITE", .constant.i = SF_READ | SF_WRITE },
	{ .name = "STRING_READ", .constant.i = SF_STRING | SF_READ },
	{ .name = "STRING_RW", .constant.i = SF_STRING | SF_READ | SF_WRITE },
	{ .name = "STRING", .constant.i = SF_STRING },
	{ .name = "APPENDWR", .constant.i = SF_APPENDWR },
	{ .name = "MALLOC", .constant.i = SF_MALLOC },
	{ .name = "LINE", .constant.i = SF_LINE },
	{ .name = "SHARE", .constant.i = SF_SHARE },
	{ .name = "EOF", .constant.i = SF_EOF },
	{ .name = "ERROR", .constant.i = SF_ERROR },
	{ .name = "STATIC", .constant.i = SF_STATIC },
	{ .name = "IOCHECK", .constant.i = SF_IOCHECK },
	{ .name = "PUBLIC", .constant.i = SF_PUBLIC },
	{ .name = "MTSAFE", .constant.i = SF_MTSAFE },
	{ .name = "WHOLE", .constant.i = SF_WHOLE },
	{ .name = "ALL_BITS", .constant.i = 0037777, .desc = "every defined bit" },
	{ .name = "UNDEFINED_BITS", .constant.i = 0x7fff0000, .desc = "only bits SFIO does not define" },
	{ .name = "NEG_ONE", .constant.i = -1 },
	{ 0 },
};

const struct tb_datatype tb_type_sfio_flags = {
	.name = "sfio_flags", .ctype = "int", .values = flag_values,
};
