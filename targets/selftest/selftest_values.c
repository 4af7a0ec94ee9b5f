/*
 * ordeal: a datatype whose values test the executor rather than a function:
 * one that builds, one whose setup fails, one whose setup crashes, one whose
 * setup hangs, one whose cleanup crashes after the call returned, and one
 * whose setup fails saying why.
 */
#include <errno.h>
#include <unistd.h>

#include "datatype.h"

/* fails as a setup that forgot to say why: its errno is kept alone */
static int setup_fails(union tb_arg *out)
{
	errno = ENOENT;
	return -1;
}

/* fails and says why, as a datatype's setup should */
static int setup_says_why(union tb_arg *out)
{
	errno = EACCES;
	return tb_setup_fail("the lock file %s is held", "ordeal.lock");
}

static int setup_crashes(union tb_arg *out)
{
	*(volatile int *)0 = 1;
	return 0;
}

static int __attribute__((noreturn)) setup_hangs(union tb_arg *out)
{
	for (;;)
		pause();
}

static void cleanup_crashes(union tb_arg *val)
{
	*(volatile int *)0 = 1;
}

static const struct tb_value ordeal_values[] = {
	{ .name = "FINE", .constant.i = 7, .desc = "builds, releases" },
	{ .name = "SETUP_FAILS", .setup = setup_fails, .desc = "setup returns -1, errno ENOENT" },
	{ .name = "SETUP_CRASHES", .setup = setup_crashes, .desc = "setup dies of SIGSEGV" },
	{ .name = "SETUP_HANGS", .setup = setup_hangs, .desc = "setup never returns" },
	{ .name = "CLEANUP_CRASHES", .constant.i = 9, .cleanup = cleanup_crashes,
	  .desc = "builds; its cleanup dies of SIGSEGV" },
	{ .name = "SETUP_SAYS_WHY", .setup = setup_says_why,
	  .desc = "setup fails with a reason, errno EACCES" },
	{ 0 },
};

const struct tb_datatype tb_type_ordeal = {
	.name = "ordeal", .ctype = "int", .values = ordeal_values,
};
