/*
 * Test-case enumeration: the cross product of a function's parameter values
 * in mixed radix (the last parameter varies fastest), and the deterministic
 * sample drawn when the product is larger than the cap.
 */
#ifndef TREBUCHET_CASES_H
#define TREBUCHET_CASES_H

#include <stddef.h>
#include <stdint.h>

#define TB_MAX_PARAMS 8

/* Product of counts[0..n); -1 if it does not fit in 63 bits. */
int tb_cases_total(const int *counts, int n, uint64_t *total);

/* Value index of each parameter for case index. */
void tb_case_decode(uint64_t index, const int *counts, int n, int *values);

/* The case indices to run, ascending: all of them when total <= cap, else cap
 * of them drawn with a generator seeded by (seed, function name) so the same
 * seed gives the same cases everywhere, whatever other functions are run.
 * out must hold min(total, cap) entries; returns that count, or -1 (no memory). */
long tb_cases_draw(uint64_t total, uint64_t cap, uint64_t seed,
		   const char *function, uint64_t *out);

#endif
