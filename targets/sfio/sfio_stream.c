/*
 * Sfio_t: SFIO streams in every state a caller can leave one in, plus the
 * pointer values that make sense for a stream.  The plain stream states
 * come from the table FILE shares (stream_state.h); the rest are SFIO's
 * own.  Each stream value opens a file of its own in the scratch directory.
 */
#include <unistd.h>

#include "sfio_abi.h"
#include "stream_state.h"

#define GARBAGE_SIZE 512  /* more than the whole struct _sfio_s */

static int stream(union tb_arg *out, Sfio_t *f)
{
	out->ptr = f;
	return f ? 0 : -1;
}

static Sfio_t *open_scratch(const char *name, const char *mode)
{
	return tb_scratch_file(name, 0644) ? NULL : sfopen(NULL, name, mode);
}

/* sfnew's flags for each mode of stream_state.h, as sfopen sets them for
 * the same letters. */
static const int sfio_flags[] = {
	[TB_MODE_READ] = SF_READ,
	[TB_MODE_WRITE] = SF_WRITE,
	[TB_MODE_APPEND] = SF_WRITE | SF_APPENDWR,
	[TB_MODE_READ_PLUS] = SF_READ | SF_WRITE,
	[TB_MODE_WRITE_PLUS] = SF_READ | SF_WRITE,
	[TB_MODE_APPEND_PLUS] = SF_READ | SF_WRITE | SF_APPENDWR,
};

static void *from_fd(int fd, enum tb_stream_mode mode)
{
	return sfnew(NULL, NULL, SF_UNBOUND, fd, sfio_flags[mode]);
}

static int close_stream(void *f) { return sfclose(f); }

static int read_to_eof(void *f)
{
	return sfgetc((Sfio_t *)f) < 0 && sfeof((Sfio_t *)f) ? 0 : -1;
}

const struct tb_stream_kind tb_stream_sfio = {
	.prefix = "sf", .from_fd = from_fd, .close = close_stream, .read_to_eof = read_to_eof,
};

static int build_ours(const long *args, union tb_arg *out)
{
	return tb_stream_build(&tb_stream_sfio, &tb_stream_text_ours, args, out);
}

/* The stream states our dictionary names, as points of the dials it shares
 * with FILE (mode, permissions, existence, position). */
#define STATE(mode, exist, pos) .build = build_ours, .args = { mode, 0644, exist, pos }

/* A read-write string stream over a page of text. */
static int setup_string(union tb_arg *out)
{
	char *buf = tb_guarded_block(4096);
	size_t i;

	if (!buf)
		return -1;
	for (i = 0; i < 4096; i++)
		buf[i] = tb_scratch_text[i];
	return stream(out, sfnew(NULL, buf, 4096, -1, SF_STRING | SF_READ | SF_WRITE));
}

/* Closes the descriptor under f.  A library whose streams' descriptors are
 * not the caller's (the process boundary's server holds them) defines its
 * own in its target's sources. */
__attribute__((weak)) int tb_sfio_close_descriptor(Sfio_t *f)
{
	return close(sffileno(f));
}

/* A read stream whose descriptor was closed underneath it. */
static int setup_bad_fd(union tb_arg *out)
{
	Sfio_t *f = open_scratch("sf_badfd.txt", "r");

	if (!f || tb_sfio_close_descriptor(f))
		return -1;
	return stream(out, f);
}

static int setup_stdin(union tb_arg *out) { return stream(out, sfstdin); }
static int setup_stdout(union tb_arg *out) { return stream(out, sfstdout); }
static int setup_stderr(union tb_arg *out) { return stream(out, sfstderr); }

static int setup_garbage(union tb_arg *out)
{
	return (out->ptr = tb_garbage_block(GARBAGE_SIZE)) ? 0 : -1;
}

static const struct tb_value stream_values[] = {
	{ .name = "READ", STATE(TB_MODE_READ, TB_EXIST, TB_POS_BEGINNING),
	  .desc = "a text file opened \"r\" (READ.EXIST.BEGINNING)" },
	{ .name = "WRITE", STATE(TB_MODE_WRITE, TB_EXIST, TB_POS_EMPTY),
	  .desc = "a new file opened \"w\" (WRITE.EXIST.EMPTY)" },
	{ .name = "READ_WRITE", STATE(TB_MODE_READ_PLUS, TB_EXIST, TB_POS_BEGINNING),
	  .desc = "a text file opened \"r+\" (READ_PLUS.EXIST.BEGINNING)" },
	{ .name = "CLOSED", STATE(TB_MODE_READ, TB_CLOSED, TB_POS_BEGINNING),
	  .desc = "a stream already sfclosed (READ.CLOSED.BEGINNING)", .misuse = 1 },
	{ .name = "STRING", .setup = setup_string, .desc = "sfnew string stream over 4 KiB, read-write" },
	{ .name = "AT_EOF", STATE(TB_MODE_READ, TB_EXIST, TB_POS_AT_EOF),
	  .desc = "a read stream with SF_EOF set" },
	{ .name = "BAD_FD", .setup = setup_bad_fd, .desc = "a read stream whose descriptor was closed" },
	{ .name = "STDIN", .setup = setup_stdin },
	{ .name = "STDOUT", .setup = setup_stdout },
	{ .name = "STDERR", .setup = setup_stderr },
	{ .name = "GARBAGE", .setup = setup_garbage, .desc = "512 random bytes", .misuse = 1 },
	{ 0 },
};

const struct tb_datatype tb_type_sfio_stream = {
	.name = "Sfio_t",
	.parent = &tb_type_pointer,
	.ctype = "Sfio_t *",
	.values = stream_values,
	/* random or zero bytes are no stream */
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", "MISALIGNED", NULL },
};
