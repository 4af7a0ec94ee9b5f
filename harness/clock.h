/*
 * The one clock the harness measures with: CLOCK_MONOTONIC in microseconds,
 * the same in the executor and its fork servers (their slot start times are
 * compared with it).
 */
#ifndef TREBUCHET_CLOCK_H
#define TREBUCHET_CLOCK_H

#include <time.h>

static inline long long tb_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

#endif
