/*
 * Sfio_t: SFIO streams in every state a caller can leave one in, plus the
 * pointer values that make sense for a stream.  Each stream value opens a
 * file of its own in the scratch directory.
 */
#include <stdint.h>
#include <unistd.h>

#include "datatype.h"
#include "sfio_abi.h"

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

static int setup_read(union tb_arg *out) { return stream(out, open_scratch("sf_read.txt", "r")); }
static int setup_write(union tb_arg *out) { return stream(out, sfopen(NULL, "sf_write.txt", "w")); }
static int setup_read_write(union tb_arg *out) { return stream(out, open_scratch("sf_rw.txt", "r+")); }

static int setup_closed(union tb_arg *out)
{
	Sfio_t *f = open_scratch("sf_closed.txt", "r");

	if (!f)
		return -1;
	/* keep the address as a number: a dangling stream is the point */
	out->u = (uintptr_t)f;
	return sfclose(f) ? -1 : 0;
}

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

static int setup_at_eof(union tb_arg *out)
{
	Sfio_t *f = open_scratch("sf_eof.txt", "r");

	if (!f || sfseek(f, 0, SEEK_END) < 0 || sfgetc(f) >= 0 || !sfeof(f))
		return -1;
	return stream(out, f);
}

/* A read stream whose descriptor was closed underneath it. */
static int setup_bad_fd(union tb_arg *out)
{
	Sfio_t *f = open_scratch("sf_badfd.txt", "r");

	if (!f || close(sffileno(f)))
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
	{ .name = "READ", .setup = setup_read, .desc = "a text file opened \"r\"" },
	{ .name = "WRITE", .setup = setup_write, .desc = "a new file opened \"w\"" },
	{ .name = "READ_WRITE", .setup = setup_read_write, .desc = "a text file opened \"r+\"" },
	{ .name = "CLOSED", .setup = setup_closed, .desc = "a stream already sfclosed" },
	{ .name = "STRING", .setup = setup_string, .desc = "sfnew string stream over 4 KiB, read-write" },
	{ .name = "AT_EOF", .setup = setup_at_eof, .desc = "a read stream with SF_EOF set" },
	{ .name = "BAD_FD", .setup = setup_bad_fd, .desc = "a read stream whose descriptor was closed" },
	{ .name = "STDIN", .setup = setup_stdin },
	{ .name = "STDOUT", .setup = setup_stdout },
	{ .name = "STDERR", .setup = setup_stderr },
	{ .name = "GARBAGE", .setup = setup_garbage, .desc = "512 random bytes" },
	{ 0 },
};

const struct tb_datatype tb_type_sfio_stream = {
	.name = "Sfio_t",
	.parent = &tb_type_pointer,
	.ctype = "Sfio_t *",
	.values = stream_values,
};
