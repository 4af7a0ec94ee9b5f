/*
 * What the Check suites that build values share: each forked test works in
 * a directory of its own under a root the runner removes at the end,
 * whatever the tests (crashing ones included) left there.
 */
#ifndef TREBUCHET_CHECK_RUN_H
#define TREBUCHET_CHECK_RUN_H

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datatype.h"
#include "scratch.h"

/* Builds type:name, failing the test if it has no such value or the value
 * cannot be built. */
static inline union tb_arg check_build(const struct tb_datatype *type, const char *name)
{
	struct tb_value_list list;
	union tb_arg arg = { 0 };
	int i;

	ck_assert_int_eq(tb_datatype_flatten(type, &list), 0);
	for (i = 0; i < list.count; i++)
		if (!strcmp(list.values[i]->name, name)) {
			ck_assert_msg(tb_value_build(list.values[i], &arg) == 0,
				      "%s:%s could not be built", type->name, name);
			return arg;
		}
	ck_abort_msg("%s has no value %s", type->name, name);
	return arg;
}

/* Whether any open descriptor of this process names a file called name. */
static inline int check_file_is_open(const char *name)
{
	char link[64], target[4096];
	int fd, found = 0;

	for (fd = 0; fd < 1024; fd++) {
		ssize_t n;

		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, target, sizeof(target) - 1);
		if (n > 0) {
			target[n] = '\0';
			found |= strstr(target, name) != NULL;
		}
	}
	return found;
}

/* A checked fixture: a fresh directory for the test, made its cwd. */
static inline void check_enter_test_dir(void)
{
	char dir[] = "test-XXXXXX";

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(chdir(dir), 0);
}

/* Runs suite forked, under a temporary root; the process's exit status. */
static inline int check_run_in_scratch(Suite *suite)
{
	char root[] = "/tmp/trebuchet-check-XXXXXX";
	SRunner *sr = srunner_create(suite);
	int failed;

	if (!mkdtemp(root) || chdir(root))
		return 2;
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	if (chdir("/") || tb_remove_tree(AT_FDCWD, root))
		return 2;
	return failed ? 1 : 0;
}

#endif
