/*
 * Case enumeration and seeded sampling (see cases.h).  The generator is
 * splitmix64 and the sampler Floyd's algorithm, both spelled out here so the
 * sample does not depend on the C library's rand().
 */
#include <stdlib.h>

#include "cases.h"

int tb_cases_total(const int *counts, int n, uint64_t *total)
{
	uint64_t t = 1;
	int i;

	for (i = 0; i < n; i++) {
		if (counts[i] <= 0)
			return (*total = 0), 0;
		if (__builtin_mul_overflow(t, (uint64_t)counts[i], &t) || t > INT64_MAX)
			return -1;
	}
	*total = t;
	return 0;
}

void tb_case_decode(uint64_t index, const int *counts, int n, int *values)
{
	int i;

	for (i = n - 1; i >= 0; i--) {
		values[i] = (int)(index % (uint64_t)counts[i]);
		index /= (uint64_t)counts[i];
	}
}

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t tb_fnv1a(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

/* Uniform in [0, bound] by multiply-high; the tiny bias is the same everywhere. */
static uint64_t below_or_equal(uint64_t *state, uint64_t bound)
{
	return (uint64_t)(((unsigned __int128)splitmix64(state) * (bound + 1)) >> 64);
}

struct index_set {
	uint64_t *slots;  /* open addressing; stored as index + 1, 0 = empty */
	uint64_t mask;
};

/* Adds v; returns 0 if it was already there. */
static int set_add(struct index_set *s, uint64_t v)
{
	uint64_t i = (v * 0x9e3779b97f4a7c15ull) & s->mask;

	while (s->slots[i]) {
		if (s->slots[i] == v + 1)
			return 0;
		i = (i + 1) & s->mask;
	}
	s->slots[i] = v + 1;
	return 1;
}

static int ascending(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

long tb_cases_draw(uint64_t total, uint64_t cap, uint64_t seed,
		   const char *function, uint64_t *out)
{
	struct index_set set;
	/* tied to the function's name, not its position */
	uint64_t state = seed ^ tb_fnv1a(TB_FNV_OFFSET, function);
	uint64_t size = 2, j, n = 0;

	if (total <= cap) {
		for (j = 0; j < total; j++)
			out[j] = j;
		return (long)total;
	}
	while (size < 2 * cap)
		size <<= 1;
	set.slots = calloc(size, sizeof(*set.slots));
	if (!set.slots)
		return -1;
	set.mask = size - 1;
	/* Floyd: cap distinct indices from [0, total) in cap draws */
	for (j = total - cap; j < total; j++) {
		uint64_t t = below_or_equal(&state, j);

		out[n++] = set_add(&set, t) ? t : (set_add(&set, j), j);
	}
	free(set.slots);
	qsort(out, n, sizeof(*out), ascending);
	return (long)n;
}

void tb_cases_widen(uint64_t *cases, size_t n, const int *counts, int nparams,
		    const int *const *chosen, const int *nchosen)
{
	int sub[TB_MAX_PARAMS], digit[TB_MAX_PARAMS], i;
	size_t k;

	for (i = 0; i < nparams; i++)
		sub[i] = chosen[i] ? nchosen[i] : counts[i];
	for (k = 0; k < n; k++) {
		uint64_t index = 0;

		tb_case_decode(cases[k], sub, nparams, digit);
		for (i = 0; i < nparams; i++)
			index = index * (uint64_t)counts[i] +
				(uint64_t)(chosen[i] ? chosen[i][digit[i]] : digit[i]);
		cases[k] = index;
	}
}

size_t tb_cases_shard(uint64_t *cases, size_t n, uint64_t first, int shard, int shards)
{
	size_t i, kept = 0;

	for (i = 0; i < n; i++)
		if ((first + i) % (uint64_t)shards == (uint64_t)(shard - 1))
			cases[kept++] = cases[i];
	return kept;
}
