/*
 * Ballista's character-pointer types: b_ptr_char (b_ptr_buf's 20 + a size x
 * a character x a fill = 68), b_ptr_char_mode (+ 9 mode letters = 77) and
 * b_fname (b_ptr_char's 68 + permissions x state x contents x name = 500).
 */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ballista.h"

/* ---- b_ptr_char: SIZE x CONTENTS x FILL */

enum { FILL_EMPTY, FILL_SOME, FILL_FULL };

static const struct tb_choice sizes[] = {
	{ .name = "S1", .arg = 1 }, { .name = "S4", .arg = 4 },
	{ .name = "S16", .arg = 16 }, { .name = "S8K", .arg = 8192 },
	{ 0 },
};
static const struct tb_choice characters[] = {
	{ .name = "A", .arg = 'A' }, { .name = "DIGIT_1", .arg = '1' },
	{ .name = "CTRL_V", .arg = 0x16 }, { .name = "ESC", .arg = 0x1b },
	{ 0 },
};
static const struct tb_choice fills[] = {
	{ .name = "EMPTY", .arg = FILL_EMPTY, .desc = "\"\"" },
	{ .name = "SOME", .arg = FILL_SOME, .desc = "a third of the block, then a NUL" },
	{ .name = "FULL", .arg = FILL_FULL, .desc = "every byte, no NUL" },
	{ 0 },
};
static const struct tb_dial char_dials[] = {
	{ .name = "SIZE", .choices = sizes },
	{ .name = "CONTENTS", .choices = characters },
	{ .name = "FILL", .choices = fills },
	{ 0 },
};

/* As Ballista filled them: SOME writes size/3 characters, skips one byte
 * and puts its NUL after it (for S1 one byte past the block: malloc's
 * slack takes it); the skipped byte is zeroed here, where Ballista left
 * whatever malloc gave (zeros, in a fresh process).  FULL has no NUL. */
static int build_char(const long *args, union tb_arg *out)
{
	size_t size = (size_t)args[0], third = size / 3;
	char *p = malloc(size < third + 2 ? third + 2 : size);

	if (!p)
		return tb_setup_fail("malloc(%zu)", size < third + 2 ? third + 2 : size);
	memset(p, 0, size < third + 2 ? third + 2 : size);
	if (args[2] == FILL_SOME)
		memset(p, (int)args[1], third);
	else if (args[2] == FILL_FULL)
		memset(p, (int)args[1], size);
	out->ptr = p;
	return 0;
}

TB_DATATYPE(tb_type_b_ptr_char) = {
	.name = "b_ptr_char", .parent = &tb_type_b_ptr_buf, .ctype = "char *",
	.dials = char_dials, .build = build_char,
};

/* ---- b_ptr_char_mode: the mode letters, three of them invalid */

static const struct tb_value mode_values[] = {
	TB_FOPEN_MODES(.constant.ptr),
	{ .name = "B", .constant.ptr = (void *)"b", .desc = "\"b\": no mode letter alone" },
	{ .name = "C", .constant.ptr = (void *)"c", .desc = "\"c\": no mode letter" },
	{ .name = "N", .constant.ptr = (void *)"n", .desc = "\"n\": no mode letter" },
	{ 0 },
};

TB_DATATYPE(tb_type_b_ptr_char_mode) = {
	.name = "b_ptr_char_mode", .parent = &tb_type_b_ptr_char, .ctype = "const char *",
	.values = mode_values,
};

/* ---- b_fname: PERMISSIONS x STATE x CONTENTS x NAME, in the scratch
 * directory: Ballista's /tmp name becomes a second directory of it. */

enum { NOT_EXIST_FILE, NOT_EXIST_DIR, OPEN_WRITE, OPEN_READ, CLOSED, LINK };
enum { LOCAL, TMP, EMBEDDED_SPACE, LONG, SPECIAL_CHAR, DIR };

#define TESTDIR "testdir"
#define TESTFILE TESTDIR "/fname"
#define LONG_NAME 1027  /* characters: one component over NAME_MAX */

static const struct tb_choice fname_permissions[] = {
	{ .name = "R_USER", .arg = 0400 }, { .name = "W_USER", .arg = 0200 },
	{ .name = "X_USER", .arg = 0100 }, { .name = "RWX_USER", .arg = 0700 },
	{ .name = "R_GRP", .arg = 0040 }, { .name = "NONE", .arg = 0 },
	{ 0 },
};
static const struct tb_choice fname_states[] = {
	{ .name = "NOT_EXIST_FILE", .arg = NOT_EXIST_FILE, .desc = "no such file" },
	{ .name = "NOT_EXIST_DIR", .arg = NOT_EXIST_DIR, .desc = "the test directory removed" },
	{ .name = "OPEN_WRITE", .arg = OPEN_WRITE, .desc = "a file held open \"w+\"" },
	{ .name = "OPEN_READ", .arg = OPEN_READ, .desc = "a file held open \"r+\"" },
	/* Ballista never assigned the value in this state: what the call got
	 * was whatever the variable held, so it is not built (SETUP) */
	{ .name = "CLOSED", .arg = CLOSED, .desc = "never built, as Ballista never assigned it" },
	{ .name = "LINK", .arg = LINK, .desc = "a hard link to a file" },
	{ 0 },
};
static const struct tb_choice fname_contents[] = {
	{ .name = "EMPTY", .arg = 0 }, { .name = "NON_EMPTY", .arg = 1 },
	{ 0 },
};
static const struct tb_choice fname_names[] = {
	{ .name = "LOCAL", .arg = LOCAL },
	{ .name = "TMP", .arg = TMP, .desc = "in another directory" },
	{ .name = "EMBEDDED_SPACE", .arg = EMBEDDED_SPACE },
	{ .name = "LONG", .arg = LONG, .desc = "1027 characters" },
	{ .name = "SPECIAL_CHAR", .arg = SPECIAL_CHAR, .desc = "punctuation and a '/': a missing directory" },
	/* despite the name, made as a regular file, as Ballista made it */
	{ .name = "DIR", .arg = DIR, .desc = "a regular file named like a directory" },
	{ 0 },
};
static const struct tb_dial fname_dials[] = {
	{ .name = "PERMISSIONS", .choices = fname_permissions },
	{ .name = "STATE", .choices = fname_states },
	{ .name = "CONTENTS", .choices = fname_contents },
	{ .name = "NAME", .choices = fname_names },
	{ 0 },
};

static char *fname_of(long name)
{
	static const char *const fixed[] = {
		[LOCAL] = TESTFILE,
		[TMP] = "tmpdir/fname",
		[EMBEDDED_SPACE] = TESTFILE " with space",
		[SPECIAL_CHAR] = TESTFILE "~!@#$%^&*()[]{}<>?/x",
		[DIR] = TESTDIR "/subdir",
	};
	char *p;

	if (name != LONG)
		return strdup(fixed[name]);
	p = malloc(LONG_NAME + 1);
	if (!p)
		return NULL;
	memset(p, 'a', LONG_NAME);
	memcpy(p, TESTFILE, strlen(TESTFILE));
	p[LONG_NAME] = 0;
	return p;
}

static int make_dir(const char *path)
{
	return mkdir(path, 0777) && errno != EEXIST ? -1 : 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

/* rm -rf: what another parameter made in the directory goes with it. */
static int remove_tree(const char *path)
{
	return nftw(path, remove_entry, 8, FTW_DEPTH | FTW_PHYS) && errno != ENOENT ? -1 : 0;
}

/* The file at path, made anew with the contents, then given the mode. */
static int make_file(const char *path, long contents, mode_t mode)
{
	FILE *f;

	unlink(path);
	f = fopen(path, "w+");
	if (!f)
		return -1;
	if (contents)
		fputs("Some text in a file.\n", f);
	return fclose(f) || chmod(path, mode) ? -1 : 0;
}

static int build_fname(const long *args, union tb_arg *out)
{
	mode_t mode = (mode_t)args[0];
	long state = args[1], contents = args[2];
	char *path, link_from[LONG_NAME + 8];
	int made;

	if (state == CLOSED)  /* as in Ballista's b_fname, which never gave it a value */
		return tb_setup_fail("b_fname's CLOSED state has no value (as in Ballista)");
	if (make_dir(TESTDIR) || make_dir("tmpdir"))
		return tb_setup_fail("making the directories %s and tmpdir", TESTDIR);
	path = fname_of(args[3]);
	if (!path)
		return tb_setup_fail("no name of this kind");
	out->ptr = path;
	switch (state) {
	case NOT_EXIST_FILE:
		unlink(path);
		return 0;
	case NOT_EXIST_DIR:
		unlink(path);
		return remove_tree(TESTDIR);
	case LINK:
		snprintf(link_from, sizeof(link_from), "%s.link", path);
		unlink(path);
		return make_file(link_from, contents, mode) || link(link_from, path) ||
		       chmod(path, mode) ? tb_setup_fail("linking %.60s to a new file", path) : 0;
	}
	made = make_file(path, contents, mode);
	if (made)
		return tb_setup_fail("making the file %.60s", path);
	/* held open for the call; a mode that forbids it cannot be built */
	return !fopen(path, state == OPEN_READ ? "r+" : "w+") ?
	       tb_setup_fail("opening %.60s %s, as its state holds it", path,
			     state == OPEN_READ ? "r+" : "w+") : 0;
}

TB_DATATYPE(tb_type_b_fname) = {
	.name = "b_fname", .parent = &tb_type_b_ptr_char, .ctype = "const char *",
	.dials = fname_dials, .build = build_fname,
};
