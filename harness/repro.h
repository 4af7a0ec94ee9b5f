/*
 * Cases run on their own and printed as JSON lines instead of stored: what
 * `trebuchet repro` shows, and what `trebuchet gate` runs again to confirm
 * a new failure.
 */
#ifndef TREBUCHET_REPRO_H
#define TREBUCHET_REPRO_H

#include <stdint.h>
#include <stdio.h>

#include "pool.h"
#include "outcome.h"

struct tb_repro_case {
	int fn;
	uint64_t index;
};

/* Runs the n cases, as many at once as the pool's jobs allow, then (when
 * second_look) those the watchdog stopped again, one at a time, as a
 * campaign does; prints one JSON line per case in the order given (streamed:
 * each as it ends, flushed, which memcheck reads while the run goes on); 0,
 * or -1 if a fork server failed. */
int tb_repro(const struct tb_target *t, struct tb_server_pool *pool,
	     const struct tb_repro_case *cases, size_t n, int second_look, int streamed,
	     FILE *out);

/* Reads "FUNCTION INDEX" lines from path into a malloc'd array; on a bad
 * line prints one line naming path and line and returns -1. */
int tb_repro_read_cases(const char *path, const struct tb_target *t,
			struct tb_repro_case **cases, size_t *n);

#endif
