/*
 * demolib (demolib.h).  Built as version 1, or with -DDEMOLIB_DROP_NULL_CHECK
 * as version 2.
 */
#include <string.h>

#include "demolib.h"

size_t demo_count(const char *s, int c)
{
	size_t n = 0;

#ifndef DEMOLIB_DROP_NULL_CHECK
	if (!s)
		return 0;
#endif
	for (; *s; s++)
		n += *s == (char)c;
	return n;
}

size_t demo_length(const char *s)
{
	return strlen(s);
}

int demo_clamp(int v, int lo, int hi)
{
	if (lo > hi)
		return -1;
	return v < lo ? lo : v > hi ? hi : v;
}

const char *demo_version(void)
{
#ifdef DEMOLIB_DROP_NULL_CHECK
	return "2";
#else
	return "1";
#endif
}
