/*
 * What Robust SFIO's checks cost per call, in nanoseconds, on the cached
 * path (the same stream or memory as the call before, nothing closed or
 * unmapped since) and on the uncached path (every remembered check
 * forgotten before each call).  Last, whole calls: sfputc and sfwrite of
 * 757 bytes and 8 KiB (the study's block sizes) through Robust SFIO, cached,
 * against the same loops through the real SFIO functions it wraps.
 *
 *   robust_checks [ITERATIONS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "robust_memory.h"
#include "robust_real.h"
#include "robust_sfio.h"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static volatile int sink;
static long iterations;

static void line(const char *what, double cached, double uncached)
{
	printf("%-36s %10.1f %12.1f\n", what, cached, uncached);
}

/* ns per call of check(), with and without rs_forget() before each */
#define MEASURE(what, check) do { \
	double t0, cached, uncached, forget; \
	long i_; \
	check; \
	t0 = now_ns(); \
	for (i_ = 0; i_ < iterations; i_++) \
		sink += (check); \
	cached = (now_ns() - t0) / (double)iterations; \
	t0 = now_ns(); \
	for (i_ = 0; i_ < iterations; i_++) \
		rs_forget(); \
	forget = (now_ns() - t0) / (double)iterations; \
	t0 = now_ns(); \
	for (i_ = 0; i_ < iterations; i_++) { \
		rs_forget(); \
		sink += (check); \
	} \
	uncached = (now_ns() - t0) / (double)iterations - forget; \
	line(what, cached, uncached); \
} while (0)

static void checks(void)
{
	Sfio_t *f = sfopen(NULL, "/dev/null", "w");
	char *small = malloc(757), *block = malloc(8192), *string = malloc(100);
	int i;

	for (i = 0; i < 99; i++)
		string[i] = 's';
	string[99] = '\0';
	printf("%-36s %10s %12s\n", "check, ns per call", "cached", "uncached");
	MEASURE("stream open, for writing", rs_stream_ok(f, SF_WRITE));
	MEASURE("memory 757 B, read", rs_buffer_ok(small, 757, 0));
	MEASURE("memory 8 KiB, read", rs_buffer_ok(block, 8192, 0));
	MEASURE("memory 8 KiB, read+write", rs_buffer_ok(block, 8192, 1));
	MEASURE("string of 99 characters", rs_string_ok(string));
	sfclose(f);
	free(small);
	free(block);
	free(string);
}

/* ns per call of a loop through the robust function and the real one */
#define VERSUS(what, robust, real) do { \
	double t0, r, p; \
	long i_; \
	t0 = now_ns(); \
	for (i_ = 0; i_ < iterations; i_++) \
		sink += (robust); \
	r = (now_ns() - t0) / (double)iterations; \
	t0 = now_ns(); \
	for (i_ = 0; i_ < iterations; i_++) \
		sink += (real); \
	p = (now_ns() - t0) / (double)iterations; \
	printf("%-36s %10.1f %12.1f %9.1f\n", what, r, p, r - p); \
} while (0)

/* the real SFIO's sfputc: its macro over the struct (sfio_abi.h) */
static int plain_putc(Sfio_t *f, int c)
{
	return f->next >= f->endw ? rs_real._sfflsbuf(f, (unsigned char)c) : (*f->next++ = (unsigned char)c);
}

static void calls(void)
{
	Sfio_t *f = sfopen(NULL, "/dev/null", "w");
	char *small = calloc(1, 757), *block = calloc(1, 8192);

	/* /dev/null: no I/O cost to hide the checks behind, the worst case */
	printf("\n%-36s %10s %12s %9s\n", "call to /dev/null, ns per call", "robust", "real SFIO", "extra");
	VERSUS("sfputc", sfputc(f, 'x'), plain_putc(f, 'x'));
	VERSUS("sfwrite 757 B", (int)sfwrite(f, small, 757), (int)rs_real.sfwrite(f, small, 757));
	VERSUS("sfwrite 8 KiB", (int)sfwrite(f, block, 8192), (int)rs_real.sfwrite(f, block, 8192));
	sfclose(f);
}

int main(int argc, char **argv)
{
	iterations = argc > 1 ? atol(argv[1]) : 1000000;
	checks();
	calls();
	return 0;
}
