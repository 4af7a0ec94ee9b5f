/*
 * Files that values need, created in the test process's scratch directory
 * (its working directory), never anywhere else.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datatype.h"

#define LINE "The quick brown fox jumps over the lazy dog; 0123456789.\n"
#define LINES8 LINE LINE LINE LINE LINE LINE LINE LINE
#define LINES64 LINES8 LINES8 LINES8 LINES8 LINES8 LINES8 LINES8 LINES8

/* 58 bytes x 160 lines: 9280 bytes, a little over two 4 KiB pages */
const char tb_scratch_text[] = LINES64 LINES64 LINES8 LINES8 LINES8 LINES8;
const size_t tb_scratch_text_len = sizeof(tb_scratch_text) - 1;

int tb_scratch_file(const char *name, unsigned mode)
{
	ssize_t n;
	int fd;

	/* made anew: two parameters may name the same file, read-only or not */
	unlink(name);
	fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		return -1;
	n = write(fd, tb_scratch_text, tb_scratch_text_len);
	if (fchmod(fd, mode) || close(fd) || n != (ssize_t)tb_scratch_text_len)
		return -1;
	return 0;
}
