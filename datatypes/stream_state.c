/*
 * Stream states (stream_state.h).  The steps follow Ballista's b_ptr_file
 * in order, so its dials build what they built: the file is made anew with
 * 0644, holding the text for the read and append modes; it is reopened with
 * the mode's open(2) flags and the PERMISSIONS bits; the write modes then
 * write the text; the descriptor is positioned; the stream library turns it
 * into a stream; a CLOSED stream is closed and a DELETED one's file removed.
 *
 * Two of Ballista's oddities are kept on purpose:
 *  - PERMISSIONS has no effect: the file already exists when it is
 *    reopened, and open(2) applies a mode only to a file it creates.  Every
 *    stream thus comes six times over; that is Ballista's weighting.
 *  - EMPTY leaves the text out and the descriptor where open(2) left it.
 * One is not: Ballista passed fdopen a char[2] mode, unterminated for "r",
 * "w" and "a", whose meaning depended on the stack; we pass the letters.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stream_state.h"

const struct tb_choice tb_stream_modes[] = {
	{ .name = "READ", .arg = TB_MODE_READ, .desc = "\"r\", O_RDONLY" },
	{ .name = "WRITE", .arg = TB_MODE_WRITE, .desc = "\"w\", O_WRONLY|O_CREAT|O_TRUNC" },
	{ .name = "APPEND", .arg = TB_MODE_APPEND, .desc = "\"a\", O_WRONLY|O_CREAT|O_APPEND" },
	{ .name = "READ_PLUS", .arg = TB_MODE_READ_PLUS, .desc = "\"r+\", O_RDWR" },
	{ .name = "WRITE_PLUS", .arg = TB_MODE_WRITE_PLUS, .desc = "\"w+\", O_RDWR|O_CREAT|O_TRUNC" },
	{ .name = "APPEND_PLUS", .arg = TB_MODE_APPEND_PLUS, .desc = "\"a+\", O_RDWR|O_CREAT|O_APPEND" },
	{ 0 },
};

/* Inert (see above): kept for Ballista's weighting. */
const struct tb_choice tb_stream_permissions[] = {
	{ .name = "R_USER", .arg = 0400 },
	{ .name = "W_USER", .arg = 0200 },
	{ .name = "X_USER", .arg = 0100 },
	{ .name = "RWX_USER", .arg = 0700 },
	{ .name = "R_GRP", .arg = 0040 },
	{ .name = "NONE", .arg = 0 },
	{ 0 },
};

static const struct tb_choice existence[] = {
	{ .name = "EXIST", .arg = TB_EXIST, .desc = "the stream is open" },
	{ .name = "CLOSED", .arg = TB_CLOSED, .desc = "the stream was closed: a dangling pointer",
	  .misuse = 1 },
	{ .name = "DELETED", .arg = TB_DELETED, .desc = "its file was removed, the stream still open" },
	{ 0 },
};

const struct tb_choice tb_stream_positions[] = {
	{ .name = "EMPTY", .arg = TB_POS_EMPTY, .desc = "an empty file" },
	{ .name = "BEGINNING", .arg = TB_POS_BEGINNING, .desc = "at offset 0" },
	{ .name = "EOF", .arg = TB_POS_END, .desc = "at the end, no EOF flag" },
	{ .name = "PAST_EOF", .arg = TB_POS_PAST_END, .desc = "ten bytes past the end" },
	{ 0 },
};

const struct tb_dial tb_stream_dials[] = {
	{ .name = "MODE", .choices = tb_stream_modes },
	{ .name = "PERMISSIONS", .choices = tb_stream_permissions },
	{ .name = "EXISTENCE", .choices = existence },
	{ .name = "POSITION", .choices = tb_stream_positions },
	{ 0 },
};

const char *const tb_stream_mode_text[] = { "r", "w", "a", "r+", "w+", "a+" };

static const int open_flags[] = {
	O_RDONLY, O_WRONLY | O_CREAT | O_TRUNC, O_WRONLY | O_CREAT | O_APPEND,
	O_RDWR, O_RDWR | O_CREAT | O_TRUNC, O_RDWR | O_CREAT | O_APPEND,
};

#define BALLISTA_TEXT "A small test file\n"
const struct tb_stream_text tb_stream_text_ballista = { BALLISTA_TEXT };
const struct tb_stream_text tb_stream_text_ours = { tb_scratch_text };

static int write_text(int fd, const struct tb_stream_text *text)
{
	size_t len = strlen(text->bytes);

	return write(fd, text->bytes, len) == (ssize_t)len ? 0 : -1;
}

int tb_stream_fd(const char *prefix, const struct tb_stream_text *text, const long *args,
		 char *name, size_t len)
{
	long mode = args[TB_DIAL_MODE], pos = args[TB_DIAL_POSITION];
	int writes = mode == TB_MODE_WRITE || mode == TB_MODE_WRITE_PLUS;
	int fd;

	/* one file per state, so two stream parameters of a case in different
	 * states never share one (permissions are inert: not in the name) */
	snprintf(name, len, "%s_m%ld_e%ld_p%ld.txt", prefix, mode,
		 args[TB_DIAL_EXISTENCE], pos);
	unlink(name);
	fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || (pos != TB_POS_EMPTY && !writes && write_text(fd, text)) || close(fd))
		return tb_setup_fail("writing the scratch file %s", name);
	fd = open(name, open_flags[mode], (mode_t)args[TB_DIAL_PERMISSIONS]);
	if (fd < 0)
		return tb_setup_fail("opening %s in the stream's mode", name);
	if ((pos != TB_POS_EMPTY && writes && write_text(fd, text)) ||
	    (pos == TB_POS_BEGINNING && lseek(fd, 0, SEEK_SET) < 0) ||
	    ((pos == TB_POS_END || pos == TB_POS_AT_EOF) && lseek(fd, 0, SEEK_END) < 0) ||
	    (pos == TB_POS_PAST_END && lseek(fd, 10, SEEK_END) < 0)) {
		tb_setup_fail("placing %s at the stream's position", name);
		close(fd);
		return -1;
	}
	return fd;
}

int tb_stream_build(const struct tb_stream_kind *kind, const struct tb_stream_text *text,
		    const long *args, union tb_arg *out)
{
	char name[64];
	void *stream;
	int fd;

	fd = tb_stream_fd(kind->prefix, text, args, name, sizeof(name));
	if (fd < 0)
		return -1;
	stream = kind->from_fd(fd, (enum tb_stream_mode)args[TB_DIAL_MODE]);
	if (!stream) {
		tb_setup_fail("making a stream of %s's descriptor", name);
		close(fd);
		return -1;
	}
	if (args[TB_DIAL_POSITION] == TB_POS_AT_EOF && kind->read_to_eof(stream))
		return tb_setup_fail("reading %s's stream to its end", name);
	switch (args[TB_DIAL_EXISTENCE]) {
	case TB_CLOSED:
		/* keep the address as a number: a dangling stream is the point */
		out->u = (uintptr_t)stream;
		return kind->close(stream) ? tb_setup_fail("closing %s's stream", name) : 0;
	case TB_DELETED:
		if (unlink(name))
			return tb_setup_fail("deleting %s", name);
		break;
	}
	out->ptr = stream;
	return 0;
}
