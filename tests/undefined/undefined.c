/*
 * Undefined behaviour that never crashes (undefined.h): each bad function
 * does its one undefined thing whatever code is, and on x86-64 and arm64 a
 * plain build returns (PASS); only UndefinedBehaviorSanitizer sees it.
 * The operands go through volatile ones so that the compiler cannot fold
 * the operation away.
 */
#include <limits.h>
#include <string.h>

#include "undefined.h"

static volatile int big = INT_MAX, wide = 40;

/* INT_MAX + 1 in int: a signed overflow */
int ub_overflow(int code)
{
	int one = (code & 1) | 1;

	return big + one;
}

/* 1 shifted by 40 places in a 32-bit int */
int ub_shift(int code)
{
	return 1 << wide;
}

/* an int loaded from an odd address */
int ub_misaligned(int code)
{
	static int words[4];
	int *volatile odd = (int *)((char *)words + 1);

	return *odd;
}

int ub_clean(int code)
{
	return (code & 1) + big / 2;
}
