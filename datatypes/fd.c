/*
 * fd: file descriptors, open in every direction, closed, out of range, and
 * pointing at things that are not regular files.  Pipes keep their other end
 * open in the test process, so a read of PIPE_READ blocks (a RESTART, if the
 * function waits for data) and a write to PIPE_WRITE succeeds until full.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include "datatype.h"

/* High enough that no other value's open() lands on it. */
#define CLOSED_FD 987

static int opened(union tb_arg *out, int fd)
{
	out->i = fd;
	return fd < 0 ? -1 : 0;
}

static int setup_file_rdonly(union tb_arg *out)
{
	if (tb_scratch_file("fd_rdonly.txt", 0644))
		return -1;
	return opened(out, open("fd_rdonly.txt", O_RDONLY));
}

static int setup_file_wronly(union tb_arg *out)
{
	return opened(out, open("fd_wronly.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644));
}

static int setup_file_rdwr(union tb_arg *out)
{
	if (tb_scratch_file("fd_rdwr.txt", 0644))
		return -1;
	return opened(out, open("fd_rdwr.txt", O_RDWR));
}

static int setup_closed(union tb_arg *out)
{
	if (fcntl(CLOSED_FD, F_GETFD) != -1 || errno != EBADF)
		return -1;
	out->i = CLOSED_FD;
	return 0;
}

static int setup_dir(union tb_arg *out)
{
	return opened(out, open(".", O_RDONLY | O_DIRECTORY));
}

static int setup_pipe_end(union tb_arg *out, int end)
{
	int p[2];

	if (pipe(p))
		return -1;
	out->i = p[end];
	return 0;
}

static int setup_pipe_read(union tb_arg *out) { return setup_pipe_end(out, 0); }
static int setup_pipe_write(union tb_arg *out) { return setup_pipe_end(out, 1); }

static int setup_dev_null(union tb_arg *out)
{
	return opened(out, open("/dev/null", O_RDWR));
}

static const struct tb_value fd_values[] = {
	{ .name = "STDIN", .constant.i = 0, .desc = "0, reading /dev/null" },
	{ .name = "STDOUT", .constant.i = 1, .desc = "1, writing /dev/null" },
	{ .name = "STDERR", .constant.i = 2, .desc = "2, writing /dev/null" },
	{ .name = "FILE_RDONLY", .setup = setup_file_rdonly, .desc = "a text file opened O_RDONLY" },
	{ .name = "FILE_WRONLY", .setup = setup_file_wronly, .desc = "a new file opened O_WRONLY" },
	{ .name = "FILE_RDWR", .setup = setup_file_rdwr, .desc = "a text file opened O_RDWR" },
	{ .name = "CLOSED", .setup = setup_closed, .desc = "a descriptor number that is not open" },
	{ .name = "NEG_ONE", .constant.i = -1, .desc = "-1" },
	{ .name = "INT_MAX", .constant.i = INT_MAX, .desc = "2^31-1, far past the descriptor limit" },
	{ .name = "DIR", .setup = setup_dir, .desc = "a directory opened O_RDONLY" },
	{ .name = "PIPE_READ", .setup = setup_pipe_read,
	  .desc = "read end of an empty pipe whose write end stays open: a read blocks" },
	{ .name = "PIPE_WRITE", .setup = setup_pipe_write,
	  .desc = "write end of a pipe whose read end stays open: a write succeeds until full" },
	{ .name = "DEV_NULL", .setup = setup_dev_null, .desc = "/dev/null opened O_RDWR" },
	{ 0 },
};

TB_DATATYPE(tb_type_fd) = {
	.name = "fd", .ctype = "int", .values = fd_values,
};
