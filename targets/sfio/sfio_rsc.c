/*
 * rsc: a record-separator character (sfgetr, sfputr, sfmove): the int
 * values and the newline that records usually end with.
 */
#include "datatype.h"

static const struct tb_value rsc_values[] = {
	{ .name = "NEWLINE", .constant.i = '\n' },
	{ 0 },
};

const struct tb_datatype tb_type_sfio_rsc = {
	.name = "rsc", .parent = &tb_type_int, .ctype = "int", .values = rsc_values,
};
