/*
 * Check suite for targets/sfio: sfio_abi.h against the real libgvpr.so.2
 * (the struct prefix, the flag bits and the in-line macros), and the SFIO
 * datatypes' values are what their names say.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datatype.h"
#include "check_run.h"
#include "sfio_abi.h"

extern const struct tb_datatype tb_type_sfio_stream, tb_type_sfio_buffer, tb_type_ballista_sfio;

static Sfio_t *stream(const char *name)
{
	return check_build(&tb_type_sfio_stream, name).ptr;
}

/* ---- the ABI ---- */

START_TEST(standard_streams_read_through_the_prefix)
{
	ck_assert_int_eq(sfstdout->file, 1);
	ck_assert_int_eq(sfstdout->flags, SF_WRITE | SF_STATIC);
	ck_assert_int_eq(sffileno(sfstdin), 0);
	ck_assert_int_eq(sffileno(sfstderr), 2);
}
END_TEST

START_TEST(a_stream_on_a_known_descriptor)
{
	int fd = open("/dev/null", O_RDONLY);
	Sfio_t *f;

	ck_assert_int_ge(dup2(fd, 37), 0);
	f = sfnew(NULL, NULL, SF_UNBOUND, 37, SF_READ);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(f->file, 37);
	ck_assert_int_eq(f->flags & (SF_READ | SF_WRITE), SF_READ);
	ck_assert_int_eq(sffileno(f), 37);
	ck_assert_ptr_null(f->push);
	ck_assert_int_eq(sfstacked(f), 0);
}
END_TEST

START_TEST(putc_and_getc_macros_round_trip)
{
	char buf[64];
	Sfio_t *f = sfnew(NULL, buf, sizeof(buf), -1, SF_STRING | SF_READ | SF_WRITE);
	const char *word = "robust";
	int i;

	ck_assert_ptr_nonnull(f);
	for (i = 0; word[i]; i++)
		ck_assert_int_eq(sfputc(f, word[i]), word[i]);
	ck_assert_int_eq(sfseek(f, 0, SEEK_SET), 0);
	for (i = 0; word[i]; i++)
		ck_assert_int_eq(sfgetc(f), word[i]);
	ck_assert_ptr_eq(f->data, (unsigned char *)buf);
}
END_TEST

START_TEST(macros_read_eof_and_error_bits)
{
	Sfio_t *f = sfnew(NULL, "", 0, -1, SF_STRING | SF_READ);
	Sfio_t *none = NULL;

	ck_assert_int_lt(sfgetc(f), 0);
	ck_assert(sfeof(f));
	ck_assert_int_eq(sfclrerr(f), 0);
	ck_assert(!sfeof(f));
	ck_assert_int_eq(sfeof(none), 0);
	ck_assert_int_eq(sffileno(none), -1);
}
END_TEST

START_TEST(file_streams_carry_the_mode_bits)
{
	ck_assert_int_eq(stream("READ")->flags & (SF_READ | SF_WRITE), SF_READ);
	ck_assert_int_eq(stream("WRITE")->flags & (SF_READ | SF_WRITE), SF_WRITE);
	ck_assert_int_eq(stream("READ_WRITE")->flags & (SF_READ | SF_WRITE), SF_READ | SF_WRITE);
}
END_TEST

/* ---- the Sfio_t values ---- */

START_TEST(stream_values_are_in_their_states)
{
	Sfio_t *f = stream("STRING");

	ck_assert(f->flags & SF_STRING);
	ck_assert_int_eq(sfgetc(f), 'T');
	ck_assert(sfeof(stream("AT_EOF")));
	f = stream("BAD_FD");
	ck_assert_int_eq(fcntl(sffileno(f), F_GETFD), -1);
	ck_assert_int_eq(errno, EBADF);
	ck_assert_ptr_eq(stream("STDOUT"), sfstdout);
}
END_TEST

START_TEST(closed_stream_was_sfclosed)
{
	/* files are named by mode, existence and position (stream_state.c):
	 * CLOSED is READ.CLOSED.BEGINNING, READ is READ.EXIST.BEGINNING */
	ck_assert_ptr_nonnull(stream("CLOSED"));
	ck_assert(!check_file_is_open("sf_m0_e1_p1.txt"));
	/* the check itself sees open files */
	ck_assert_ptr_nonnull(stream("READ"));
	ck_assert(check_file_is_open("sf_m0_e0_p1.txt"));
}
END_TEST

/* Ballista's Sfio_t: the stream states FILE's b_ptr_file has, as SFIO
 * streams over the 18-byte file. */
START_TEST(ballista_streams_are_in_their_states)
{
	Sfio_t *f = check_build(&tb_type_ballista_sfio, "READ.R_USER.EXIST.EOF").ptr;

	ck_assert_int_eq(sftell(f), 18);
	ck_assert(!sfeof(f));
	f = check_build(&tb_type_ballista_sfio, "READ_PLUS.NONE.EXIST.BEGINNING").ptr;
	ck_assert_int_eq(sfgetc(f), 'A');
	f = check_build(&tb_type_ballista_sfio, "APPEND.R_USER.CLOSED.EMPTY").ptr;
	ck_assert(!check_file_is_open("sf_m2_e1_p0.txt"));
	f = check_build(&tb_type_ballista_sfio, "WRITE.R_USER.EXIST.EMPTY").ptr;
	ck_assert_int_eq(sfputc(f, 'x'), 'x');
}
END_TEST

START_TEST(void_t_is_buffer_by_another_name)
{
	struct tb_value_list a, b;
	int i;

	tb_datatype_flatten(&tb_type_sfio_buffer, &a);
	tb_datatype_flatten(&tb_type_buffer, &b);
	ck_assert_int_eq(a.count, b.count);
	for (i = 0; i < a.count; i++)
		ck_assert_ptr_eq(a.values[i], b.values[i]);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sfio");
	TCase *abi = tcase_create("abi"), *values = tcase_create("values");

	tcase_add_test(abi, standard_streams_read_through_the_prefix);
	tcase_add_test(abi, a_stream_on_a_known_descriptor);
	tcase_add_test(abi, putc_and_getc_macros_round_trip);
	tcase_add_test(abi, macros_read_eof_and_error_bits);
	tcase_add_checked_fixture(values, check_enter_test_dir, NULL);
	tcase_add_test(values, file_streams_carry_the_mode_bits);
	tcase_add_test(values, stream_values_are_in_their_states);
	tcase_add_test(values, closed_stream_was_sfclosed);
	tcase_add_test(values, void_t_is_buffer_by_another_name);
	tcase_add_test(values, ballista_streams_are_in_their_states);
	suite_add_tcase(s, abi);
	suite_add_tcase(s, values);
	return check_run_in_scratch(s);
}
