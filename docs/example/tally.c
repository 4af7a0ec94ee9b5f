/*
 * tally: the guide's example library (tally.h).  It trusts its caller, as
 * many libraries do: no check of t or data beyond what tally.h promises.
 */
#include <stdlib.h>

#include "tally.h"

struct tally {
	tally_sum_t sum;
	int finished;
	const char *error;
};

tally_t *tally_new(void)
{
	return calloc(1, sizeof(struct tally));
}

int tally_add(tally_t *t, const unsigned char *data, size_t len)
{
	size_t i;

	if (t->finished) {
		t->error = "tally_add after tally_finish";
		return -1;
	}
	for (i = 0; i < len; i++)
		t->sum += data[i];
	return 0;
}

int tally_finish(tally_t *t, tally_sum_t *sum)
{
	if (t->finished) {
		t->error = "tally_finish twice";
		return -1;
	}
	t->finished = 1;
	*sum = t->sum;
	return 0;
}

const char *tally_error(const tally_t *t)
{
	return t->error;
}

void tally_free(tally_t *t)
{
	free(t);
}

const char *tally_version(void)
{
	return "1.0";
}
