/*
 * demolib: a tiny text library that the gate's tests build twice.  Version 1
 * checks its string arguments for NULL; version 2 (DEMOLIB_DROP_NULL_CHECK)
 * forgot one of those checks, in demo_count: a real robustness regression.
 */
#ifndef DEMOLIB_H
#define DEMOLIB_H

#include <stddef.h>

/* How many times c occurs in s; 0 for a NULL s. */
size_t demo_count(const char *s, int c);
/* The length of s; s is not checked, in either version. */
size_t demo_length(const char *s);
/* v clamped to [lo, hi]; -1 when lo > hi. */
int demo_clamp(int v, int lo, int hi);
/* "1" or "2". */
const char *demo_version(void);

#endif
