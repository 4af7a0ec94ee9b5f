/*
 * Outcomes and the result message the fork server sends for each case.
 * The outcome is decided in one place, classify.c.
 */
#ifndef TREBUCHET_OUTCOME_H
#define TREBUCHET_OUTCOME_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

/* Room for a crash site's frames as text, "MODULE+0xOFFSET" per line:
 * TB_SITE_FRAMES lines of a path and an offset each. */
#define TB_SITE_TEXT 4096

/* Where a failing case ended (crashsite.h, crashsite_reader.h), as it travels and is
 * stored (schemas/results.sql, crash_sites). */
struct tb_site {
	int32_t signal;          /* the signal the handler caught */
	int32_t code;            /* its si_code */
	int32_t has_fault_addr;  /* fault_addr is si_addr (else stored as NULL) */
	uint32_t frames_len;     /* bytes in frames: 0 when unwinding failed */
	uint64_t fault_addr;
	uint64_t sp;
	int64_t stack_depth;     /* -1: none */
	char frames[TB_SITE_TEXT];  /* innermost first, one per line, no NUL */
};

struct tb_request {
	uint32_t fn;
	uint32_t tag;            /* the caller's, handed back in the result */
	uint64_t case_index;
	uint32_t second_look;    /* 1: run alone at TB_SECOND_LOOK times the limits (forkserver.h) */
	uint32_t unused;
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
	uint32_t second_look;    /* the request's */
	int64_t duration_us;
	int64_t cpu_us;          /* the test process's CPU time, from wait4() */
	uint32_t stderr_len;     /* bytes in stderr_tail: ABORT and RESTART only */
	uint32_t site_len;       /* bytes of site: ABORT and RESTART only, when the handler left one */
	int32_t setup_errno;     /* SETUP: errno when its value's setup failed */
	uint32_t reason_len;     /* SETUP: bytes of setup_reason, less its NUL */
	int32_t pid;             /* the test process, as the fork server's PID namespace
				  * numbers it: memcheck finds its report by it */
	char stderr_tail[TB_STDERR_TAIL];  /* the last bytes it wrote to stderr */
	struct tb_site site;
	char setup_reason[TB_SETUP_REASON];  /* SETUP: why, in the setup's words */
};

/* A first look's RESTART: the case is run again alone before it is called
 * so (forkserver.h, TB_SECOND_LOOK), and its second look's result is the
 * one that counts. */
static inline int tb_wants_second_look(const struct tb_result *r)
{
	return r->outcome == TB_RESTART && !r->second_look;
}

/* A result travels from the fork server as the bytes of its struct up to
 * the end of the tail it holds, then the site's first site_len bytes, then
 * the reason's reason_len: most hold none of them, and a pipe full of
 * unused tails would stall the server's writes, and with them its forks. */
#define TB_RESULT_HEAD offsetof(struct tb_result, stderr_tail)
#define TB_SITE_HEAD offsetof(struct tb_site, frames)
static inline size_t tb_result_wire_size(const struct tb_result *r)
{
	return TB_RESULT_HEAD + r->stderr_len + r->site_len + r->reason_len;
}

/* Writes r as it travels to out (tb_result_wire_size() bytes). */
static inline size_t tb_result_pack(const struct tb_result *r, char *out)
{
	size_t head = TB_RESULT_HEAD + r->stderr_len;

	memcpy(out, r, head);
	memcpy(out + head, &r->site, r->site_len);
	memcpy(out + head + r->site_len, r->setup_reason, r->reason_len);
	return head + r->site_len + r->reason_len;
}

/* The size of the result that starts at in, from its head (which must be
 * there: TB_RESULT_HEAD bytes). */
static inline size_t tb_result_wire_size_at(const char *in)
{
	uint32_t tail, site, reason;

	/* results lie end to end, not aligned */
	memcpy(&tail, in + offsetof(struct tb_result, stderr_len), sizeof(tail));
	memcpy(&site, in + offsetof(struct tb_result, site_len), sizeof(site));
	memcpy(&reason, in + offsetof(struct tb_result, reason_len), sizeof(reason));
	return TB_RESULT_HEAD + tail + site + reason;
}

/* Reads the whole result at in (tb_result_wire_size_at(in) bytes) into r. */
static inline void tb_result_unpack(const char *in, struct tb_result *r)
{
	memcpy(r, in, TB_RESULT_HEAD);
	memcpy(r->stderr_tail, in + TB_RESULT_HEAD, r->stderr_len);
	memcpy(&r->site, in + TB_RESULT_HEAD + r->stderr_len, r->site_len);
	memcpy(r->setup_reason, in + TB_RESULT_HEAD + r->stderr_len + r->site_len, r->reason_len);
	r->setup_reason[r->reason_len] = 0;
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
