/*
 * The progress line (progress.h), redrawn at most five times a second.
 */
#include <stdio.h>

#include "clock.h"
#include "progress.h"

#define REDRAW_US 200000

/* h:mm:ss, or m:ss under an hour */
static const char *clock_text(double secs, char *buf, size_t len)
{
	long s = (long)(secs + 0.5);

	if (s >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(buf, len, "%ld:%02ld", s / 60, s % 60);
	return buf;
}

static void draw(struct tb_progress_line *p, long long now)
{
	double secs = (double)(now - p->started_us) / 1e6;
	double rate = secs > 0 ? (double)p->done / secs : 0.0;
	char elapsed[32], eta[32] = "-:--", hung[48] = "";

	if (rate > 0 && p->done < p->planned)
		clock_text((double)(p->planned - p->done) / rate, eta, sizeof(eta));
	if (p->running_long)
		snprintf(hung, sizeof(hung), "  %d running > 1 s", p->running_long);
	fprintf(stderr, "\r\033[K%s %-14.14s %llu/%llu cases  %.0f/s  %s elapsed  ETA %s"
		"  PASS %llu  ABORT %llu  RESTART %llu  SETUP %llu%s",
		p->target, p->function, (unsigned long long)p->done,
		(unsigned long long)p->planned, rate, clock_text(secs, elapsed, sizeof(elapsed)),
		eta, (unsigned long long)p->counts[TB_PASS], (unsigned long long)p->counts[TB_ABORT],
		(unsigned long long)p->counts[TB_RESTART], (unsigned long long)p->counts[TB_SETUP],
		hung);
	p->shown_us = now;
}

void tb_progress_start(struct tb_progress_line *p, int enabled, const char *target,
		       uint64_t planned)
{
	*p = (struct tb_progress_line){ .enabled = enabled, .target = target,
					.function = "", .planned = planned };
	p->started_us = tb_now_us();
}

void tb_progress_count(struct tb_progress_line *p, const char *function, int outcome)
{
	long long now;

	p->done++;
	p->counts[outcome]++;
	p->function = function;
	if (!p->enabled)
		return;
	now = tb_now_us();
	if (now - p->shown_us >= REDRAW_US || p->done == p->planned)
		draw(p, now);
}

void tb_progress_tick(struct tb_progress_line *p, int running_long)
{
	long long now;

	p->running_long = running_long;
	if (!p->enabled)
		return;
	now = tb_now_us();
	if (now - p->shown_us >= REDRAW_US)
		draw(p, now);
}

void tb_progress_end(struct tb_progress_line *p)
{
	if (p->enabled)
		fputc('\n', stderr);
}
