/*
 * The progress line on a terminal: cases done, cases per second, counts per
 * outcome.  Silent when disabled (not a terminal, or --quiet).
 */
#ifndef TREBUCHET_PROGRESS_H
#define TREBUCHET_PROGRESS_H

#include <stdint.h>

#include "outcome.h"

struct tb_progress_line {
	int enabled;
	const char *target;
	uint64_t planned, done;
	uint64_t counts[TB_HARNESS + 1];
	long long started_us, shown_us;
};

void tb_progress_start(struct tb_progress_line *p, int enabled, const char *target,
		       uint64_t planned);
void tb_progress_count(struct tb_progress_line *p, const char *function, int outcome);
void tb_progress_end(struct tb_progress_line *p);

#endif
