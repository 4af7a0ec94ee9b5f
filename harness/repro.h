/*
 * One case, run on its own and printed as a JSON line instead of stored:
 * what `trebuchet repro` shows.
 */
#ifndef TREBUCHET_REPRO_H
#define TREBUCHET_REPRO_H

#include <stdint.h>
#include <stdio.h>

#include "pool.h"
#include "outcome.h"

/* Runs case index of function fn; 0, or -1 if the fork server failed. */
int tb_repro(const struct tb_target *t, struct tb_server_pool *pool, int fn, uint64_t index,
	     FILE *out);

#endif
