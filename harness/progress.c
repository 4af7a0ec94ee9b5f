/*
 * The progress line (progress.h), redrawn at most five times a second.
 */
#include <stdio.h>
#include <time.h>

#include "progress.h"

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void draw(struct tb_progress_line *p, const char *function, long long now)
{
	double secs = (double)(now - p->started_us) / 1e6;

	fprintf(stderr, "\r\033[K%s %-14.14s %llu/%llu cases  %.0f/s  PASS %llu  ABORT %llu"
		"  RESTART %llu  SETUP %llu",
		p->target, function, (unsigned long long)p->done,
		(unsigned long long)p->planned, secs > 0 ? (double)p->done / secs : 0.0,
		(unsigned long long)p->counts[TB_PASS], (unsigned long long)p->counts[TB_ABORT],
		(unsigned long long)p->counts[TB_RESTART], (unsigned long long)p->counts[TB_SETUP]);
	p->shown_us = now;
}

void tb_progress_start(struct tb_progress_line *p, int enabled, const char *target,
		       uint64_t planned)
{
	*p = (struct tb_progress_line){ .enabled = enabled, .target = target, .planned = planned };
	p->started_us = now_us();
}

void tb_progress_count(struct tb_progress_line *p, const char *function, int outcome)
{
	long long now;

	p->done++;
	p->counts[outcome]++;
	if (!p->enabled)
		return;
	now = now_us();
	if (now - p->shown_us >= 200000 || p->done == p->planned)
		draw(p, function, now);
}

void tb_progress_end(struct tb_progress_line *p)
{
	if (p->enabled)
		fputc('\n', stderr);
}
