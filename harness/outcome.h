/*
 * Outcomes and the result message the fork server sends for each case.
 * The outcome is decided in one place, classify.c.
 */
#ifndef TREBUCHET_OUTCOME_H
#define TREBUCHET_OUTCOME_H

#include <stddef.h>
#include <stdint.h>

#include "record.h"

enum tb_outcome {
	TB_PASS,     /* the call returned */
	TB_ABORT,    /* the process ended during the call */
	TB_RESTART,  /* the call had not returned at the deadline */
	TB_SETUP,    /* a test value could not be built */
	TB_HARNESS,  /* the harness itself failed: never stored, stops the run */
};

extern const char *const tb_outcome_names[];

/* How much of what a test process wrote to descriptor 2 a failing case
 * keeps: the end of it, where an assertion's message or a library's abort
 * text is; whole lines when they fit. */
#define TB_STDERR_TAIL 512

struct tb_request {
	uint32_t fn;
	uint32_t tag;            /* the caller's, handed back in the result */
	uint64_t case_index;
};

struct tb_result {
	uint64_t case_index;
	uint32_t fn;
	int32_t outcome;
	int32_t signal;          /* -1: none */
	int32_t exit_status;     /* -1: none */
	int64_t ret;
	int32_t err;
	int32_t error_reported;
	int32_t setup_param;     /* -1: none */
	int32_t cleanup_failed;
	int32_t channel_damaged;
	uint32_t tag;            /* the request's */
	int64_t duration_us;
	uint32_t stderr_len;     /* bytes in stderr_tail: ABORT and RESTART only */
	char stderr_tail[TB_STDERR_TAIL];  /* the last bytes it wrote to stderr */
};

/* A result travels from the fork server as the bytes of its struct up to
 * the end of the tail it holds: most hold none, and a pipe full of unused
 * tails would stall the server's writes, and with them its forks. */
#define TB_RESULT_HEAD offsetof(struct tb_result, stderr_tail)
static inline size_t tb_result_wire_size(const struct tb_result *r)
{
	return TB_RESULT_HEAD + r->stderr_len;
}

/* What the fork server saw of one finished test process. */
struct tb_observation {
	int status;                    /* from wait4() */
	int timed_out;                 /* the wall-clock watchdog killed it */
	long long cpu_us;              /* CPU time it used, from wait4() */
	long long cpu_limit_us;        /* its RLIMIT_CPU soft limit */
	const struct tb_record *record;
};

void tb_classify(const struct tb_observation *obs, struct tb_result *res);

#endif
