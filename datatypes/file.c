/*
 * FILE: stdio streams in every state a caller can leave one in.  Each stream
 * value opens its own file in the scratch directory, so two FILE parameters
 * of one case never share a file by accident.
 */
#include <stdint.h>
#include <stdio.h>

#include "datatype.h"

static int stream(union tb_arg *out, FILE *f)
{
	out->ptr = f;
	return f ? 0 : -1;
}

static FILE *open_scratch(const char *name, const char *mode)
{
	return tb_scratch_file(name, 0644) ? NULL : fopen(name, mode);
}

static int setup_read(union tb_arg *out) { return stream(out, open_scratch("file_read.txt", "r")); }
static int setup_write(union tb_arg *out) { return stream(out, fopen("file_write.txt", "w")); }
static int setup_update(union tb_arg *out) { return stream(out, open_scratch("file_update.txt", "r+")); }
static int setup_append(union tb_arg *out) { return stream(out, open_scratch("file_append.txt", "a")); }

static int setup_closed(union tb_arg *out)
{
	FILE *f = open_scratch("file_closed.txt", "r");

	if (!f)
		return -1;
	/* keep the address as a number: a dangling stream is the point */
	out->u = (uintptr_t)f;
	return fclose(f) ? -1 : 0;
}

static int setup_at_eof(union tb_arg *out)
{
	FILE *f = open_scratch("file_eof.txt", "r");

	if (!f || fseek(f, 0, SEEK_END) || fgetc(f) != EOF || !feof(f))
		return -1;
	return stream(out, f);
}

/* Reading a write-only stream sets its error indicator. */
static int setup_in_error(union tb_arg *out)
{
	FILE *f = fopen("file_error.txt", "w");

	if (!f || fgetc(f) != EOF || !ferror(f))
		return -1;
	return stream(out, f);
}

static int setup_memstream(union tb_arg *out)
{
	void *buf = tb_guarded_block(4096);

	return buf ? stream(out, fmemopen(buf, 4096, "w+")) : -1;
}

static int setup_stdin(union tb_arg *out) { return stream(out, stdin); }
static int setup_stdout(union tb_arg *out) { return stream(out, stdout); }
static int setup_stderr(union tb_arg *out) { return stream(out, stderr); }

/* Random bytes the size of a FILE: what a stray pointer to a struct sees. */
static int setup_garbage(union tb_arg *out)
{
	return (out->ptr = tb_garbage_block(sizeof(FILE))) ? 0 : -1;
}

static const struct tb_value file_values[] = {
	{ .name = "READ", .setup = setup_read, .desc = "a text file opened \"r\"" },
	{ .name = "WRITE", .setup = setup_write, .desc = "a new file opened \"w\"" },
	{ .name = "UPDATE", .setup = setup_update, .desc = "a text file opened \"r+\"" },
	{ .name = "APPEND", .setup = setup_append, .desc = "a text file opened \"a\"" },
	{ .name = "CLOSED", .setup = setup_closed, .desc = "a stream already fclosed" },
	{ .name = "AT_EOF", .setup = setup_at_eof, .desc = "a read stream with its EOF flag set" },
	{ .name = "IN_ERROR", .setup = setup_in_error, .desc = "a stream with its error flag set" },
	{ .name = "MEMSTREAM", .setup = setup_memstream, .desc = "fmemopen on 4096 bytes, \"w+\"" },
	{ .name = "STDIN", .setup = setup_stdin, .desc = "stdin (reads /dev/null)" },
	{ .name = "STDOUT", .setup = setup_stdout, .desc = "stdout (writes /dev/null)" },
	{ .name = "STDERR", .setup = setup_stderr, .desc = "stderr (writes /dev/null)" },
	{ .name = "GARBAGE", .setup = setup_garbage, .desc = "random bytes shaped like a FILE" },
	{ 0 },
};

TB_DATATYPE(tb_type_file) = {
	.name = "FILE",
	.parent = &tb_type_pointer,
	.ctype = "FILE *",
	.values = file_values,
};
