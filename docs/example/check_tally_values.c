/*
 * Check suite for the tally target's datatypes (docs/datatypes.md, "Testing
 * a datatype"): each value is what its name and .desc say.  Build and run:
 *
 *   cc -I../../datatypes -I. check_tally_values.c tally_values.c tally.c \
 *      -Wl,--whole-archive ../../build/lib/libtbdatatypes.a -Wl,--no-whole-archive \
 *      $(pkg-config --cflags --libs check) -o check_tally_values
 *   CK_FORK=yes ./check_tally_values
 */
#include <check.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

#include "datatype.h"
#include "tally.h"

extern const struct tb_datatype tb_type_tally, tb_type_bytes;

/* Builds type:name into out[] (two slots, for a spanning value), as the
 * executor does in a test process. */
static void build(const struct tb_datatype *type, const char *name, union tb_arg out[2])
{
	struct tb_value_list list;
	int i;

	ck_assert_int_eq(tb_datatype_flatten(type, &list), 0);
	for (i = 0; i < list.count; i++)
		if (!strcmp(list.values[i]->name, name)) {
			ck_assert_int_eq(tb_value_build(list.values[i], out), 0);
			return;
		}
	ck_abort_msg("%s has no value %s", type->name, name);
}

START_TEST(handles_are_in_their_states)
{
	union tb_arg v[2];
	tally_sum_t sum;

	build(&tb_type_tally, "FED", v);
	ck_assert_int_eq(tally_finish(v[0].ptr, &sum), 0);
	ck_assert_uint_gt(sum, 0);  /* it added the 10 bytes */
	build(&tb_type_tally, "FINISHED", v);
	ck_assert_int_eq(tally_finish(v[0].ptr, &sum), -1);
	build(&tb_type_tally, "IN_ERROR", v);
	ck_assert_ptr_nonnull(tally_error(v[0].ptr));
	build(&tb_type_tally, "FRESH", v);
	ck_assert_ptr_null(tally_error(v[0].ptr));
}
END_TEST

START_TEST(inherits_pointer_but_misaligned)
{
	struct tb_value_list list;
	int i;

	ck_assert_int_eq(tb_datatype_flatten(&tb_type_tally, &list), 0);
	ck_assert_str_eq(list.values[0]->name, "NULL");
	for (i = 0; i < list.count; i++)
		ck_assert_str_ne(list.values[i]->name, "MISALIGNED");
}
END_TEST

START_TEST(page_pairs_a_page_with_its_length)
{
	union tb_arg v[2];
	volatile const unsigned char *p;

	build(&tb_type_bytes, "PAGE", v);
	p = v[0].ptr;
	ck_assert_uint_eq(v[1].u, 4096);
	ck_assert_uint_eq(p[4095], 0);
}
END_TEST

/* the length says one byte more than the block has: reading it faults */
START_TEST(past_end_reaches_the_guard_page)
{
	union tb_arg v[2];
	volatile const unsigned char *p;

	build(&tb_type_bytes, "PAST_END", v);
	p = v[0].ptr;
	ck_assert_uint_eq(v[1].u, 4097);
	(void)p[v[1].u - 1];
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tally values");
	TCase *t = tcase_create("values");
	SRunner *r;
	int failed;

	tcase_add_test(t, handles_are_in_their_states);
	tcase_add_test(t, inherits_pointer_but_misaligned);
	tcase_add_test(t, page_pairs_a_page_with_its_length);
	tcase_add_test_raise_signal(t, past_end_reaches_the_guard_page, SIGSEGV);
	suite_add_tcase(s, t);
	r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? 1 : 0;
}
