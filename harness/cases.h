/*
 * Test-case enumeration: the cross product of a function's parameter values
 * in mixed radix (the last parameter varies fastest), and the deterministic
 * sample drawn when the product is larger than the cap.
 */
#ifndef TREBUCHET_CASES_H
#define TREBUCHET_CASES_H

#include <stddef.h>
#include <stdint.h>

/* The most parameters a tested function has: schemas/target.schema.json's
 * `params` says the same (maxItems), so a spec over it is refused at its
 * line.  Only the per-case arrays of this many slots grow with it (on the
 * test process's stack); the shared record does not. */
#define TB_MAX_PARAMS 16

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

/* Turns case indices of a sub-product back into indices of the full one:
 * parameter i takes the value indices chosen[i][0..nchosen[i]) (ascending),
 * or all counts[i] of them when chosen[i] is NULL; cases[] holds indices
 * into the product of those choices.  Ascending stays ascending, so a
 * pinned campaign draws from its sub-product with tb_cases_draw and runs
 * cases named as every other run names them. */
void tb_cases_widen(uint64_t *cases, size_t n, const int *counts, int nparams,
		    const int *const *chosen, const int *nchosen);

/* Keeps, in place, the cases of shard (1..shards): those whose position in
 * the whole campaign (first + their position in cases[]) is shard - 1
 * modulo shards.  Dealt round-robin over every selected function in run
 * order, the shards differ by at most one case in size, and in every
 * function too.  Returns how many are kept. */
size_t tb_cases_shard(uint64_t *cases, size_t n, uint64_t first, int shard, int shards);

/* FNV-1a of s continued from h (start with TB_FNV_OFFSET): the one string
 * hash of the harness, the same on every machine. */
#define TB_FNV_OFFSET 0xcbf29ce484222325ull
uint64_t tb_fnv1a(uint64_t h, const char *s);

#endif
