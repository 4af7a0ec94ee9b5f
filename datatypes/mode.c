/*
 * mode: the mode strings of fopen and its relatives, valid and not.
 */
#include "datatype.h"

static const struct tb_value mode_values[] = {
	{ .name = "R", .constant.ptr = (void *)"r" },
	{ .name = "W", .constant.ptr = (void *)"w" },
	{ .name = "A", .constant.ptr = (void *)"a" },
	{ .name = "R_PLUS", .constant.ptr = (void *)"r+" },
	{ .name = "W_PLUS", .constant.ptr = (void *)"w+" },
	{ .name = "A_PLUS", .constant.ptr = (void *)"a+" },
	{ .name = "EMPTY", .constant.ptr = (void *)"" },
	{ .name = "GARBAGE", .constant.ptr = (void *)"q!z", .desc = "no valid mode letter" },
	{ 0 },
};

const struct tb_datatype tb_type_mode = {
	.name = "mode",
	.parent = &tb_type_pointer,
	.ctype = "const char *",
	.values = mode_values,
};
