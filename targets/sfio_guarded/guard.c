/*
 * The guard (guard.h): its handler, its way in and out, and the real SFIO
 * found in libgvpr.so.2 itself (dlopen + dlsym on its handle), so that the
 * wrappers, which carry the same names, are never found instead.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "guard.h"

#define SFIO_LIBRARY "libgvpr.so.2"
#define GUARD_STACK (64 * 1024)

struct sg_real sg_real;
int sg_depth;
sigjmp_buf sg_env;

static void handler(int sig, siginfo_t *info, void *uc)
{
	siglongjmp(sg_env, 1);
}

void sg_enter(struct sigaction saved[2])
{
	struct sigaction sa = { .sa_sigaction = handler, .sa_flags = SA_SIGINFO | SA_ONSTACK };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &saved[0]);
	sigaction(SIGBUS, &sa, &saved[1]);
	sg_depth = 1;
}

void sg_leave(const struct sigaction saved[2])
{
	sg_depth = 0;
	sigaction(SIGSEGV, &saved[0], NULL);
	sigaction(SIGBUS, &saved[1], NULL);
}

static void *lookup(void *sfio, const char *name)
{
	void *p = dlsym(sfio, name);

	if (!p) {
		fprintf(stderr, "sfio_guarded: %s has no %s\n", SFIO_LIBRARY, name);
		abort();
	}
	return p;
}

/* An alternate stack where the caller has none (a campaign's test process
 * has the harness's), so that SFIO overflowing its stack is caught too. */
static void alternate_stack(void)
{
	stack_t ss;

	if (sigaltstack(NULL, &ss) || !(ss.ss_flags & SS_DISABLE))
		return;
	ss = (stack_t){ .ss_sp = malloc(GUARD_STACK), .ss_size = GUARD_STACK };
	if (ss.ss_sp)
		sigaltstack(&ss, NULL);
}

__attribute__((constructor)) static void resolve_real_sfio(void)
{
	void *sfio = dlopen(SFIO_LIBRARY, RTLD_NOW | RTLD_LOCAL);

	if (!sfio) {
		fprintf(stderr, "sfio_guarded: %s\n", dlerror());
		abort();
	}
#define SG_RESOLVE(name) sg_real.name = (__typeof__(name) *)lookup(sfio, #name);
	SG_REAL_FUNCTIONS(SG_RESOLVE)
	alternate_stack();
}
