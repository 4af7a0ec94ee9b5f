/* The authoring tests' library (probe.h). */
#include <errno.h>

#include "probe.h"

int pr_narrow(unsigned int n) { return n == 0; }
int pr_real(pr_real_t x) { return x > 0; }
int pr_ulong(pr_ulong_t n) { return n == 0; }
int pr_count(int x) { return x; }

int pr_status(int x, int *status)
{
	*status = x < 0;
	return 0;
}

size_t pr_read(void *buf, size_t n, FILE *f) { return fread(buf, 1, n, f); }
const char *pr_find(int x) { return x > 0 ? "found" : NULL; }

int pr_errno(int x)
{
	if (x < 0)
		errno = EINVAL;
	return 7;
}
