/*
 * The schemes that keep the service in the caller's process, and the table
 * of all schemes.  Each maps to one of TR-96-20's options (README.md):
 * none is its baseline; checks is the study's own way (Robust SFIO's);
 * the guarded call is the setjmp note's guard; the page-protection switch
 * stands in for protected shared libraries; kernel-floor is the least a
 * service in the kernel could cost (one system call's round trip), since no
 * kernel code can be loaded here; rust is the safe language (Modula-3 in
 * the paper); wasm-copy and wasm-shared are software fault isolation, the
 * services compiled to WebAssembly and back to C (sfi_host.c).  The process
 * boundary is in scheme_process.c.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "schemes.h"

static uint64_t page_round(uint64_t n)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);

	return (n + page - 1) / page * page;
}

/* ---- none, checks, kernel-floor ---- */

static int64_t none_call(struct scheme_ctx *ctx, struct svc_req *r)
{
	return svc_call(ctx->state, ctx->state_len, r);
}

static int64_t checks_call(struct scheme_ctx *ctx, struct svc_req *r)
{
	return svc_call_checked(ctx->state, ctx->state_len, r);
}

/* A service in the kernel costs at least a trap in and a return; getppid
 * does nothing else (getpid may be answered without entering the kernel on
 * some C libraries, so it is not used).  The copy of data into the kernel is
 * not counted: this is a floor, not a kernel service. */
static int64_t kernel_floor_call(struct scheme_ctx *ctx, struct svc_req *r)
{
	syscall(SYS_getppid);
	return svc_call(ctx->state, ctx->state_len, r);
}

/* ---- the guarded call ---- */

static sigjmp_buf guard_env;
static volatile sig_atomic_t guard_armed;
static struct sigaction guard_saved[2];
static stack_t guard_saved_stack;
static void *guard_stack;

static void guard_handler(int sig, siginfo_t *info, void *uc)
{
	if (guard_armed)
		siglongjmp(guard_env, 1);
	/* not ours: the default action, as if no guard were there */
	signal(sig, SIG_DFL);
	raise(sig);
}

static void guard_install(struct sigaction saved[2])
{
	struct sigaction sa = { .sa_sigaction = guard_handler, .sa_flags = SA_SIGINFO | SA_ONSTACK };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &saved[0]);
	sigaction(SIGBUS, &sa, &saved[1]);
}

static void guard_restore(const struct sigaction saved[2])
{
	sigaction(SIGSEGV, &saved[0], NULL);
	sigaction(SIGBUS, &saved[1], NULL);
}

/* an alternate stack, so that a service that overflows its stack is caught too */
static int guard_open(struct scheme_ctx *ctx)
{
	stack_t ss = { .ss_size = 64 * 1024 };

	guard_stack = malloc(ss.ss_size);
	if (!guard_stack)
		return -1;
	ss.ss_sp = guard_stack;
	return sigaltstack(&ss, &guard_saved_stack);
}

static void guard_close(struct scheme_ctx *ctx)
{
	sigaltstack(&guard_saved_stack, NULL);
	free(guard_stack);
	guard_stack = NULL;
}

/*
 * The handler is installed around the call and the one before it put back
 * after, so that a fault outside the call still reaches whoever handled it
 * (trebuchet's crash-site handler, in a campaign).  Without the signal mask
 * saved, a fault leaves SIGSEGV or SIGBUS blocked (the kernel blocks it while
 * the handler runs, and siglongjmp does not undo that): the fault path
 * unblocks them, so the cost stays on the path that faulted.
 */
static int64_t guard_call(struct scheme_ctx *ctx, struct svc_req *r, int savemask, int install)
{
	struct sigaction saved[2];
	volatile int64_t result;

	if (install)
		guard_install(saved);
	if (sigsetjmp(guard_env, savemask)) {
		result = SVC_EFAULT;
		if (!savemask) {
			sigset_t faults;

			sigemptyset(&faults);
			sigaddset(&faults, SIGSEGV);
			sigaddset(&faults, SIGBUS);
			sigprocmask(SIG_UNBLOCK, &faults, NULL);
		}
	} else {
		guard_armed = 1;
		result = svc_call(ctx->state, ctx->state_len, r);
	}
	guard_armed = 0;
	if (install)
		guard_restore(saved);
	return result;
}

static int64_t guard_mask_call(struct scheme_ctx *ctx, struct svc_req *r)
{
	return guard_call(ctx, r, 1, 1);
}

static int64_t guard_nomask_call(struct scheme_ctx *ctx, struct svc_req *r)
{
	return guard_call(ctx, r, 0, 1);
}

/* the guard's floor: the handler installed once for the whole benchmark */
static int guard_once_open(struct scheme_ctx *ctx)
{
	if (guard_open(ctx) != 0)
		return -1;
	guard_install(guard_saved);
	return 0;
}

static int64_t guard_once_call(struct scheme_ctx *ctx, struct svc_req *r)
{
	return guard_call(ctx, r, 0, 0);
}

static void guard_once_close(struct scheme_ctx *ctx)
{
	guard_restore(guard_saved);
	guard_close(ctx);
}

/* ---- the page-protection switch ---- */

static int pageprot_open(struct scheme_ctx *ctx)
{
	return mprotect(ctx->state, ctx->state_len, PROT_NONE);
}

static int64_t pageprot_call(struct scheme_ctx *ctx, struct svc_req *r)
{
	int64_t result;

	if (mprotect(ctx->state, ctx->state_len, PROT_READ | PROT_WRITE) != 0)
		return SVC_EFAULT;
	result = svc_call(ctx->state, ctx->state_len, r);
	mprotect(ctx->state, ctx->state_len, PROT_NONE);
	return result;
}

/* memory protection keys: the same switch without a system call, where the CPU has them */
static const char *pkey_unavailable(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[4096];
	int pku = 0;

	if (!f)
		return "no /proc/cpuinfo";
	while (!pku && fgets(line, sizeof line, f))
		pku = strncmp(line, "flags", 5) == 0 && (strstr(line, " pku ") || strstr(line, " pku\n"));
	fclose(f);
	return pku ? NULL : "the CPU has no memory protection keys (no pku in /proc/cpuinfo)";
}

static int pkey_open(struct scheme_ctx *ctx)
{
	ctx->pkey = pkey_alloc(0, 0);
	if (ctx->pkey < 0)
		return -1;
	if (pkey_mprotect(ctx->state, ctx->state_len, PROT_READ | PROT_WRITE, ctx->pkey) != 0)
		return -1;
	return pkey_set(ctx->pkey, PKEY_DISABLE_ACCESS);
}

static int64_t pkey_call(struct scheme_ctx *ctx, struct svc_req *r)
{
	int64_t result;

	pkey_set(ctx->pkey, 0);
	result = svc_call(ctx->state, ctx->state_len, r);
	pkey_set(ctx->pkey, PKEY_DISABLE_ACCESS);
	return result;
}

static void pkey_close(struct scheme_ctx *ctx)
{
	pkey_set(ctx->pkey, 0);
	pkey_free(ctx->pkey);
}

/* ---- libraries loaded from beside this program, so that it builds without their toolchains ---- */

struct symbol {
	const char *name;
	void **slot;        /* a function pointer, filled from the library */
};

/* NULL when library, beside this program, has every symbol (each slot
 * then filled); else why not, in why */
static const char *load_beside(const char *library, const char *builder, const struct symbol *symbols,
			       char *why, size_t why_len)
{
	char path[PATH_MAX], *slash;
	ssize_t n;
	void *lib;

	n = readlink("/proc/self/exe", path, sizeof path - strlen(library) - 1);
	if (n < 0)
		return "cannot find this program's folder";
	path[n] = '\0';
	slash = strrchr(path, '/');
	strcpy(slash + 1, library);
	lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		snprintf(why, why_len, "%s not built (%s)", path, builder);
		return why;
	}
	for (const struct symbol *s = symbols; s->name; s++)
		if (!(*s->slot = dlsym(lib, s->name))) {
			snprintf(why, why_len, "%s lacks %s", path, s->name);
			return why;
		}
	return NULL;
}

/* ---- the safe language: the Rust service ---- */

static void *(*rs_open)(uint64_t state_len);
static int64_t (*rs_call)(void *state, struct svc_req *r);
static void (*rs_close)(void *state);
static char rs_why[PATH_MAX + 96];

static const char *rust_unavailable(void)
{
	static const struct symbol symbols[] = {
		{ "rs_svc_open", (void **)&rs_open }, { "rs_svc_call", (void **)&rs_call },
		{ "rs_svc_close", (void **)&rs_close }, { NULL, NULL },
	};

	return load_beside("libprotection_rs.so", "make bench-protection builds it where cargo is", symbols,
			   rs_why, sizeof rs_why);
}

static int rust_open(struct scheme_ctx *ctx)
{
	ctx->rs_state = rs_open(ctx->state_len);
	return ctx->rs_state ? 0 : -1;
}

static int64_t rust_call(struct scheme_ctx *ctx, struct svc_req *r)
{
	return rs_call(ctx->rs_state, r);
}

static void rust_close(struct scheme_ctx *ctx)
{
	rs_close(ctx->rs_state);
}

/* ---- software fault isolation: the services in WebAssembly, back to C (sfi_host.c) ---- */

static void *(*sfi_open)(uint64_t state_len, uint64_t client_len, uint8_t **client);
static int64_t (*sfi_call_copy)(void *sandbox, struct svc_req *r);
static int64_t (*sfi_call_shared)(void *sandbox, struct svc_req *r);
static void (*sfi_close)(void *sandbox);
static char sfi_why[PATH_MAX + 96];

static const char *wasm_unavailable(void)
{
	static const struct symbol symbols[] = {
		{ "sfi_open", (void **)&sfi_open }, { "sfi_call_copy", (void **)&sfi_call_copy },
		{ "sfi_call_shared", (void **)&sfi_call_shared }, { "sfi_close", (void **)&sfi_close },
		{ NULL, NULL },
	};

	return load_beside("libprotection_wasm.so", "make bench-protection builds it with clang, lld and wabt",
			   symbols, sfi_why, sizeof sfi_why);
}

static int wasm_copy_open(struct scheme_ctx *ctx)
{
	uint8_t *region;

	ctx->sandbox = sfi_open(ctx->state_len, ctx->client_len, &region);
	return ctx->sandbox ? 0 : -1;
}

static int64_t wasm_copy_call(struct scheme_ctx *ctx, struct svc_req *r)
{
	return sfi_call_copy(ctx->sandbox, r);
}

/* shared: the caller's buffers become the sandbox's client region, its own kept for scheme_close */
static int wasm_shared_open(struct scheme_ctx *ctx)
{
	uint8_t *region;

	ctx->sandbox = sfi_open(ctx->state_len, ctx->client_len, &region);
	if (!ctx->sandbox)
		return -1;
	ctx->client_kept = ctx->client;
	ctx->client = region;
	return 0;
}

static int64_t wasm_shared_call(struct scheme_ctx *ctx, struct svc_req *r)
{
	return sfi_call_shared(ctx->sandbox, r);
}

static void wasm_close(struct scheme_ctx *ctx)
{
	if (ctx->client_kept)
		ctx->client = ctx->client_kept;
	sfi_close(ctx->sandbox);
}

const struct scheme schemes[] = {
	{ .name = "none", .desc = "a plain call", .call = none_call },
	{ .name = "checks", .desc = "the service validates its arguments", .call = checks_call },
	{ .name = "guard-mask", .desc = "SIGSEGV/SIGBUS handler installed around the call, sigsetjmp saving the signal mask",
	  .open = guard_open, .call = guard_mask_call, .close = guard_close },
	{ .name = "guard-nomask", .desc = "the same, sigsetjmp not saving the mask",
	  .open = guard_open, .call = guard_nomask_call, .close = guard_close },
	{ .name = "guard-once", .desc = "the guard's floor: handler installed once, sigsetjmp without the mask per call",
	  .open = guard_once_open, .call = guard_once_call, .close = guard_once_close },
	{ .name = "process-copy", .desc = "a server process, one request and reply over a socketpair, data copied",
	  .open = process_copy_open, .call = process_copy_call, .close = process_close },
	{ .name = "process-shm", .desc = "a server process, requests in shared memory with a futex, data shared",
	  .open = process_shm_open, .call = process_shm_call, .close = process_close },
	{ .name = "pageprot", .desc = "the service's memory inaccessible but during a call (mprotect in and out)",
	  .open = pageprot_open, .call = pageprot_call },
	{ .name = "pkey", .desc = "the service's memory behind a protection key (pkey_set in and out)",
	  .unavailable = pkey_unavailable, .open = pkey_open, .call = pkey_call, .close = pkey_close },
	{ .name = "kernel-floor", .desc = "a plain call plus one system call's round trip (getppid): a kernel service's floor",
	  .call = kernel_floor_call },
	{ .name = "rust", .desc = "the service in safe Rust through its C ABI, bounds and overflow checks on",
	  .unavailable = rust_unavailable, .open = rust_open, .call = rust_call, .close = rust_close },
	{ .name = "wasm-copy", .desc = "the service in WebAssembly through wasm2c, bounds-checked, data copied into its memory",
	  .unavailable = wasm_unavailable, .open = wasm_copy_open, .call = wasm_copy_call, .close = wasm_close },
	{ .name = "wasm-shared", .desc = "the same, the caller's buffers inside the sandbox's memory, data shared",
	  .unavailable = wasm_unavailable, .open = wasm_shared_open, .call = wasm_shared_call, .close = wasm_close },
	{ .name = NULL },
};

const struct scheme *scheme_find(const char *name)
{
	for (const struct scheme *s = schemes; s->name; s++)
		if (strcmp(s->name, name) == 0)
			return s;
	return NULL;
}

/*
 * The caller's buffers are a shared mapping for every scheme, not only for
 * the one that shares them with a server, so that every scheme's client
 * touches the same kind of memory (but wasm-shared's, which open points at
 * the sandbox's linear memory).  The service's arena is private to whoever
 * runs the service; a server maps its own (scheme_process.c).
 */
struct scheme_ctx *scheme_open(const struct scheme *s, uint64_t state_len, uint64_t client_len,
			       enum placement place, const int cpu[2])
{
	struct scheme_ctx *ctx = calloc(1, sizeof *ctx);

	if (!ctx)
		return NULL;
	ctx->scheme = s;
	ctx->state_len = page_round(state_len);
	ctx->client_len = page_round(client_len);
	ctx->place = place;
	ctx->cpu[0] = cpu[0];
	ctx->cpu[1] = cpu[1];
	ctx->server = -1;
	ctx->sock = -1;
	ctx->pkey = -1;
	ctx->client = mmap(NULL, ctx->client_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ctx->client == MAP_FAILED)
		goto fail;
	if (s->open != process_copy_open && s->open != process_shm_open) {
		ctx->state = mmap(NULL, ctx->state_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (ctx->state == MAP_FAILED)
			goto fail_client;
	}
	if (s->open && s->open(ctx) != 0)
		goto fail_state;
	return ctx;
fail_state:
	if (ctx->state)
		munmap(ctx->state, ctx->state_len);
fail_client:
	munmap(ctx->client, ctx->client_len);
fail:
	free(ctx);
	return NULL;
}

void scheme_close(struct scheme_ctx *ctx)
{
	if (ctx->scheme->close)
		ctx->scheme->close(ctx);
	if (ctx->state)
		munmap(ctx->state, ctx->state_len);
	munmap(ctx->client, ctx->client_len);
	free(ctx);
}
