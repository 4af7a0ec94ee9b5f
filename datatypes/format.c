/*
 * format: printf/scanf format strings.  The conversions that need arguments
 * (PCT_S, PCT_N, PCT_D) are passed none unless the spec adds them, which is
 * the misuse they stand for.
 */
#include <string.h>

#include "datatype.h"

#define LONG_LEN 4096

static int setup_long(union tb_arg *out)
{
	char *s = tb_guarded_block(LONG_LEN + 1);

	if (!s)
		return -1;
	memset(s, 'x', LONG_LEN);
	s[LONG_LEN] = '\0';
	out->ptr = s;
	return 0;
}

static const struct tb_value format_values[] = {
	{ .name = "PLAIN", .text = "hello, world\n", .desc = "\"hello, world\\n\", no conversion" },
	{ .name = "PCT_S", .text = "%s", .desc = "\"%s\" with no argument" },
	{ .name = "PCT_N", .text = "%n", .desc = "\"%n\" with no argument" },
	{ .name = "PCT_D", .text = "%d", .desc = "\"%d\" with no argument" },
	{ .name = "EMPTY", .text = "", .desc = "the empty string" },
	/* INT_MAX + 1: a width that overflows.  (A width of INT_MAX itself
	 * prints 2 GiB, which takes about the watchdog's second, so its outcome
	 * would depend on the machine's speed.) */
	{ .name = "HUGE_WIDTH", .text = "%2147483648d", .desc = "width INT_MAX + 1" },
	{ .name = "LONG", .setup = setup_long, .desc = "4096 plain characters" },
	{ 0 },
};

TB_DATATYPE(tb_type_format) = {
	.name = "format",
	.parent = &tb_type_pointer,
	.ctype = "const char *",
	.values = format_values,
	/* READ_ONLY's random bytes hold no NUL: no C string */
	.misuse = (const char *const[]){ "READ_ONLY", NULL },
};
