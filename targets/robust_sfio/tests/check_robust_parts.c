/*
 * Check suite for Robust SFIO's building blocks: the memory check against
 * every kind of bad memory, and the registry of open streams.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "datatype.h"
#include "robust_memory.h"
#include "robust_registry.h"

static char *map(size_t pages, int prot)
{
	char *p = mmap(NULL, pages * 4096, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(p, MAP_FAILED);
	return p;
}

START_TEST(valid_memory_passes_both_checks)
{
	char *p = map(3, PROT_READ | PROT_WRITE);

	strcpy(p + 4096, "kept");
	ck_assert(rs_memory_ok(p, 3 * 4096, 1));
	ck_assert(rs_memory_ok(p + 100, 2 * 4096, 0));
	ck_assert_str_eq(p + 4096, "kept");  /* the write check changes nothing */
	ck_assert(rs_memory_ok(NULL, 0, 1)); /* nothing asked, nothing checked */
}
END_TEST

START_TEST(bad_pointers_fail)
{
	char *none = map(1, PROT_NONE), *gone = map(1, PROT_READ);

	munmap(gone, 4096);
	ck_assert(!rs_memory_ok(NULL, 1, 0));
	ck_assert(!rs_memory_ok((void *)1, 1, 0));
	ck_assert(!rs_memory_ok((void *)UINTPTR_MAX, 1, 0));
	ck_assert(!rs_memory_ok(none, 1, 0));
	ck_assert(!rs_memory_ok(gone, 1, 0));
	ck_assert(!rs_memory_ok((void *)16, SIZE_MAX, 0));  /* wraps around */
}
END_TEST

START_TEST(read_only_is_readable_not_writable)
{
	char *p = map(1, PROT_READ);

	ck_assert(rs_memory_ok(p, 4096, 0));
	ck_assert(!rs_memory_ok(p, 4096, 1));
}
END_TEST

START_TEST(a_guard_page_stops_the_stated_length)
{
	char *block = tb_guarded_block(100);

	ck_assert(rs_memory_ok(block, 100, 1));
	ck_assert(!rs_memory_ok(block, 101, 0));
	ck_assert(!rs_memory_ok(block, SIZE_MAX / 2, 0));
}
END_TEST

START_TEST(long_buffers_are_checked_to_their_end)
{
	/* more pages than one system call checks */
	size_t pages = 2500;
	char *p = map(pages, PROT_READ | PROT_WRITE);

	ck_assert(rs_memory_ok(p, pages * 4096, 1));
	ck_assert_int_eq(mprotect(p + (pages - 1) * 4096, 4096, PROT_READ), 0);
	ck_assert(rs_memory_ok(p, pages * 4096, 0));
	ck_assert(!rs_memory_ok(p, pages * 4096, 1));
	ck_assert(rs_memory_ok(p, (pages - 1) * 4096, 1));
}
END_TEST

START_TEST(registry_knows_what_was_added_until_removed)
{
	static char streams[1000], elsewhere;
	uint64_t before;
	int i;

	for (i = 0; i < 1000; i++)
		rs_stream_add(&streams[i]);
	for (i = 0; i < 1000; i++)
		ck_assert(rs_stream_known(&streams[i]));
	ck_assert(!rs_stream_known(NULL));
	ck_assert(!rs_stream_known(&elsewhere));
	before = rs_registry_generation;
	for (i = 0; i < 1000; i += 2)
		rs_stream_remove(&streams[i]);
	ck_assert_uint_gt(rs_registry_generation, before);
	for (i = 0; i < 1000; i++)
		ck_assert_int_eq(rs_stream_known(&streams[i]), i % 2);
	rs_stream_add(&streams[0]);  /* a new stream at a freed address */
	ck_assert(rs_stream_known(&streams[0]));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("robust_sfio parts");
	TCase *t = tcase_create("parts");
	SRunner *sr;
	int failed;

	tcase_add_test(t, valid_memory_passes_both_checks);
	tcase_add_test(t, bad_pointers_fail);
	tcase_add_test(t, read_only_is_readable_not_writable);
	tcase_add_test(t, a_guard_page_stops_the_stated_length);
	tcase_add_test(t, long_buffers_are_checked_to_their_end);
	tcase_add_test(t, registry_knows_what_was_added_until_removed);
	suite_add_tcase(s, t);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
