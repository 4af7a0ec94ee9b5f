/*
 * command: shell command lines, for functions that start a process
 * (popen, sfpopen).  Every one ends by itself; none names a file outside
 * the scratch directory.
 */
#include "datatype.h"

static const struct tb_value command_values[] = {
	{ .name = "TRUE", .text = "true", .desc = "\"true\": exits 0 at once" },
	{ .name = "CAT", .text = "cat", .desc = "copies its input, /dev/null" },
	{ .name = "ECHO", .text = "echo hello", .desc = "\"echo hello\": writes a line" },
	{ .name = "MISSING", .text = "./no_such_command", .desc = "not found" },
	{ .name = "EMPTY", .text = "", .desc = "the empty string" },
	{ 0 },
};

TB_DATATYPE(tb_type_command) = {
	.name = "command",
	.parent = &tb_type_pointer,
	.ctype = "const char *",
	.values = command_values,
	/* READ_ONLY's random bytes hold no NUL: no C string */
	.misuse = (const char *const[]){ "READ_ONLY", NULL },
};
