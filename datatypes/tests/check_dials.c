/*
 * Check suite for dials and Ballista's dictionary: a dial product has the
 * size and names its dials say, and each value is what its name says (a
 * .CLOSED stream was closed, .EOF stands at the end without the flag,
 * AT_EOF reads end of file, a permission that cannot apply leaves the file
 * as it was, as Ballista's did).  Forked tests, each in a fresh directory.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ballista.h"
#include "check_run.h"
#include "dictionary.h"
#include "stream_state.h"

static int count_values(const struct tb_datatype *type)
{
	struct tb_value_list list;

	ck_assert_int_eq(tb_datatype_flatten(type, &list), 0);
	return list.count;
}

/* ---- the product */

START_TEST(counts_are_ballistas)
{
	/* the counts of Ballista's generated .param lists, by hand */
	ck_assert_int_eq(count_values(&tb_type_b_ptr_void), 7);
	ck_assert_int_eq(count_values(&tb_type_b_ptr_buf), 20);
	ck_assert_int_eq(count_values(&tb_type_b_ptr_char), 20 + 4 * 4 * 3);
	ck_assert_int_eq(count_values(&tb_type_b_ptr_char_mode), 68 + 9);
	ck_assert_int_eq(count_values(&tb_type_b_fname), 68 + 6 * 6 * 2 * 6);
	ck_assert_int_eq(count_values(&tb_type_b_ptr_file), 7 + 6 * 6 * 3 * 4);
	ck_assert_int_eq(count_values(&tb_type_b_fd), 25 + 6 * 6 * 4 * 4);
	ck_assert_int_eq(count_values(&tb_type_b_int), 25);
	ck_assert_int_eq(count_values(&tb_type_b_long), 27);
	ck_assert_int_eq(count_values(&tb_type_b_unsigned_long), 23);
	ck_assert_int_eq(count_values(&tb_type_b_int_whence), 28);
}
END_TEST

START_TEST(product_names_join_choices_last_dial_fastest)
{
	struct tb_value_list list;

	tb_datatype_flatten(&tb_type_b_ptr_file, &list);
	ck_assert_str_eq(list.values[7]->name, "READ.R_USER.EXIST.EMPTY");
	ck_assert_str_eq(list.values[8]->name, "READ.R_USER.EXIST.BEGINNING");
	ck_assert_str_eq(list.values[7 + 12]->name, "READ.W_USER.EXIST.EMPTY");
	ck_assert_str_eq(list.values[list.count - 1]->name, "APPEND_PLUS.NONE.DELETED.PAST_EOF");
	/* flattened twice, the same values: made once */
	ck_assert_ptr_eq(list.values[9], (tb_datatype_flatten(&tb_type_b_ptr_file, &list),
					  list.values[9]));
}
END_TEST

/* ---- streams: one table of states for FILE and (check_sfio_abi) Sfio_t */

static FILE *ballista_file(const char *name)
{
	return check_build(&tb_type_b_ptr_file, name).ptr;
}

START_TEST(positions_are_what_they_say)
{
	FILE *f = ballista_file("READ.R_USER.EXIST.BEGINNING");

	ck_assert_int_eq(fgetc(f), 'A');
	f = ballista_file("READ.R_USER.EXIST.EOF");
	ck_assert_int_eq(ftell(f), 18);
	ck_assert(!feof(f));
	ck_assert_int_eq(fgetc(f), EOF);
	f = ballista_file("READ.R_USER.EXIST.PAST_EOF");
	ck_assert_int_eq(ftell(f), 28);
	f = ballista_file("READ_PLUS.R_USER.EXIST.EMPTY");
	ck_assert_int_eq(fgetc(f), EOF);
	/* the write modes write the text after opening, then seek */
	f = ballista_file("WRITE_PLUS.R_USER.EXIST.BEGINNING");
	ck_assert_int_eq(fgetc(f), 'A');
	/* ours: AT_EOF has read the end, so the flag is set */
	f = check_build(&tb_type_file, "AT_EOF").ptr;
	ck_assert(feof(f));
}
END_TEST

START_TEST(modes_are_what_they_say)
{
	FILE *f = ballista_file("READ.R_USER.EXIST.BEGINNING");

	ck_assert_int_eq(fputc('x', f), EOF);
	f = ballista_file("APPEND.R_USER.EXIST.BEGINNING");
	ck_assert_int_eq(fcntl(fileno(f), F_GETFL) & O_APPEND, O_APPEND);
	ck_assert_int_eq(fgetc(f), EOF);
	f = ballista_file("WRITE_PLUS.R_USER.EXIST.EMPTY");
	ck_assert_int_eq(fputc('x', f), 'x');
	ck_assert_int_eq(fseek(f, 0, SEEK_SET), 0);
	ck_assert_int_eq(fgetc(f), 'x');
}
END_TEST

START_TEST(closed_stream_was_closed)
{
	FILE *f = ballista_file("READ.R_USER.CLOSED.BEGINNING");

	ck_assert_ptr_nonnull(f);
	/* file_m<mode>_e<existence>_p<position>.txt (stream_state.c) */
	ck_assert(!check_file_is_open("file_m0_e1_p1.txt"));
	ballista_file("READ.R_USER.EXIST.BEGINNING");
	ck_assert(check_file_is_open("file_m0_e0_p1.txt"));
}
END_TEST

START_TEST(deleted_stream_lost_its_file)
{
	FILE *f = ballista_file("READ.R_USER.DELETED.BEGINNING");
	struct stat st;

	ck_assert_int_eq(stat("file_m0_e2_p1.txt", &st), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(fgetc(f), 'A');
}
END_TEST

/* Ballista's PERMISSIONS dial cannot apply: the file exists when it is
 * opened again, and open(2) applies a mode only to a file it creates. */
START_TEST(permissions_are_inert_as_documented)
{
	FILE *f = ballista_file("READ_PLUS.NONE.EXIST.BEGINNING");
	struct stat st;

	ck_assert_int_eq(fstat(fileno(f), &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0644);
}
END_TEST

START_TEST(ours_names_points_of_the_shared_dials)
{
	struct tb_value_list list;
	int i;

	tb_datatype_flatten(&tb_type_file, &list);
	for (i = 0; i < list.count; i++)
		if (!strcmp(list.values[i]->name, "UPDATE"))
			break;
	ck_assert_int_lt(i, list.count);
	ck_assert_int_eq(list.values[i]->args[TB_DIAL_MODE], TB_MODE_READ_PLUS);
	ck_assert_int_eq(list.values[i]->args[TB_DIAL_EXISTENCE], TB_EXIST);
	ck_assert_int_eq(list.values[i]->args[TB_DIAL_POSITION], TB_POS_BEGINNING);
	/* over our own text, not Ballista's 18 bytes */
	ck_assert_int_eq(ftell(check_build(&tb_type_file, "APPEND").ptr),
			 (long)tb_scratch_text_len);
}
END_TEST

/* ---- descriptors, names, numbers */

START_TEST(fd_states)
{
	int fd = (int)check_build(&tb_type_b_fd, "READ.R_USER.CLOSED.BEGINNING").i;

	ck_assert_int_eq(fcntl(fd, F_GETFD), -1);
	ck_assert_int_eq(errno, EBADF);
	ck_assert_int_eq(check_build(&tb_type_b_fd, "WRITE.NONE.NO_EXIST.EOF").i, -1);
	fd = (int)check_build(&tb_type_b_fd, "READ.R_USER.EXIST.EOF").i;
	ck_assert_int_eq(lseek(fd, 0, SEEK_CUR), 18);
}
END_TEST

static int builds(const struct tb_datatype *type, const char *name, union tb_arg *out)
{
	struct tb_value_list list;
	int i;

	tb_datatype_flatten(type, &list);
	for (i = 0; i < list.count; i++)
		if (!strcmp(list.values[i]->name, name))
			return tb_value_build(list.values[i], out) == 0;
	ck_abort_msg("%s has no value %s", type->name, name);
	return 0;
}

START_TEST(fname_states)
{
	union tb_arg v;
	struct stat st;

	/* CLOSED was never assigned by Ballista: not built */
	ck_assert(!builds(&tb_type_b_fname, "RWX_USER.CLOSED.EMPTY.LOCAL", &v));
	ck_assert(builds(&tb_type_b_fname, "R_USER.OPEN_WRITE.NON_EMPTY.LOCAL", &v));
	ck_assert_int_eq(stat(v.ptr, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0400);
	ck_assert(builds(&tb_type_b_fname, "RWX_USER.NOT_EXIST_DIR.EMPTY.LOCAL", &v));
	ck_assert_int_eq(stat("testdir", &st), -1);
	ck_assert(builds(&tb_type_b_fname, "RWX_USER.NOT_EXIST_FILE.EMPTY.LONG", &v));
	ck_assert_uint_eq(strlen(v.ptr), 1027);
	ck_assert(builds(&tb_type_b_fname, "RWX_USER.LINK.NON_EMPTY.DIR", &v));
	ck_assert_int_eq(stat(v.ptr, &st), 0);
	ck_assert_int_eq(st.st_nlink, 2);
	ck_assert(S_ISREG(st.st_mode));
}
END_TEST

START_TEST(integers_keep_ilp32_constants)
{
	ck_assert_int_eq(check_build(&tb_type_b_long, "MAXLONG").i, 2147483647);
	ck_assert_uint_eq(check_build(&tb_type_b_unsigned_long, "ULONG_MAX").u, 4294967295u);
	ck_assert_int_eq(check_build(&tb_type_b_int, "SC_PAGE").i, 30);
	ck_assert_int_eq(check_build(&tb_type_b_int_whence, "SEEK_END").i, SEEK_END);
}
END_TEST

START_TEST(buffers_are_unguarded_heap_blocks)
{
	char *p = check_build(&tb_type_b_ptr_buf, "BUF_SMALL").ptr;
	union tb_arg v;

	ck_assert_int_eq(p[0], 'a');
	p[8] = 'x';  /* a short overrun lands in the heap: no fault */
	ck_assert(!builds(&tb_type_b_ptr_buf, "BUFMAX", &v));
	ck_assert(!builds(&tb_type_b_ptr_buf, "BUF_HUGE", &v));
	p = check_build(&tb_type_b_ptr_char, "S4.ESC.SOME").ptr;
	ck_assert_int_eq(p[0], 0x1b);
	ck_assert_int_eq(p[1], 0);
	p = check_build(&tb_type_b_ptr_char, "S16.A.FULL").ptr;
	ck_assert_mem_eq(p, "AAAAAAAAAAAAAAAA", 16);
}
END_TEST

START_TEST(dictionary_maps_our_names)
{
	ck_assert_ptr_eq(tb_dictionary_find("ballista", "FILE", NULL), &tb_type_b_ptr_file);
	ck_assert_ptr_eq(tb_dictionary_find("ballista", "size", NULL), &tb_type_b_unsigned_long);
	ck_assert_ptr_eq(tb_dictionary_find("ours", "FILE", NULL), &tb_type_file);
	ck_assert_ptr_null(tb_dictionary_find("ballista", "no_such_type", NULL));
	ck_assert(!tb_dictionary_known("theirs"));
}
END_TEST

static Suite *dial_suite(void)
{
	Suite *s = suite_create("dials");
	TCase *t = tcase_create("values");

	tcase_add_checked_fixture(t, check_enter_test_dir, NULL);
	tcase_add_test(t, counts_are_ballistas);
	tcase_add_test(t, product_names_join_choices_last_dial_fastest);
	tcase_add_test(t, positions_are_what_they_say);
	tcase_add_test(t, modes_are_what_they_say);
	tcase_add_test(t, closed_stream_was_closed);
	tcase_add_test(t, deleted_stream_lost_its_file);
	tcase_add_test(t, permissions_are_inert_as_documented);
	tcase_add_test(t, ours_names_points_of_the_shared_dials);
	tcase_add_test(t, fd_states);
	tcase_add_test(t, fname_states);
	tcase_add_test(t, integers_keep_ilp32_constants);
	tcase_add_test(t, buffers_are_unguarded_heap_blocks);
	tcase_add_test(t, dictionary_maps_our_names);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return check_run_in_scratch(dial_suite());
}
