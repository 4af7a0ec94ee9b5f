/*
 * A campaign: the cases of the selected functions fed to the fork server
 * and their results written to the store, function by function.
 */
#ifndef TREBUCHET_CAMPAIGN_H
#define TREBUCHET_CAMPAIGN_H

#include <signal.h>
#include <stdint.h>

#include "pins.h"
#include "pool.h"
#include "store.h"
#include "target.h"

struct tb_campaign {
	const struct tb_target *target;
	struct tb_store *store;
	struct tb_server_pool *servers;
	int64_t run_id;
	uint64_t seed, cap;
	int shard, shards;    /* run only shard K of N (tb_cases_shard) */
	/* by function index: what --pins holds each to; NULL: nothing pinned */
	const struct tb_pins *pins;
	int listed;           /* run the run's listed cases, draw none */
	const int *selected;  /* function indices, in run order */
	int nselected;
	int progress;
	int second_look;      /* run a case the watchdog stopped again (forkserver.h) */
	volatile sig_atomic_t *interrupted;
};

enum { TB_CAMPAIGN_DONE = 0, TB_CAMPAIGN_INTERRUPTED = 1, TB_CAMPAIGN_FAILED = -1 };

/* Runs every case of the selection not already in the store for the run. */
int tb_campaign_run(struct tb_campaign *c);

#endif
