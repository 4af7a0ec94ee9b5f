/*
 * Void_t: SFIO's name for the memory a function reads or writes through.
 * The very values of buffer, inherited, none of its own.
 */
#include "datatype.h"

static const struct tb_value no_values[] = { { 0 } };

const struct tb_datatype tb_type_sfio_buffer = {
	.name = "Void_t",
	.parent = &tb_type_buffer,
	.ctype = "Void_t *",
	.values = no_values,
};
