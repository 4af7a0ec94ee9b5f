/*
 * qsort's datatypes: an array of ints with its count and element size (one
 * value spanning three parameters), and comparators, the base callback
 * family extended with two of qsort's own signature: one that compares,
 * and one that calls back into the library, sorting an array of its own
 * from inside the outer sort.
 */
#include <stdlib.h>

#include "datatype.h"

static int ints(union tb_arg *out, size_t count)
{
	static const int unsorted[] = { 3, 1, 2, 0 };
	int *p = tb_guarded_block(count * sizeof(int));

	if (!p)
		return -1;
	for (size_t i = 0; i < count; i++)
		p[i] = unsorted[i];
	out[0].ptr = p;
	out[1].u = count;
	out[2].u = sizeof(int);
	return 0;
}

static int setup_four(union tb_arg *out) { return ints(out, 4); }
static int setup_one(union tb_arg *out) { return ints(out, 1); }
static int setup_empty(union tb_arg *out) { return ints(out, 0); }

static const struct tb_value ints_values[] = {
	{ .name = "FOUR", .setup = setup_four, .desc = "4 ints, 3 1 2 0: qsort compares them" },
	{ .name = "ONE", .setup = setup_one, .desc = "1 int: sorted already, nothing to compare" },
	{ .name = "EMPTY", .setup = setup_empty, .desc = "0 ints at the guard page's address" },
	{ 0 },
};

const struct tb_datatype tb_type_ints = {
	.name = "ints",
	.ctype = "void *, size_t, size_t",
	.span = 3,
	.values = ints_values,
};

static int compare_ints(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* sorts two ints of its own with qsort, then compares as compare_ints */
static int sort_again(const void *a, const void *b)
{
	int pair[] = { 2, 1 };

	qsort(pair, 2, sizeof(int), compare_ints);
	return pair[0] < pair[1] ? compare_ints(a, b) : 0;
}

static const struct tb_value comparator_values[] = {
	{ .name = "COMPARES_INTS", .constant.ptr = (void *)compare_ints,
	  .desc = "compares two ints: -1, 0 or 1" },
	{ .name = "SORTS_AGAIN", .constant.ptr = (void *)sort_again,
	  .desc = "calls qsort on two ints of its own, then compares" },
	{ 0 },
};

const struct tb_datatype tb_type_comparator = {
	.name = "comparator",
	.parent = &tb_type_callback,
	.ctype = "int (*)(const void *, const void *)",
	.values = comparator_values,
};
