/* valve: a new valve, written in C; the spec adds the states made by calls.
 * tap: a new tap (valve_taps.yaml). */
#include "datatype.h"
#include "valve.h"

static int setup_new(union tb_arg *out)
{
	out->ptr = valve_new();
	return out->ptr ? 0 : tb_setup_fail("valve_new() returned NULL");
}

static const struct tb_value valve_values[] = {
	{ .name = "NEW", .setup = setup_new, .desc = "valve_new()" },
	{ 0 },
};

const struct tb_datatype tb_type_valve = {
	.name = "valve", .ctype = "valve_t *", .values = valve_values,
};

static int setup_tap(union tb_arg *out)
{
	out->ptr = tap_new();
	return out->ptr ? 0 : tb_setup_fail("tap_new() returned NULL");
}

static const struct tb_value tap_values[] = {
	{ .name = "NEW", .setup = setup_tap, .desc = "tap_new()" },
	{ 0 },
};

const struct tb_datatype tb_type_tap = {
	.name = "tap", .ctype = "valve_t *", .values = tap_values,
};
