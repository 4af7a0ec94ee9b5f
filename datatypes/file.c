/*
 * FILE: stdio streams in every state a caller can leave one in.  The plain
 * stream states come from the table Sfio_t shares (stream_state.h); the
 * rest are stdio's own.  Each stream state opens its own file in the
 * scratch directory, so two FILE parameters of one case never share a file
 * by accident.
 */
#include <stdio.h>

#include "stream_state.h"

static int stream(union tb_arg *out, FILE *f)
{
	out->ptr = f;
	return f ? 0 : -1;
}

static void *from_fd(int fd, enum tb_stream_mode mode)
{
	return fdopen(fd, tb_stream_mode_text[mode]);
}

static int close_file(void *f) { return fclose(f); }

static int read_to_eof(void *f)
{
	return fgetc(f) == EOF && feof((FILE *)f) ? 0 : -1;
}

const struct tb_stream_kind tb_stream_file = {
	.prefix = "file", .from_fd = from_fd, .close = close_file, .read_to_eof = read_to_eof,
};

static int build_ours(const long *args, union tb_arg *out)
{
	return tb_stream_build(&tb_stream_file, &tb_stream_text_ours, args, out);
}

/* The stream states our dictionary names, as points of the shared dials
 * (mode, permissions, existence, position). */
#define STATE(mode, exist, pos) .build = build_ours, .args = { mode, 0644, exist, pos }

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
	{ .name = "READ", STATE(TB_MODE_READ, TB_EXIST, TB_POS_BEGINNING),
	  .desc = "a text file opened \"r\" (READ.EXIST.BEGINNING)" },
	{ .name = "WRITE", STATE(TB_MODE_WRITE, TB_EXIST, TB_POS_EMPTY),
	  .desc = "a new file opened \"w\" (WRITE.EXIST.EMPTY)" },
	{ .name = "UPDATE", STATE(TB_MODE_READ_PLUS, TB_EXIST, TB_POS_BEGINNING),
	  .desc = "a text file opened \"r+\" (READ_PLUS.EXIST.BEGINNING)" },
	/* at the end, where fopen's "a" leaves a stream */
	{ .name = "APPEND", STATE(TB_MODE_APPEND, TB_EXIST, TB_POS_END),
	  .desc = "a text file opened \"a\" (APPEND.EXIST.EOF)" },
	{ .name = "CLOSED", STATE(TB_MODE_READ, TB_CLOSED, TB_POS_BEGINNING),
	  .desc = "a stream already fclosed (READ.CLOSED.BEGINNING)", .misuse = 1 },
	{ .name = "AT_EOF", STATE(TB_MODE_READ, TB_EXIST, TB_POS_AT_EOF),
	  .desc = "a read stream with its EOF flag set" },
	{ .name = "IN_ERROR", .setup = setup_in_error, .desc = "a stream with its error flag set" },
	{ .name = "MEMSTREAM", .setup = setup_memstream, .desc = "fmemopen on 4096 bytes, \"w+\"" },
	{ .name = "STDIN", .setup = setup_stdin, .desc = "stdin (reads /dev/null)" },
	{ .name = "STDOUT", .setup = setup_stdout, .desc = "stdout (writes /dev/null)" },
	{ .name = "STDERR", .setup = setup_stderr, .desc = "stderr (writes /dev/null)" },
	{ .name = "GARBAGE", .setup = setup_garbage, .desc = "random bytes shaped like a FILE", .misuse = 1 },
	{ 0 },
};

TB_DATATYPE(tb_type_file) = {
	.name = "FILE",
	.parent = &tb_type_pointer,
	.ctype = "FILE *",
	.values = file_values,
	/* random or zero bytes are no stream */
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", "MISALIGNED", NULL },
};
