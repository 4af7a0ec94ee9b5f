/*
 * mode: the mode strings of fopen and its relatives, valid and not.
 */
#include "datatype.h"

static const struct tb_value mode_values[] = {
	TB_FOPEN_MODES(.text),
	{ .name = "EMPTY", .text = "", .desc = "the empty string" },
	{ .name = "GARBAGE", .text = "q!z", .desc = "no valid mode letter" },
	{ 0 },
};

TB_DATATYPE(tb_type_mode) = {
	.name = "mode",
	.parent = &tb_type_pointer,
	.ctype = "const char *",
	.values = mode_values,
	/* READ_ONLY's random bytes hold no NUL: no C string */
	.misuse = (const char *const[]){ "READ_ONLY", NULL },
};
