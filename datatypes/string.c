/*
 * string: NUL-terminated text a function reads (const char *), beyond the
 * names and formats that path and format cover.  Every value ends at a
 * guard page: one byte past SHORT's NUL faults, and UNTERMINATED runs into
 * it without a NUL, so a function that reads past either faults.
 */
#include <string.h>

#include "datatype.h"

static int filled(union tb_arg *out, size_t len, int terminated)
{
	char *s = tb_guarded_block(len + (terminated ? 1 : 0));

	if (!s)
		return -1;
	memset(s, 'x', len);
	if (terminated)
		s[len] = '\0';
	out->ptr = s;
	return 0;
}

static int setup_long(union tb_arg *out) { return filled(out, 65536, 1); }
static int setup_unterminated(union tb_arg *out) { return filled(out, 64, 0); }

static const struct tb_value string_values[] = {
	{ .name = "EMPTY", .text = "", .desc = "the empty string" },
	{ .name = "SHORT", .text = "hello", .desc = "\"hello\"" },
	{ .name = "LINES", .text = "one\ntwo\n", .desc = "two lines" },
	{ .name = "LONG", .setup = setup_long, .desc = "64 KiB of text" },
	{ .name = "UNTERMINATED", .setup = setup_unterminated, .desc = "64 bytes, no NUL, then a guard page", .misuse = 1 },
	{ 0 },
};

TB_DATATYPE(tb_type_string) = {
	.name = "string",
	.parent = &tb_type_pointer,
	.ctype = "const char *",
	.values = string_values,
	/* READ_ONLY's random bytes hold no NUL: no C string */
	.misuse = (const char *const[]){ "READ_ONLY", NULL },
};
