/*
 * Functions whose parameter types and error conventions the authoring tests
 * (tests/test_authoring.py) hold trebuchet's checks against.
 */
#ifndef PROBE_H
#define PROBE_H

#include <stddef.h>
#include <stdio.h>

typedef double pr_real_t;
typedef unsigned long pr_ulong_t;

int pr_narrow(unsigned int n);
int pr_real(pr_real_t x);
int pr_ulong(pr_ulong_t n);
/* returns x: an error when zero or negative */
int pr_count(int x);
/* *status = 1 for a negative x, else 0; status NULL is not checked */
int pr_status(int x, int *status);
/* fread(buf, 1, n, f) */
size_t pr_read(void *buf, size_t n, FILE *f);
/* "found" for a positive x, else NULL: no error */
const char *pr_find(int x);
/* errno EINVAL for a negative x; returns 7 whatever happened */
int pr_errno(int x);

#endif
