/*
 * What Robust SFIO's checks cost per call, in nanoseconds: the stream
 * registry look-up and the memory check for a few buffer sizes, read and
 * write.  (The cached path, which skips the memory check for a buffer
 * already validated, is measured once the library remembers validations.)
 *
 *   robust_checks [ITERATIONS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "robust_memory.h"
#include "robust_registry.h"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static volatile int sink;

static void memory(const char *label, size_t size, int write, long iterations)
{
	char *buf = malloc(size);
	double t0;
	long i;

	for (i = 0; i < (long)size; i += 4096)
		buf[i] = 0;
	t0 = now_ns();
	for (i = 0; i < iterations; i++)
		sink += rs_memory_ok(buf, size, write);
	printf("%-34s %9.0f ns/call\n", label, (now_ns() - t0) / (double)iterations);
	free(buf);
}

int main(int argc, char **argv)
{
	long iterations = argc > 1 ? atol(argv[1]) : 200000, i;
	static char streams[256];
	double t0;

	for (i = 0; i < 256; i++)
		rs_stream_add(&streams[i]);
	t0 = now_ns();
	for (i = 0; i < iterations; i++)
		sink += rs_stream_known(&streams[i & 255]);
	printf("%-34s %9.1f ns/call\n", "stream registry look-up", (now_ns() - t0) / (double)iterations);
	memory("memory check, 757 B, read", 757, 0, iterations);
	memory("memory check, 8 KiB, read", 8192, 0, iterations);
	memory("memory check, 8 KiB, read+write", 8192, 1, iterations);
	memory("memory check, 1 MiB, read+write", 1 << 20, 1, iterations / 20);
	return 0;
}
