/*
 * The crash handler (crashsite.h).  It runs in a process that has just
 * faulted, so it calls only what is async-signal-safe in practice: system
 * calls, the unwinder and dl_iterate_phdr, and its own loops for strings.
 *
 * Why each piece is as it is:
 *   - The alternate stack is static memory, there in every build whether
 *     crash sites are on or not: a mapping made for it would move every
 *     later mapping of the test processes, and with them the addresses
 *     values and calls see, between runs with and without.
 *   - The unwinder is libgcc's, linked statically into the executor
 *     (-static-libgcc, the Makefile) and not exported: libgcc_s would be
 *     loaded by the first backtrace, that is by a dying process's malloc and
 *     dlopen, and an unwinder exported from the executor would stand in for
 *     the one of a C++ library under test.  It finds a pc's unwind tables
 *     with glibc's _dl_find_object, which takes no lock and allocates
 *     nothing.  Its one-time set-up is done in the fork server (warm_up).
 *   - A second signal while the first is being recorded (a fault in the
 *     unwinder on a smashed stack, or the watchdog's SIGXCPU when the
 *     unwinding hangs) leaves by siglongjmp with the frames got so far:
 *     the handler is installed with SA_NODEFER, so that the second one
 *     reaches it instead of killing the process with a signal of its own.
 *   - A process forked inside the call shares nothing with the case: it
 *     finds no record with its pid, and dies as it would have.
 */
#include <limits.h>
#include <link.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <ucontext.h>
#include <unistd.h>
#include <unwind.h>

#include "channel.h"
#include "crashsite.h"

/* Room for the unwinder (a few KiB of frames), the loader's callback and a
 * second signal frame (with AVX-512 state, 3 KiB and more) on top. */
static char alt_stack[64 << 10] __attribute__((aligned(64)));

static const int caught[] = {
	SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS, SIGXCPU,
};

static struct tb_record *records;
static int nrecords;
/* The main program's path: dl_iterate_phdr names it "" */
static char exe_path[PATH_MAX];

/* The dying process's state: it only ever dies once. */
static struct tb_record *rec;
static int first_signal;
static volatile sig_atomic_t recording, escapable;
static sigjmp_buf escape;

/* The interrupted pc and stack pointer. */
static void context_regs(const ucontext_t *uc, uintptr_t *pc, uintptr_t *sp)
{
#if defined(__x86_64__)
	*pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
	*sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
	*pc = (uintptr_t)uc->uc_mcontext.pc;
	*sp = (uintptr_t)uc->uc_mcontext.sp;
#else
	*pc = *sp = 0;  /* no frames, no depth: the signal is still recorded */
#endif
}

static struct tb_record *own_record(void)
{
	pid_t self = getpid();
	int i;

	for (i = 0; i < nrecords; i++)
		if (records[i].pid == self)
			return &records[i];
	return NULL;
}

/* The default action of sig, as if no handler had been there. */
static void die(int sig)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t set;

	sigaction(sig, &dfl, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(127);  /* not reached: every caught signal's default action ends the process */
}

static void add_frame(uintptr_t pc)
{
	struct tb_frame *f = &rec->frames[rec->nframes];

	f->offset = pc;
	f->module = TB_NO_MODULE;
	f->unused = 0;
	rec->nframes++;
}

/* Frames of the handler and the signal trampoline come first and are
 * skipped: the interrupted frame is the one whose pc is exact (not a
 * return address, ip_before_insn) and is the context's; its callers
 * follow. */
struct walk {
	uintptr_t pc;
	int found;
};

static _Unwind_Reason_Code step(struct _Unwind_Context *ctx, void *arg)
{
	struct walk *w = arg;
	int exact = 0;
	uintptr_t ip = _Unwind_GetIPInfo(ctx, &exact);

	if (!w->found) {
		w->found = exact && ip == w->pc;
		return _URC_NO_REASON;
	}
	if (rec->nframes >= TB_SITE_FRAMES || !ip)
		return _URC_END_OF_STACK;
	add_frame(ip);
	return _URC_NO_REASON;
}

/* Whether pc lies in one of the module's code segments: a pc in its data
 * (a function pointer aimed at a table, or at the C library's malloc
 * arena) is a jump to no code, named as such (findings/signature.py),
 * not after the data symbol that happens to be there. */
static int in_module(const struct dl_phdr_info *info, uintptr_t pc)
{
	int i;

	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &info->dlpi_phdr[i];

		if (p->p_type == PT_LOAD && (p->p_flags & PF_X) &&
		    pc - (info->dlpi_addr + p->p_vaddr) < p->p_memsz)
			return 1;
	}
	return 0;
}

/* Copies name into the record's names; where it starts, or TB_NO_MODULE
 * when there is no room. */
static uint32_t add_name(const char *name)
{
	uint32_t at = rec->names_used, n = 0;

	while (name[n])
		n++;
	if (n + 1 > TB_SITE_NAMES - at)
		return TB_NO_MODULE;
	for (uint32_t i = 0; i <= n; i++)
		rec->names[at + i] = name[i];
	rec->names_used = at + n + 1;
	return at;
}

/* dl_iterate_phdr's callback: the frames in this module get its name
 * (copied once) and their offset from its load base. */
static int place(struct dl_phdr_info *info, size_t size, void *unused)
{
	const char *path = info->dlpi_name && info->dlpi_name[0] ? info->dlpi_name : exe_path;
	uint32_t name = TB_NO_MODULE, i;

	if (!path[0])
		return 0;  /* the executable's path could not be read: unknown */
	for (i = 0; i < rec->nframes; i++) {
		struct tb_frame *f = &rec->frames[i];

		if (f->module != TB_NO_MODULE || !in_module(info, (uintptr_t)f->offset))
			continue;
		if (name == TB_NO_MODULE && (name = add_name(path)) == TB_NO_MODULE)
			return 1;  /* no room for more names: the rest stay unknown */
		f->offset -= info->dlpi_addr;
		f->module = name;
	}
	return 0;
}

static void record_dying(int sig, const siginfo_t *si, uintptr_t sp)
{
	uintptr_t top = (uintptr_t)rec->stack_top;

	rec->dying_signal = sig;
	rec->dying_code = si->si_code;
	rec->fault_addr = tb_signal_has_address(sig) ? (uint64_t)(uintptr_t)si->si_addr : 0;
	rec->sp = sp;
	rec->stack_depth = top && sp <= top ? top - sp : TB_NO_DEPTH;
	tb_mark_store(&rec->dying_mark, tb_dying_mark(rec));
}

/* Each step may be cut short by a second signal: what it got is kept.
 * A pc in no module (a call through a NULL or wild function pointer) has
 * no unwind tables, so the unwinder stops at it; the call that jumped
 * there left its return address on top of the stack, and that frame, the
 * function that made the call, names the defect (findings/signature.py). */
static void record_frames(uintptr_t pc, uintptr_t sp)
{
	static struct walk walk;

	rec->nframes = 0;
	rec->names_used = 0;
	add_frame(pc);  /* frame 0: the exact pc, whatever the unwinder makes of it */
	walk.pc = pc;
	walk.found = 0;
	if (!sigsetjmp(escape, 0)) {
		escapable = 1;
		_Unwind_Backtrace(step, &walk);
	}
	if (!sigsetjmp(escape, 0)) {
		escapable = 1;
		dl_iterate_phdr(place, NULL);
	}
#if defined(__x86_64__)
	if (rec->nframes == 1 && rec->frames[0].module == TB_NO_MODULE && sp &&
	    !sigsetjmp(escape, 0)) {
		escapable = 1;  /* sp may point nowhere: a fault here keeps frame 0 alone */
		add_frame(*(const uintptr_t *)sp);
		dl_iterate_phdr(place, NULL);
	}
#endif
	escapable = 0;
	tb_mark_store(&rec->frames_mark, tb_frames_mark(rec));
}

static void on_fatal(int sig, siginfo_t *si, void *context)
{
	if (recording) {
		/* a second signal while the first is recorded */
		if (escapable)
			siglongjmp(escape, 1);
		die(first_signal);
	}
	recording = 1;
	first_signal = sig;
	tb_channel_unseal();  /* sealed during the call (channel.h) */
	rec = own_record();
	if (rec) {
		uintptr_t pc, sp;

		context_regs(context, &pc, &sp);
		record_dying(sig, si, sp);
		record_frames(pc, sp);
	}
	die(first_signal);
}

static _Unwind_Reason_Code no_step(struct _Unwind_Context *ctx, void *arg)
{
	return _URC_NO_REASON;
}

/* The unwinder's one-time set-up (its register table, behind a
 * pthread_once) done here, once, rather than in a dying process. */
static void warm_up(void)
{
	_Unwind_Backtrace(no_step, NULL);
}

void tb_crashsite_locate_exe(void)
{
	ssize_t len = readlink("/proc/self/exe", exe_path, sizeof(exe_path) - 1);

	exe_path[len > 0 ? len : 0] = '\0';
}

int tb_crashsite_install(struct tb_record *recs, int n)
{
	stack_t ss = { .ss_sp = alt_stack, .ss_size = sizeof(alt_stack) };
	struct sigaction sa = {
		.sa_sigaction = on_fatal,
		.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER,
	};
	size_t i;

	records = recs;
	nrecords = n;
	if (!exe_path[0])
		tb_crashsite_locate_exe();
	/* an empty mask: a fault while recording must reach the handler
	 * (a blocked synchronous signal kills the process at once, by itself) */
	sigemptyset(&sa.sa_mask);
	if (sigaltstack(&ss, NULL))
		return -1;
	for (i = 0; i < sizeof(caught) / sizeof(caught[0]); i++)
		if (sigaction(caught[i], &sa, NULL))
			return -1;
	warm_up();
	return 0;
}
