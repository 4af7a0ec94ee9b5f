/*
 * path: file names.  Every name is relative, so it resolves inside the test
 * process's scratch directory and nothing outside it is ever touched, and
 * ends at a guard page, so a read past its NUL faults.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datatype.h"

/* A name a setup made ready: read-only, as a literal is, and ending at a
 * guard page, as the .text values below do. */
static int named(union tb_arg *out, const char *name)
{
	return (out->ptr = tb_guarded_text(name)) ? 0 : -1;
}

static int setup_existing(union tb_arg *out)
{
	return tb_scratch_file("existing.txt", 0644) ? -1 : named(out, "existing.txt");
}

static int setup_missing(union tb_arg *out)
{
	if (unlink("missing.txt") && errno != ENOENT)
		return -1;
	return named(out, "missing.txt");
}

static int setup_directory(union tb_arg *out)
{
	if (mkdir("subdir", 0755) && errno != EEXIST)
		return -1;
	return named(out, "subdir");
}

/* PATH_MAX + 1 characters: one more than any path may have. */
static int setup_too_long(union tb_arg *out)
{
	char *s = tb_guarded_block(PATH_MAX + 2);

	if (!s)
		return -1;
	memset(s, 'a', PATH_MAX + 1);
	s[PATH_MAX + 1] = '\0';
	out->ptr = s;
	return 0;
}

static int setup_read_only_file(union tb_arg *out)
{
	return tb_scratch_file("read_only.txt", 0444) ? -1 : named(out, "read_only.txt");
}

static const struct tb_value path_values[] = {
	{ .name = "EXISTING", .setup = setup_existing, .desc = "a readable text file" },
	{ .name = "MISSING", .setup = setup_missing, .desc = "a file that does not exist" },
	{ .name = "MISSING_DIR", .text = "no_such_dir/file.txt",
	  .desc = "a file in a directory that does not exist" },
	{ .name = "DIRECTORY", .setup = setup_directory, .desc = "a directory" },
	{ .name = "EMPTY", .text = "", .desc = "the empty string" },
	{ .name = "TOO_LONG", .setup = setup_too_long, .desc = "PATH_MAX + 1 characters" },
	{ .name = "READ_ONLY_FILE", .setup = setup_read_only_file, .desc = "a file with mode 0444" },
	{ 0 },
};

TB_DATATYPE(tb_type_path) = {
	.name = "path",
	.parent = &tb_type_pointer,
	.ctype = "const char *",
	.values = path_values,
	/* READ_ONLY's random bytes hold no NUL: no C string */
	.misuse = (const char *const[]){ "READ_ONLY", NULL },
};
