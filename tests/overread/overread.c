/*
 * or_pairs (overread.h) steps two characters at a time and tests only the
 * first of each step for the NUL, so an odd length steps over the NUL and
 * reads the byte after it.  Against a literal amid mapped memory that byte
 * is whatever follows and the call returns; against a string that ends at
 * a guard page it is SIGSEGV.
 */
#include "overread.h"

size_t or_pairs(const char *s)
{
	const char *volatile p = s;  /* every read stays as written */
	size_t n = 0;

	while (*p) {
		n++;
		p += 2;  /* DEFECT or_pairs: an odd length steps over the NUL */
	}
	return n;
}
