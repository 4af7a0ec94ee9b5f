/*
 * Check suite for the base datatypes: each value is what its name says.
 * Tests run forked (CK_FORK), each in a fresh scratch directory, so values
 * may create files, and a test may fault on purpose: the tests that prove a
 * value faults are registered with tcase_add_test_raise_signal.
 */
#include <check.h>
#include <errno.h>
#include <float.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ballista.h"
#include "datatype.h"
#include "dictionary.h"
#include "check_run.h"

/* ---- inheritance and required names ---- */

static const char *const required[][16] = {
	{ "pointer", "NULL", "MINUS_ONE", "ONE", "FREED", "READ_ONLY", "NO_ACCESS", "UNMAPPED",
	  "MISALIGNED", "VALID" },
	{ "buffer", "NULL", "VALID", "BUF_0", "BUF_1", "BUF_PAGE", "BUF_LARGE" },
	{ "size", "ZERO", "ONE", "PAGE", "PAGE_PLUS_1", "INT_MAX", "UINT_MAX", "SIZE_MAX",
	  "SIZE_MAX_HALF", "NEG_ONE_INT" },
	{ "int", "ZERO", "ONE", "NEG_ONE", "INT_MAX", "INT_MIN", "CHAR_255", "CHAR_256" },
	{ "fd", "STDIN", "STDOUT", "STDERR", "FILE_RDONLY", "FILE_WRONLY", "FILE_RDWR", "CLOSED",
	  "NEG_ONE", "INT_MAX", "DIR", "PIPE_READ", "PIPE_WRITE", "DEV_NULL" },
	{ "path", "NULL", "UNMAPPED", "EXISTING", "MISSING", "MISSING_DIR", "DIRECTORY", "EMPTY",
	  "TOO_LONG", "READ_ONLY_FILE" },
	{ "mode", "NULL", "R", "W", "A", "R_PLUS", "W_PLUS", "A_PLUS", "EMPTY", "GARBAGE" },
	{ "whence", "SET", "CUR", "END", "NEG_ONE", "THREE", "INT_MAX" },
	{ "offset", "ZERO", "ONE", "NEG_ONE", "LLONG_MAX", "LLONG_MIN", "PAGE" },
	{ "FILE", "NULL", "FREED", "READ", "WRITE", "UPDATE", "APPEND", "CLOSED", "AT_EOF",
	  "IN_ERROR", "MEMSTREAM", "STDIN", "STDOUT", "STDERR", "GARBAGE" },
	{ "format", "NULL", "PLAIN", "PCT_S", "PCT_N", "PCT_D", "EMPTY", "HUGE_WIDTH", "LONG" },
	{ "double", "ZERO", "NEG_ZERO", "NAN", "INF", "NEG_INF", "MAX", "NEG_MAX", "MIN_NORMAL",
	  "SUBNORMAL" },
	{ "float", "ZERO", "NEG_ZERO", "NAN", "INF", "NEG_INF", "MAX", "NEG_MAX", "MIN_NORMAL",
	  "SUBNORMAL" },
	{ "int64", "ZERO", "ONE", "NEG_ONE", "INT64_MAX", "INT64_MIN", "INT32_MAX",
	  "INT32_MAX_PLUS_1", "INT32_MIN", "INT32_MIN_MINUS_1", "UINT32_MAX", "UINT32_MAX_PLUS_1" },
	{ "callback", "NULL", "RETURNS_ZERO", "RETURNS_MINUS_ONE", "NOT_CODE" },
};

START_TEST(required_names_exist)
{
	const char *const *row = required[_i];
	const struct tb_datatype *type = tb_datatype_find(row[0], NULL);
	struct tb_value_list list;
	int i, j, found;

	ck_assert_msg(type != NULL, "no datatype %s", row[0]);
	ck_assert_int_eq(tb_datatype_flatten(type, &list), 0);
	for (j = 1; row[j]; j++) {
		for (found = 0, i = 0; i < list.count; i++)
			found |= !strcmp(list.values[i]->name, row[j]);
		ck_assert_msg(found, "%s lacks %s", row[0], row[j]);
	}
}
END_TEST

START_TEST(names_unique_within_each_datatype)
{
	const struct tb_datatype *const *t;
	struct tb_value_list list;
	int i, j;

	for (t = tb_base_datatypes(); *t; t++) {
		ck_assert_int_eq(tb_datatype_flatten(*t, &list), 0);
		for (i = 0; i < list.count; i++)
			for (j = i + 1; j < list.count; j++)
				ck_assert_msg(strcmp(list.values[i]->name, list.values[j]->name),
					      "%s has %s twice", (*t)->name, list.values[i]->name);
	}
}
END_TEST

/* `trebuchet list datatypes` shows these: a value without one is a name to guess at */
START_TEST(every_value_says_what_it_is)
{
	const struct tb_datatype *const *t;
	struct tb_value_list list;
	int i;

	for (t = tb_base_datatypes(); *t; t++) {
		ck_assert_int_eq(tb_datatype_flatten(*t, &list), 0);
		for (i = 0; i < list.count; i++)
			ck_assert_msg(list.values[i]->desc && *list.values[i]->desc,
				      "%s:%s has no .desc", (*t)->name, list.values[i]->name);
	}
}
END_TEST

/* The registry is the linker section: every file's TB_DATATYPE is in it, once */
static int fails_saying_why(union tb_arg *out)
{
	char longer[300];

	memset(longer, 'x', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = 0;
	errno = EACCES;
	tb_setup_fail("%s", longer);
	/* a caller's word after it does not replace it */
	errno = EIO;
	return tb_setup_fail("outer");
}

static int fails_silently(union tb_arg *out)
{
	errno = ENOENT;
	return -1;
}

START_TEST(a_failed_setup_says_why_within_its_bound)
{
	const struct tb_value says = { .name = "S", .setup = fails_saying_why };
	const struct tb_value silent = { .name = "Q", .setup = fails_silently };
	const struct tb_value fine = { .name = "F", .constant.i = 1 };
	union tb_arg arg;
	int err;

	ck_assert_int_eq(tb_value_build(&says, &arg), -1);
	ck_assert_uint_eq(strlen(tb_setup_reason(&err)), TB_SETUP_REASON - 1);
	ck_assert_int_eq(err, EACCES);
	/* the next build starts with no reason: errno is what it left */
	ck_assert_int_eq(tb_value_build(&silent, &arg), -1);
	ck_assert_str_eq(tb_setup_reason(&err), "");
	ck_assert_int_eq(err, ENOENT);
	ck_assert_int_eq(tb_value_build(&fine, &arg), 0);
}
END_TEST

START_TEST(registry_holds_every_base_datatype_once)
{
	const struct tb_datatype *const *t;
	int n = 0;

	for (t = tb_base_datatypes(); *t; t++, n++)
		if (t[1])
			ck_assert_msg(strcasecmp(t[0]->name, t[1]->name) < 0, "%s, %s out of order",
				      t[0]->name, t[1]->name);
	ck_assert_int_eq(n, TB_BASE_COUNT);
	ck_assert_ptr_eq(tb_datatype_find("whence", NULL), &tb_type_whence);
}
END_TEST

START_TEST(inherited_values_come_first_in_parent_order)
{
	struct tb_value_list parent, child;
	int i;

	tb_datatype_flatten(&tb_type_pointer, &parent);
	tb_datatype_flatten(&tb_type_buffer, &child);
	ck_assert_int_eq(child.count, parent.count + 4);
	for (i = 0; i < parent.count; i++)
		ck_assert_ptr_eq(child.values[i], parent.values[i]);
	ck_assert_str_eq(child.values[parent.count]->name, "BUF_0");
}
END_TEST

START_TEST(skip_list_drops_parent_values)
{
	static const char *const skip[] = { "ONE", "FREED", NULL };
	static const struct tb_value none[] = { { 0 } };
	const struct tb_datatype narrowed = { .name = "narrow", .parent = &tb_type_pointer,
					      .skip = skip, .values = none };
	struct tb_value_list list, all;
	int i;

	tb_datatype_flatten(&tb_type_pointer, &all);
	tb_datatype_flatten(&narrowed, &list);
	ck_assert_int_eq(list.count, all.count - 2);
	for (i = 0; i < list.count; i++)
		ck_assert(strcmp(list.values[i]->name, "ONE") && strcmp(list.values[i]->name, "FREED"));
}
END_TEST

/* A step of a value made by calls builds its arguments by name, as the
 * executor builds a case's: inherited values and a dial product's included. */
START_TEST(a_value_is_built_by_its_name)
{
	union tb_arg arg;
	int err;

	ck_assert_int_eq(tb_value_named(&tb_type_int, "NEG_ONE", &arg), 0);
	ck_assert_int_eq(arg.i, -1);
	ck_assert_int_eq(tb_value_named(&tb_type_buffer, "NULL", &arg), 0);
	ck_assert_ptr_null(arg.ptr);
	ck_assert_int_eq(tb_value_named(&tb_type_b_ptr_file, "READ_PLUS.R_USER.EXIST.EOF", &arg), 0);
	ck_assert_ptr_nonnull(arg.ptr);
	ck_assert_int_eq(tb_value_named(&tb_type_int, "NEG_TWO", &arg), -1);
	ck_assert_str_eq(tb_setup_reason(&err), "datatype int has no value NEG_TWO");
}
END_TEST

/* A spec's values made by calls follow the datatype's own; the copy keeps
 * its name, parent, skips and misuse list. */
START_TEST(a_datatype_copied_with_more_values_keeps_its_own_first)
{
	static const struct tb_value more[] = { { .name = "MADE", .constant.i = 7 }, { 0 } };
	struct tb_datatype copy;
	struct tb_value_list list, own;
	int i;

	tb_datatype_with_values(&copy, &tb_type_buffer, more);
	ck_assert_str_eq(copy.name, "buffer");
	ck_assert_ptr_eq(copy.parent, tb_type_buffer.parent);
	tb_datatype_flatten(&tb_type_buffer, &own);
	tb_datatype_flatten(&copy, &list);
	ck_assert_int_eq(list.count, own.count + 1);
	for (i = 0; i < own.count; i++)
		ck_assert_str_eq(list.values[i]->name, own.values[i]->name);
	ck_assert_str_eq(list.values[own.count]->name, "MADE");
	for (i = 0; i < own.count; i++)
		ck_assert_int_eq(tb_value_misuse(&copy, list.values[i]),
				 tb_value_misuse(&tb_type_buffer, own.values[i]));
}
END_TEST

/* Reads the first byte of a pointer-like value: a fault here is the test. */
static char first_byte(const struct tb_datatype *type, const char *name)
{
	volatile char *p = check_build(type, name).ptr;

	return p[0];
}

/* ---- pointer ---- */

START_TEST(pointer_constants)
{
	ck_assert_ptr_null(check_build(&tb_type_pointer, "NULL").ptr);
	ck_assert_uint_eq(check_build(&tb_type_pointer, "MINUS_ONE").u, UINTPTR_MAX);
	ck_assert_uint_eq(check_build(&tb_type_pointer, "ONE").u, 1);
	ck_assert_uint_eq(check_build(&tb_type_pointer, "MISALIGNED").u & 1, 1);
}
END_TEST

START_TEST(read_only_reads)
{
	first_byte(&tb_type_pointer, "READ_ONLY");
}
END_TEST

START_TEST(read_only_faults_on_write)
{
	volatile char *p = check_build(&tb_type_pointer, "READ_ONLY").ptr;

	p[0] = 1;
}
END_TEST

START_TEST(no_access_faults_on_read)
{
	first_byte(&tb_type_pointer, "NO_ACCESS");
}
END_TEST

START_TEST(unmapped_is_not_mapped)
{
	void *p = check_build(&tb_type_pointer, "UNMAPPED").ptr;

	ck_assert_int_eq(msync(p, 4096, MS_ASYNC), -1);
	ck_assert_int_eq(errno, ENOMEM);
}
END_TEST

START_TEST(freed_is_a_released_heap_block)
{
	void *p = check_build(&tb_type_pointer, "FREED").ptr;

	/* the allocator hands the same block out again: it was free */
	ck_assert_ptr_eq(malloc(4096), p);
}
END_TEST

START_TEST(valid_is_a_writable_page_then_a_guard)
{
	volatile char *p = check_build(&tb_type_pointer, "VALID").ptr;

	memset((char *)p, 'v', 4096);
	p[4096] = 1;  /* the guard page */
}
END_TEST

/* ---- buffer ---- */

START_TEST(buf_0_faults_at_first_byte)
{
	first_byte(&tb_type_buffer, "BUF_0");
}
END_TEST

START_TEST(buf_1_has_one_byte)
{
	volatile char *p = check_build(&tb_type_buffer, "BUF_1").ptr;

	p[0] = 1;
	p[1] = 1;
}
END_TEST

START_TEST(buf_large_is_a_mebibyte)
{
	volatile char *p = check_build(&tb_type_buffer, "BUF_LARGE").ptr;

	memset((char *)p, 1, 1 << 20);
	p[1 << 20] = 1;
}
END_TEST

/* ---- numbers ---- */

START_TEST(numeric_constants)
{
	ck_assert_uint_eq(check_build(&tb_type_size, "SIZE_MAX").u, SIZE_MAX);
	ck_assert_uint_eq(check_build(&tb_type_size, "NEG_ONE_INT").u, (size_t)(int)-1);
	ck_assert_uint_eq(check_build(&tb_type_size, "PAGE_PLUS_1").u, 4097);
	ck_assert_int_eq(check_build(&tb_type_int, "INT_MIN").i, INT_MIN);
	ck_assert_int_eq(check_build(&tb_type_int, "CHAR_256").i, 256);
	ck_assert_int_eq(check_build(&tb_type_whence, "END").i, SEEK_END);
	ck_assert_int_eq(check_build(&tb_type_offset, "LLONG_MIN").i, LLONG_MIN);
}
END_TEST

/* each class IEEE 754 has, and a float's values exact as floats */
START_TEST(floating_constants)
{
	static const struct tb_datatype *const types[] = { &tb_type_double, &tb_type_float };
	int t;

	for (t = 0; t < 2; t++) {
		double nan = check_build(types[t], "NAN").d;
		double neg_inf = check_build(types[t], "NEG_INF").d;
		double neg_zero = check_build(types[t], "NEG_ZERO").d;

		ck_assert(isnan(nan));
		ck_assert(isinf(neg_inf) && neg_inf < 0);
		ck_assert(neg_zero == 0.0 && signbit(neg_zero));
		ck_assert(!signbit(check_build(types[t], "ZERO").d));
	}
	ck_assert_int_eq(fpclassify(check_build(&tb_type_double, "MIN_NORMAL").d), FP_NORMAL);
	ck_assert_int_eq(fpclassify(check_build(&tb_type_double, "SUBNORMAL").d), FP_SUBNORMAL);
	ck_assert_int_eq(fpclassify((float)check_build(&tb_type_float, "MIN_NORMAL").d), FP_NORMAL);
	ck_assert_int_eq(fpclassify((float)check_build(&tb_type_float, "SUBNORMAL").d),
			 FP_SUBNORMAL);
	ck_assert(check_build(&tb_type_double, "MAX").d * 2 == INFINITY);
	ck_assert((float)check_build(&tb_type_float, "MAX").d == FLT_MAX);
	ck_assert((float)(check_build(&tb_type_float, "MAX").d * 2) == INFINITY);
	ck_assert(1.0f + (float)check_build(&tb_type_float, "EPSILON").d != 1.0f);
}
END_TEST

START_TEST(int64_constants)
{
	ck_assert_int_eq(check_build(&tb_type_int64, "INT64_MIN").i, INT64_MIN);
	ck_assert_int_eq((int)check_build(&tb_type_int64, "INT32_MAX_PLUS_1").i, INT32_MIN);
	ck_assert_int_eq((int)check_build(&tb_type_int64, "INT32_MIN_MINUS_1").i, INT32_MAX);
	ck_assert_int_eq((uint32_t)check_build(&tb_type_int64, "UINT32_MAX_PLUS_1").i, 0);
	ck_assert_int_eq(check_build(&tb_type_int64, "UINT32_MAX_PLUS_1").i, 1LL << 32);
}
END_TEST

/* ---- callback ---- */

/* the two callbacks called through signatures of other arities and results
 * than their own, as a library calls them (callback.c says why that is safe) */
typedef int (*comparator)(const void *, const void *);
typedef void *(*allocator)(void *, size_t, size_t, int, long, char *, double);

START_TEST(callbacks_return_their_result_whatever_the_signature)
{
	comparator zero = (comparator)check_build(&tb_type_callback, "RETURNS_ZERO").ptr;
	comparator minus_one = (comparator)check_build(&tb_type_callback, "RETURNS_MINUS_ONE").ptr;
	allocator fails = (allocator)check_build(&tb_type_callback, "RETURNS_MINUS_ONE").ptr;
	allocator null = (allocator)check_build(&tb_type_callback, "RETURNS_ZERO").ptr;

	ck_assert_int_eq(zero("a", "b"), 0);
	ck_assert_int_eq(minus_one("a", "b"), -1);
	ck_assert_ptr_eq(fails(NULL, 1, 2, 3, 4, "e", 5.0), (void *)-1);
	ck_assert_ptr_null(null(NULL, 1, 2, 3, 4, "e", 5.0));
	ck_assert_ptr_null(check_build(&tb_type_callback, "NULL").ptr);
}
END_TEST

START_TEST(not_code_faults_when_called)
{
	comparator f = (comparator)check_build(&tb_type_callback, "NOT_CODE").ptr;

	ck_assert_uint_eq(*(const unsigned char *)f, 0xC3);  /* ret: readable, not executable */
	f("a", "b");
}
END_TEST

/* ---- fd ---- */

static int access_mode(int fd)
{
	return fcntl(fd, F_GETFL) & O_ACCMODE;
}

START_TEST(fd_values)
{
	struct stat st;
	char byte;
	int fd;

	ck_assert_int_eq(access_mode(check_build(&tb_type_fd, "FILE_RDONLY").i), O_RDONLY);
	ck_assert_int_eq(access_mode(check_build(&tb_type_fd, "FILE_WRONLY").i), O_WRONLY);
	ck_assert_int_eq(access_mode(check_build(&tb_type_fd, "FILE_RDWR").i), O_RDWR);
	fd = (int)check_build(&tb_type_fd, "CLOSED").i;
	ck_assert_int_eq(fcntl(fd, F_GETFD), -1);
	ck_assert_int_eq(errno, EBADF);
	ck_assert_int_eq(fstat((int)check_build(&tb_type_fd, "DIR").i, &st), 0);
	ck_assert(S_ISDIR(st.st_mode));
	fd = (int)check_build(&tb_type_fd, "PIPE_READ").i;
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert(S_ISFIFO(st.st_mode));
	fcntl(fd, F_SETFL, O_NONBLOCK);
	/* empty, and its writer still open: a blocking read would wait */
	ck_assert_int_eq(read(fd, &byte, 1), -1);
	ck_assert_int_eq(errno, EAGAIN);
	ck_assert_int_eq(write((int)check_build(&tb_type_fd, "PIPE_WRITE").i, "x", 1), 1);
	ck_assert_int_eq(fstat((int)check_build(&tb_type_fd, "DEV_NULL").i, &st), 0);
	ck_assert(S_ISCHR(st.st_mode));
}
END_TEST

/* ---- path ---- */

START_TEST(path_values)
{
	struct stat st;
	const char *p;

	ck_assert_int_eq(stat(check_build(&tb_type_path, "EXISTING").ptr, &st), 0);
	ck_assert(S_ISREG(st.st_mode) && st.st_size > 8192);
	ck_assert_int_eq(stat(check_build(&tb_type_path, "MISSING").ptr, &st), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(stat(check_build(&tb_type_path, "MISSING_DIR").ptr, &st), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(stat(check_build(&tb_type_path, "DIRECTORY").ptr, &st), 0);
	ck_assert(S_ISDIR(st.st_mode));
	ck_assert_str_eq(check_build(&tb_type_path, "EMPTY").ptr, "");
	p = check_build(&tb_type_path, "TOO_LONG").ptr;
	ck_assert_uint_eq(strlen(p), PATH_MAX + 1);
	ck_assert_int_eq(open(p, O_RDONLY), -1);
	ck_assert_int_eq(errno, ENAMETOOLONG);
	ck_assert_int_eq(stat(check_build(&tb_type_path, "READ_ONLY_FILE").ptr, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0444);
	/* every name is relative: it stays in the scratch directory */
	ck_assert(((const char *)check_build(&tb_type_path, "EXISTING").ptr)[0] != '/');
}
END_TEST

/* ---- mode ---- */

START_TEST(mode_values)
{
	ck_assert_ptr_nonnull(fopen(check_build(&tb_type_path, "EXISTING").ptr,
				    check_build(&tb_type_mode, "R_PLUS").ptr));
	ck_assert_str_eq(check_build(&tb_type_mode, "A_PLUS").ptr, "a+");
	ck_assert_ptr_null(fopen("existing.txt", check_build(&tb_type_mode, "GARBAGE").ptr));
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

/* ---- FILE ---- */

START_TEST(file_streams_are_in_their_states)
{
	FILE *f = check_build(&tb_type_file, "READ").ptr;

	ck_assert_int_eq(fgetc(f), 'T');
	ck_assert_int_eq(fputc('x', f), EOF);  /* read-only */
	ck_assert_int_eq(fputc('x', check_build(&tb_type_file, "WRITE").ptr), 'x');
	ck_assert(feof((FILE *)check_build(&tb_type_file, "AT_EOF").ptr));
	ck_assert(ferror((FILE *)check_build(&tb_type_file, "IN_ERROR").ptr));
	f = check_build(&tb_type_file, "MEMSTREAM").ptr;
	ck_assert_int_ge(fputs("memory", f), 0);
	ck_assert_int_eq(fflush(f), 0);
	ck_assert_ptr_eq(check_build(&tb_type_file, "STDIN").ptr, stdin);
	ck_assert_ptr_eq(check_build(&tb_type_file, "STDERR").ptr, stderr);
}
END_TEST

START_TEST(file_closed_was_fclosed)
{
	FILE *closed = check_build(&tb_type_file, "CLOSED").ptr;

	/* its memory was released: the next stream is built in the same place */
	ck_assert_ptr_eq(fopen("existing.txt", "w"), closed);
}
END_TEST

START_TEST(file_garbage_is_deterministic)
{
	unsigned char expected[sizeof(FILE)];

	tb_garbage_fill(expected, sizeof(expected));
	ck_assert_mem_eq(check_build(&tb_type_file, "GARBAGE").ptr, expected, sizeof(FILE));
}
END_TEST

/* ---- format and string ---- */

START_TEST(format_values)
{
	ck_assert_str_eq(check_build(&tb_type_format, "PCT_N").ptr, "%n");
	ck_assert_uint_eq(strlen(check_build(&tb_type_format, "LONG").ptr), 4096);
	ck_assert_str_eq(check_build(&tb_type_format, "HUGE_WIDTH").ptr, "%2147483648d");
}
END_TEST

START_TEST(unterminated_string_runs_into_guard)
{
	volatile char *s = check_build(&tb_type_string, "UNTERMINATED").ptr;

	ck_assert_int_eq(s[63], 'x');
	/* no NUL before the guard page: reading on must fault */
	for (size_t i = 64;; i++)
		if (!s[i])
			break;
}
END_TEST

/* ---- text ends at a guard page ---- */

static sigjmp_buf probe_jump;

static void probe_fault(int sig)
{
	siglongjmp(probe_jump, 1);
}

/* Whether the byte at p faults when read, or (write) when written back. */
static int faults(volatile char *p, int write)
{
	struct sigaction on = { .sa_handler = probe_fault }, old;
	int faulted;

	sigaction(SIGSEGV, &on, &old);
	faulted = sigsetjmp(probe_jump, 1);
	if (!faulted) {
		char c = *p;

		if (write)
			*p = c;
	}
	sigaction(SIGSEGV, &old, NULL);
	return faulted;
}

/* Every string of our dictionary, literal or built, whatever its length:
 * the byte after its NUL is a guard page, so a read one past the end
 * faults in a plain run; a .text value is read-only, as the literal it
 * copies.  (Ballista's are unguarded heap blocks and literals on purpose.) */
START_TEST(every_string_ends_at_a_guard_page)
{
	const struct tb_datatype *const *t;
	const struct tb_value *v;
	int checked = 0;

	for (t = tb_base_datatypes(); *t; t++) {
		if (!tb_dictionary_owns(TB_DICTIONARY_OURS, *t) || !strstr((*t)->ctype, "char *"))
			continue;
		for (v = (*t)->values; v->name; v++) {
			char *s;

			if (v->misuse)  /* UNTERMINATED: no NUL to end at */
				continue;
			s = check_build(*t, v->name).ptr;
			ck_assert_msg(faults(s + strlen(s) + 1, 0), "%s:%s: no guard page after its NUL",
				      (*t)->name, v->name);
			if (v->text) {
				ck_assert_str_eq(s, v->text);
				ck_assert_msg(faults(s, 1), "%s:%s is writable", (*t)->name, v->name);
			}
			checked++;
		}
	}
	ck_assert_int_ge(checked, 30);
}
END_TEST

static Suite *datatype_suite(void)
{
	Suite *s = suite_create("datatypes");
	TCase *t = tcase_create("values");

	tcase_add_checked_fixture(t, check_enter_test_dir, NULL);
	tcase_add_loop_test(t, required_names_exist, 0, sizeof(required) / sizeof(required[0]));
	tcase_add_test(t, names_unique_within_each_datatype);
	tcase_add_test(t, every_value_says_what_it_is);
	tcase_add_test(t, a_failed_setup_says_why_within_its_bound);
	tcase_add_test(t, registry_holds_every_base_datatype_once);
	tcase_add_test(t, inherited_values_come_first_in_parent_order);
	tcase_add_test(t, skip_list_drops_parent_values);
	tcase_add_test(t, a_value_is_built_by_its_name);
	tcase_add_test(t, a_datatype_copied_with_more_values_keeps_its_own_first);
	tcase_add_test(t, pointer_constants);
	tcase_add_test(t, read_only_reads);
	tcase_add_test_raise_signal(t, read_only_faults_on_write, SIGSEGV);
	tcase_add_test_raise_signal(t, no_access_faults_on_read, SIGSEGV);
	tcase_add_test(t, unmapped_is_not_mapped);
	tcase_add_test(t, freed_is_a_released_heap_block);
	tcase_add_test_raise_signal(t, valid_is_a_writable_page_then_a_guard, SIGSEGV);
	tcase_add_test_raise_signal(t, buf_0_faults_at_first_byte, SIGSEGV);
	tcase_add_test_raise_signal(t, buf_1_has_one_byte, SIGSEGV);
	tcase_add_test_raise_signal(t, buf_large_is_a_mebibyte, SIGSEGV);
	tcase_add_test(t, numeric_constants);
	tcase_add_test(t, floating_constants);
	tcase_add_test(t, int64_constants);
	tcase_add_test(t, callbacks_return_their_result_whatever_the_signature);
	tcase_add_test_raise_signal(t, not_code_faults_when_called, SIGSEGV);
	tcase_add_test(t, fd_values);
	tcase_add_test(t, path_values);
	tcase_add_test(t, mode_values);
	tcase_add_test(t, file_streams_are_in_their_states);
	tcase_add_test(t, file_closed_was_fclosed);
	tcase_add_test(t, file_garbage_is_deterministic);
	tcase_add_test(t, format_values);
	tcase_add_test_raise_signal(t, unterminated_string_runs_into_guard, SIGSEGV);
	tcase_add_test(t, every_string_ends_at_a_guard_page);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return check_run_in_scratch(datatype_suite());
}
