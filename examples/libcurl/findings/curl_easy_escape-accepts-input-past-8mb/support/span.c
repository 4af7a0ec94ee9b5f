/*
 * span: the parameters after the first of a datatype that spans several
 * (a buffer and its length).  Its one value builds nothing: the spanning
 * datatype's setup, run for the parameter before, already wrote this slot.
 */
#include "datatype.h"

static int keep(union tb_arg *out)
{
	return 0;
}

static const struct tb_value span_values[] = {
	{ .name = "SPAN", .setup = keep, .desc = "set with the parameter before, by its datatype" },
	{ 0 },
};

TB_DATATYPE(tb_type_span) = {
	.name = "span", .ctype = "(the spanning datatype's)", .values = span_values,
};
