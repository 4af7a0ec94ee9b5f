/*
 * defects: a library with known, distinct defects, counted by hand, for the
 * findings' tests (tests/test_findings.py).  Each promise below is its
 * documentation, as defects.yaml states it.
 */
#ifndef DEFECTS_H
#define DEFECTS_H

#include <stddef.h>

/* The length of s; s may be NULL: returns 0. */
size_t df_length(const char *s);

/* A copy of s in upper case, to free(); s may be NULL: returns NULL. */
char *df_upper(const char *s);

/* The columns s takes on a terminal; s may be NULL: returns 0. */
size_t df_width(const char *s);

/* a / b; b == 0 is answered with -1 and errno EDOM.  Returns for any a, b. */
int df_ratio(int a, int b);

/* The sum 0 + 1 + ... + n, computed by recursion; 0 for n <= 0.  Returns for any n. */
long df_depth(int n);

/* Returns n (no promise for negative n). */
int df_spin(int n);

/* Waits for n to be ready (no promise for negative n). */
int df_wait(int n);

/* Opens path; an empty path is answered with -1 and errno EINVAL, as is NULL. */
int df_open(const char *path);

/* The int p points to; p must point to one (NULL is undefined). */
int df_peek(const int *p);

/* fn(x); fn may be NULL: returns x. */
int df_apply(int (*fn)(int), int x);

/* Frees p; p must be NULL or returned by df_upper. */
void df_release(void *p);

/* The sum of the first len bytes of buf (a page at most); buf may be NULL:
 * returns 0.  tag is not read. */
unsigned long df_sum(const unsigned char *buf, size_t len, const void *tag);

/* Runs operation n; n must be 0 (any other n is undefined). */
int df_dispatch(int n);

/* A number drawn from the system's randomness, for seeding. */
int df_seed(void);

/* The library's version. */
const char *df_version(void);

#endif
