/*
 * ordeal: a datatype whose values test the executor rather than a function:
 * one that builds, one whose setup fails, one whose setup crashes, one whose
 * setup hangs, and one whose cleanup crashes after the call returned.
 */
#include <unistd.h>

#include "datatype.h"

static int setup_fails(union tb_arg *out) { return -1; }

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
	{ .name = "SETUP_FAILS", .setup = setup_fails, .desc = "setup returns -1" },
	{ .name = "SETUP_CRASHES", .setup = setup_crashes, .desc = "setup dies of SIGSEGV" },
	{ .name = "SETUP_HANGS", .setup = setup_hangs, .desc = "setup never returns" },
	{ .name = "CLEANUP_CRASHES", .constant.i = 9, .cleanup = cleanup_crashes,
	  .desc = "builds; its cleanup dies of SIGSEGV" },
	{ 0 },
};

const struct tb_datatype tb_type_ordeal = {
	.name = "ordeal", .ctype = "int", .values = ordeal_values,
};
