/*
 * corruptlib.h's two versions.  Each error stays inside memory the
 * allocator owns, so a plain run passes; the pointers go through a
 * volatile one so that the compiler keeps every access as written.
 *
 *   cl_copy   version 2 writes 8 bytes into a 1-byte block: a new defect
 *   cl_scan   reads past a 4-byte string for code 0 in version 1, for
 *             every code in version 2: new cases of a defect it had
 *   cl_fixed  version 1 branches on a block never written; version 2
 *             writes it first: fixed
 *   cl_clean  clean in both
 */
#include <stdlib.h>
#include <string.h>

#include "corruptlib.h"

static char *volatile kept;

const char *cl_version(void)
{
#ifdef CORRUPTLIB_V2
	return "2";
#else
	return "1";
#endif
}

int cl_copy(int code)
{
	char *p = malloc(1);
#ifdef CORRUPTLIB_V2
	int n = 8;
#else
	int n = 1;
#endif

	if (!p)
		return -1;
	kept = p;
	for (int i = 0; i < n; i++)
		kept[i] = (char)code;
	free(p);
	return 0;
}

int cl_scan(int code)
{
	char *p = malloc(4);
	size_t n = 0;
#ifdef CORRUPTLIB_V2
	int terminated = 0;
#else
	int terminated = code != 0;
#endif

	if (!p)
		return -1;
	memcpy(p, terminated ? "abc" : "abcd", 4);
	kept = p;
	while (n < 12 && kept[n] != '\0')
		n++;
	free(p);
	return (int)n;
}

int cl_fixed(int code)
{
	int *p = malloc(sizeof *p);
	int r = 0;

	if (!p)
		return -1;
#ifdef CORRUPTLIB_V2
	*p = code;
#endif
	kept = (char *)p;
	if (*(volatile int *)kept == 12345)
		r = (int)strlen(kept) + 1;  /* a call: the branch cannot become a select */
	free(p);
	return r;
}

int cl_clean(int code)
{
	int *p = malloc(sizeof *p);
	int r;

	if (!p)
		return -1;
	*p = code;
	kept = (char *)p;
	r = *(volatile int *)kept & 1;
	free(p);
	return r;
}
