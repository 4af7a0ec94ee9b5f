/*
 * defects (defects.h).  Every defect is marked with a DEFECT comment on the
 * line where it strikes; the tests read those lines, not the findings, to
 * know where each finding must point.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/random.h>
#include <unistd.h>

#include "defects.h"

/* reached from three public functions: one defect, not three */
static __attribute__((noinline)) size_t count_bytes(const char *s)
{
	size_t n = 0;

	while (s[n])  /* DEFECT count_bytes: no NULL check */
		n++;
	return n;
}

size_t df_length(const char *s)
{
	return count_bytes(s);
}

char *df_upper(const char *s)
{
	size_t n = count_bytes(s), i;
	char *up = malloc(n + 1);

	for (i = 0; up && i <= n; i++)
		up[i] = s[i] >= 'a' && s[i] <= 'z' ? s[i] - 'a' + 'A' : s[i];
	return up;
}

size_t df_width(const char *s)
{
	return count_bytes(s) + (s[0] == '\t');  /* a tab counts twice */
}

int df_ratio(int a, int b)
{
	assert(b != 0);  /* DEFECT df_ratio-assert: the promised EDOM never comes */
	return a / b;    /* DEFECT df_ratio-divide: INT_MIN / -1 traps */
}

static __attribute__((noinline)) long deep(int n)
{
	volatile char pad[256];
	long below;

	pad[0] = (char)n;
	if (n <= 0)
		return 0;
	below = deep(n - 1);  /* DEFECT deep: recursion as deep as n */
	return below + n + pad[0] * 0;
}

long df_depth(int n)
{
	return deep(n);
}

int df_spin(int n)
{
	volatile int i = n;

	while (i < 0)  /* DEFECT df_spin: a negative n is never left */
		;
	return n;
}

int df_wait(int n)
{
	if (n < 0)
		pause();  /* DEFECT df_wait: waits for ever */
	return n;
}

int df_open(const char *path)
{
	if (!path) {
		errno = EINVAL;
		return -1;
	}
	return 0;  /* DEFECT df_open: an empty path is taken, no EINVAL */
}

int df_peek(const int *p)
{
	return *p;  /* DEFECT df_peek: misuse only (a wild p) */
}

int df_apply(int (*fn)(int), int x)
{
	volatile int r = fn(x);  /* DEFECT df_apply: a NULL fn is called */

	return r;
}

/* -O1 keeps sibling calls; the tail call into free() is the point here */
__attribute__((optimize("optimize-sibling-calls"))) void df_release(void *p)
{
	free(p);  /* DEFECT df_release: misuse only (p not from df_upper) */
}

/* one crash site, two causes: a NULL buf (with any length but zero) and a
 * short buffer read past its end (its length beyond it); tag, which is not
 * read, is no part of either */
static __attribute__((noinline)) unsigned long add_bytes(const unsigned char *buf, size_t len)
{
	unsigned long total = 0;
	size_t i;

	for (i = 0; i < len; i++)
		total += buf[i];  /* DEFECT add_bytes: no NULL check, no bound */
	return total;
}

unsigned long df_sum(const unsigned char *buf, size_t len, const void *tag)
{
	(void)tag;
	return add_bytes(buf, len < 4096 ? len : 4096);
}

static int op_zero(void)
{
	return 0;
}

/* an odd n calls through a pointer into the library's own read-only data:
 * a jump to no code inside a module, named as a wild function pointer */
static const unsigned char not_code[16] = { 0xc3 };

int df_dispatch(int n)
{
	int (*const ops[2])(void) = { op_zero, (int (*)(void))(const void *)not_code };

	return ops[n & 1]();  /* DEFECT df_dispatch: misuse only (an odd n) */
}

/* flaky: ends the process with a status drawn afresh each run, so that a
 * run again ends another way (all three reruns alike: 1 in 254^3) */
int df_seed(void)
{
	unsigned char byte = 0;

	if (getrandom(&byte, 1, 0) != 1)
		byte = 0;
	_exit(1 + byte % 254);  /* DEFECT df_seed: flaky */
}

const char *df_version(void)
{
	return "1";
}
