/*
 * The tally target's own datatypes (docs/datatypes.md walks through them):
 *
 *   tally  a tally_t *: pointer's values, then handles in each state a
 *          caller can leave one in, each built by the calls that lead there
 *   bytes  a buffer and its length, two parameters drawn as one value, so a
 *          pair can be consistent or inconsistent on purpose
 */
#include <stdint.h>
#include <stdlib.h>

#include "datatype.h"
#include "tally.h"

/* ---- tally: values that are call sequences ---- */

static int handle(union tb_arg *out, tally_t *t)
{
	out->ptr = t;
	if (!t)  /* the value cannot be built here (SETUP), and why */
		return tb_setup_fail("tally_new() returned NULL");
	return 0;
}

static int setup_fresh(union tb_arg *out)
{
	return handle(out, tally_new());
}

static int setup_fed(union tb_arg *out)
{
	static const unsigned char text[] = "some bytes";
	tally_t *t = tally_new();

	if (!t || tally_add(t, text, sizeof(text) - 1))
		return -1;
	return handle(out, t);
}

static int setup_finished(union tb_arg *out)
{
	tally_sum_t sum;
	tally_t *t = tally_new();

	if (!t || tally_finish(t, &sum))
		return -1;
	return handle(out, t);
}

/* finished, then fed: the handle holds an error */
static int setup_in_error(union tb_arg *out)
{
	tally_sum_t sum;
	tally_t *t = tally_new();

	if (!t || tally_finish(t, &sum) || tally_add(t, NULL, 0) != -1 || !tally_error(t))
		return -1;
	return handle(out, t);
}

/* released by the library itself: the address stays, the object is gone */
static int setup_released(union tb_arg *out)
{
	tally_t *t = tally_new();

	if (!t)
		return -1;
	out->u = (uintptr_t)t;
	tally_free(t);
	return 0;
}

static int setup_garbage(union tb_arg *out)
{
	return (out->ptr = tb_garbage_block(64)) ? 0 : -1;
}

/* No cleanup: the test process ends after the call, and with it every
 * handle; a cleanup calling tally_free would free twice after tally_free. */
static const struct tb_value tally_values[] = {
	{ .name = "FRESH", .setup = setup_fresh, .desc = "tally_new()" },
	{ .name = "FED", .setup = setup_fed, .desc = "tally_new, tally_add of 10 bytes" },
	{ .name = "FINISHED", .setup = setup_finished, .desc = "tally_new, tally_finish" },
	{ .name = "IN_ERROR", .setup = setup_in_error,
	  .desc = "tally_new, tally_finish, tally_add: holds an error" },
	{ .name = "RELEASED", .setup = setup_released, .desc = "tally_new, tally_free", .misuse = 1 },
	{ .name = "GARBAGE", .setup = setup_garbage, .desc = "64 random bytes before a guard page",
	  .misuse = 1 },
	{ 0 },
};

const struct tb_datatype tb_type_tally = {
	.name = "tally",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", NULL },  /* bytes, no tally */
	.ctype = "tally_t *",
	.values = tally_values,
};

/* ---- bytes: one value for two parameters ----
 * A spanning value has a setup (a .constant fills one slot only): it writes
 * out[0], the buffer, and out[1], the length. */

static int pair(union tb_arg *out, size_t block, size_t len)
{
	out[0].ptr = tb_guarded_block(block);
	out[1].u = len;
	return out[0].ptr ? 0 : -1;
}

static int setup_empty(union tb_arg *out) { return pair(out, 0, 0); }
static int setup_page(union tb_arg *out) { return pair(out, 4096, 4096); }
static int setup_past_end(union tb_arg *out) { return pair(out, 4096, 4097); }
static int setup_huge(union tb_arg *out) { return pair(out, 4096, SIZE_MAX); }

static int null_pair(union tb_arg *out, size_t len)
{
	out[0].ptr = NULL;
	out[1].u = len;
	return 0;
}

static int setup_null_zero(union tb_arg *out) { return null_pair(out, 0); }
static int setup_null_len(union tb_arg *out) { return null_pair(out, 16); }

static const struct tb_value bytes_values[] = {
	{ .name = "EMPTY", .setup = setup_empty, .desc = "0 bytes before a guard page, length 0" },
	{ .name = "PAGE", .setup = setup_page, .desc = "4096 bytes, length 4096" },
	{ .name = "PAST_END", .setup = setup_past_end,
	  .desc = "4096 bytes, length 4097: one byte into the guard page" },
	{ .name = "HUGE", .setup = setup_huge, .desc = "4096 bytes, length SIZE_MAX" },
	{ .name = "NULL_ZERO", .setup = setup_null_zero, .desc = "NULL, length 0" },
	{ .name = "NULL_LEN", .setup = setup_null_len, .desc = "NULL, length 16" },
	{ 0 },
};

const struct tb_datatype tb_type_bytes = {
	.name = "bytes",
	.ctype = "const unsigned char *, size_t",
	.span = 2,
	.values = bytes_values,
};
