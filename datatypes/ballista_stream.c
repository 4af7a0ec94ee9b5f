/*
 * Ballista's b_ptr_file (b_ptr_void's 7 + 432 streams) and b_fd (b_int's 25
 * + 576 descriptors), from the stream states FILE and Sfio_t share
 * (stream_state.h), over Ballista's 18-byte file.
 */
#include <unistd.h>

#include "ballista.h"
#include "stream_state.h"

static int build_file(const long *args, union tb_arg *out)
{
	return tb_stream_build(&tb_stream_file, &tb_stream_text_ballista, args, out);
}

TB_DATATYPE(tb_type_b_ptr_file) = {
	.name = "b_ptr_file", .parent = &tb_type_b_ptr_void, .ctype = "FILE *",
	.dials = tb_stream_dials, .build = build_file,
};

/* b_fd's existence dial has a fourth state: a file that could not be
 * opened, whose descriptor is open(2)'s -1. */
enum { FD_EXIST, FD_CLOSED, FD_DELETED, FD_NO_EXIST };

static const struct tb_choice fd_existence[] = {
	{ .name = "EXIST", .arg = FD_EXIST, .desc = "an open descriptor" },
	{ .name = "CLOSED", .arg = FD_CLOSED, .desc = "a descriptor already closed" },
	{ .name = "DELETED", .arg = FD_DELETED, .desc = "open, its file removed" },
	{ .name = "NO_EXIST", .arg = FD_NO_EXIST, .desc = "-1: the file was not there to open" },
	{ 0 },
};

static const struct tb_dial fd_dials[] = {
	{ .name = "MODE", .choices = tb_stream_modes },
	{ .name = "PERMISSIONS", .choices = tb_stream_permissions },
	{ .name = "EXISTENCE", .choices = fd_existence },
	{ .name = "POSITION", .choices = tb_stream_positions },
	{ 0 },
};

static int build_fd(const long *args, union tb_arg *out)
{
	char name[64];
	int fd;

	if (args[TB_DIAL_EXISTENCE] == FD_NO_EXIST) {
		out->i = -1;
		return 0;
	}
	fd = tb_stream_fd("fd", &tb_stream_text_ballista, args, name, sizeof(name));
	if (fd < 0)
		return -1;
	out->i = fd;
	if (args[TB_DIAL_EXISTENCE] == FD_CLOSED)
		return close(fd);
	if (args[TB_DIAL_EXISTENCE] == FD_DELETED)
		return unlink(name);
	return 0;
}

TB_DATATYPE(tb_type_b_fd) = {
	.name = "b_fd", .parent = &tb_type_b_int, .ctype = "int",
	.dials = fd_dials, .build = build_fd,
};
