/*
 * The outcome contract (docs/architecture.md), decided in this one place from the
 * test process's marks and its wait status.  Marks are read in the order
 * that settles a case first: a valid "returned" mark makes a PASS whatever
 * happened after it.
 */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "outcome.h"

const char *const tb_outcome_names[] = {
	[TB_PASS] = "PASS", [TB_ABORT] = "ABORT", [TB_RESTART] = "RESTART",
	[TB_SETUP] = "SETUP", [TB_HARNESS] = "HARNESS",
};

static int damaged(uint64_t mark, uint64_t expected)
{
	return mark && mark != expected;
}

/* A call that computes without end is stopped by its CPU limit: SIGXCPU at
 * the soft limit, SIGKILL at the hard one.  Only a process that used its
 * allowance was stopped by the limit; a SIGXCPU it raised itself is an
 * ABORT like any other signal. */
static int cpu_watchdog_fired(const struct tb_observation *obs, int sig)
{
	/* rusage and the limit check sample CPU time differently (seen here:
	 * 973 ms to 1015 ms reported at a 1 s limit), so half the allowance
	 * is taken as proof enough */
	return (sig == SIGXCPU || sig == SIGKILL) && obs->cpu_us >= obs->cpu_limit_us / 2;
}

/* The signal the crash handler caught (crashsite.c) was the watchdog's:
 * SIGXCPU from the CPU limit, or sent at the wall-clock deadline. */
static int watchdog_signal(const struct tb_observation *obs, int sig)
{
	return sig == SIGXCPU && (obs->timed_out || cpu_watchdog_fired(obs, sig));
}

void tb_classify(const struct tb_observation *obs, struct tb_result *res)
{
	const struct tb_record *r = obs->record;
	uint64_t calling = tb_mark(r->nonce, TB_MARK_CALLING, 0, 0, 0);
	uint64_t setup = tb_setup_mark(r);
	uint64_t cleaned = tb_mark(r->nonce, TB_MARK_CLEANED, 0, 0, 0);
	int returned = r->returned_mark == tb_returned_mark(r);
	int dying = r->dying_mark && r->dying_mark == tb_dying_mark(r);
	int sig = WIFSIGNALED(obs->status) ? WTERMSIG(obs->status) : -1;

	res->signal = -1;
	res->exit_status = -1;
	res->setup_param = -1;
	res->setup_errno = 0;
	res->reason_len = 0;
	res->ret = 0;
	res->err = 0;
	res->error_reported = 0;
	res->cleanup_failed = 0;
	res->channel_damaged = damaged(r->calling_mark, calling) ||
			       damaged(r->setup_mark, setup) ||
			       (!returned && r->returned_mark) ||
			       damaged(r->cleaned_mark, cleaned) ||
			       (!dying && r->dying_mark) ||
			       (r->frames_mark && r->frames_mark != tb_frames_mark(r));

	if (returned) {
		/* PASS, whatever the cleanup did afterwards */
		res->outcome = TB_PASS;
		res->ret = r->call.ret;
		res->err = r->call.err;
		res->error_reported = r->call.error_reported;
		res->cleanup_failed = r->cleaned_mark != cleaned;
		res->signal = res->cleanup_failed ? sig : -1;
	} else if (r->calling_mark == calling) {
		if (dying && !watchdog_signal(obs, r->dying_signal)) {
			/* the crash handler saw the call die of this signal.
			 * The process then died of it too, unless the handler
			 * hung while unwinding (the crash held the loader's
			 * lock, say) until the watchdog killed it: the call
			 * still ended at the crash, an ABORT, not a RESTART */
			res->outcome = TB_ABORT;
			res->signal = r->dying_signal;
		} else if (obs->timed_out || cpu_watchdog_fired(obs, sig)) {
			res->outcome = TB_RESTART;
		} else if (sig >= 0) {
			res->outcome = TB_ABORT;
			res->signal = sig;
		} else {
			/* exit() or _exit() from inside the call */
			res->outcome = TB_ABORT;
			res->exit_status = WEXITSTATUS(obs->status);
		}
	} else if (r->setup_mark == setup) {
		res->outcome = TB_SETUP;
		res->setup_param = r->setup_param;
		res->setup_errno = r->setup_errno;
		res->reason_len = (uint32_t)strnlen(r->setup_reason, sizeof(r->setup_reason) - 1);
		memcpy(res->setup_reason, r->setup_reason, res->reason_len);
		res->setup_reason[res->reason_len] = 0;
	} else if (obs->timed_out || sig >= 0) {
		/* a value's setup crashed or hung: the value could not be built */
		res->outcome = TB_SETUP;
		res->setup_param = r->building;
		res->signal = sig;
	} else {
		/* ended before its call without a word: the sandbox failed */
		res->outcome = TB_HARNESS;
		res->exit_status = WIFEXITED(obs->status) ? WEXITSTATUS(obs->status) : -1;
	}
}
