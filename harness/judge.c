/*
 * Guarded error-convention reading (judge.h).
 */
#include <setjmp.h>
#include <signal.h>

#include "judge.h"

static sigjmp_buf faulted;

static void on_fault(int sig)
{
	siglongjmp(faulted, 1);
}

int tb_judge(const struct tb_function *fn, const union tb_arg *args, const struct tb_call *call)
{
	struct sigaction guard = { .sa_handler = on_fault }, segv, bus;
	volatile int verdict = 0;

	sigemptyset(&guard.sa_mask);
	sigaction(SIGSEGV, &guard, &segv);
	sigaction(SIGBUS, &guard, &bus);
	if (!sigsetjmp(faulted, 1))
		verdict = fn->judge(args, call) != 0;
	sigaction(SIGSEGV, &segv, NULL);
	sigaction(SIGBUS, &bus, NULL);
	return verdict;
}
