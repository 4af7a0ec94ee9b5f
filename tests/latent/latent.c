/*
 * Latent memory errors (latent.h).  Each bad function does its one wrong
 * thing whatever code is, inside memory the allocator owns, so that a plain
 * run returns (PASS) and only a checker sees it.  The pointers go through
 * a volatile one so that the compiler keeps every access as written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latent.h"

static char *volatile kept;

/* 8 bytes into a 1-byte block: glibc's smallest chunk has room for 24 */
int lt_overflow(int code)
{
	char *p = malloc(1);

	if (!p)
		return -1;
	kept = p;
	for (int i = 0; i < 8; i++)
		kept[i] = (char)code;
	free(p);
	return 0;
}

/* a string's length read past its end: 4 bytes, no terminator among them */
int lt_overread(int code)
{
	char *p = malloc(4);
	size_t n = 0;

	if (!p)
		return -1;
	memcpy(p, "abcd", 4);
	kept = p;
	while (n < 12 && kept[n] != '\0')
		n++;
	free(p);
	return (int)n;
}

/* a freed block read: the allocator keeps it, so nothing faults */
int lt_use_after_free(int code)
{
	int *p = malloc(sizeof *p);
	int v;

	if (!p)
		return -1;
	*p = code;
	kept = (char *)p;
	free(p);
	v = *(volatile int *)kept;
	return v == code ? 0 : 1;
}

/* a block never written decides which way the function goes */
int lt_uninit(int code)
{
	int *p = malloc(sizeof *p);
	int r = 0;

	if (!p)
		return -1;
	kept = (char *)p;
	if (*(volatile int *)kept == 12345)
		r = puts("") + 1;  /* a call: the branch cannot become a select */
	free(p);
	return r;
}

int lt_clean(int code)
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

int lt_clean_string(int code)
{
	char *p = malloc(16);
	int r;

	if (!p)
		return -1;
	snprintf(p, 16, "%d", code);
	r = (int)strlen(p);
	free(p);
	return r;
}
