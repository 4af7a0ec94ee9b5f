/*
 * wipe.h: each function maps a buffer of its own right above the highest
 * shared mapping of its process (the harness's result records, a test
 * process's one shared memory, and the fence above them) and sweeps zeros
 * backwards from the buffer's end down past the lowest shared mapping's
 * start, as sodium_pad does over a huge block size; then it returns, dies
 * of SIGSEGV or exits.  Without a fence the sweep wipes the records, and
 * the case reads as PASS, as a value that could not be built, or stops the
 * run as the harness failing; with it the sweep faults on the fence.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "wipe.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

/* [low, high) spanned by the process's shared mappings; 0 when none */
static void shared_span(unsigned long *low, unsigned long *high)
{
	char line[512], perms[8];
	unsigned long start, end;
	FILE *maps = fopen("/proc/self/maps", "r");

	*low = *high = 0;
	if (!maps)
		return;
	while (fgets(line, sizeof(line), maps))
		if (sscanf(line, "%lx-%lx %7s", &start, &end, perms) == 3 && perms[3] == 's') {
			if (!*low || start < *low)
				*low = start;
			if (end > *high)
				*high = end;
		}
	fclose(maps);
}

static int sweep(void)
{
	unsigned long low, high;
	size_t page = (size_t)getpagesize();
	volatile char *p;
	char *buf;

	shared_span(&low, &high);
	if (!high)
		return -1;
	buf = mmap((void *)high, page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (buf != (char *)high)
		return -1;  /* the place was taken: no sweep, and the case PASSes */
	for (p = buf + page - 1; p >= (volatile char *)low; p--)
		*p = 0;
	return 0;
}

int ch_wipe_and_return(int code)
{
	return sweep();
}

int ch_wipe_and_crash(int code)
{
	sweep();
	raise(SIGSEGV);
	return 0;
}

int ch_wipe_and_exit(int code)
{
	sweep();
	_exit(0);
}
