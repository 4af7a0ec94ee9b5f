/*
 * The progress line on a terminal: cases done, cases per second, elapsed
 * time and ETA, counts per outcome, and how many cases have been running
 * for more than a second (a line that stands still says why).  Silent when
 * disabled (not a terminal, or --quiet).
 */
#ifndef TREBUCHET_PROGRESS_H
#define TREBUCHET_PROGRESS_H

#include <stdint.h>

#include "outcome.h"

struct tb_progress_line {
	int enabled;
	const char *target;
	const char *function;  /* of the latest result */
	uint64_t planned, done;
	int running_long;
	uint64_t counts[TB_HARNESS + 1];
	long long started_us, shown_us;
};

void tb_progress_start(struct tb_progress_line *p, int enabled, const char *target,
		       uint64_t planned);
void tb_progress_count(struct tb_progress_line *p, const char *function, int outcome);
/* On each wake of the campaign, with or without results. */
void tb_progress_tick(struct tb_progress_line *p, int running_long);
void tb_progress_end(struct tb_progress_line *p);

#endif
