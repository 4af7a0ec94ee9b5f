/*
 * The test process (testprocess.h).  Everything before the call confines the
 * process; everything after it only records.  Marks are stored with release
 * ordering so that they are never visible before what they cover (record.h).
 */
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "judge.h"
#include "channel.h"
#include "testprocess.h"
#include "world.h"

static int limit(int resource, rlim_t value)
{
	struct rlimit rl = { value, value };

	return setrlimit(resource, &rl);
}

/* The CPU limit is a soft one: SIGXCPU when it is reached, which the fork
 * server reads as the watchdog firing; SIGKILL one second later, for a
 * process that ignores SIGXCPU. */
static int cpu_limit(rlim_t seconds)
{
	struct rlimit rl = { seconds, seconds + 1 };

	return setrlimit(RLIMIT_CPU, &rl);
}

int tb_sandbox_inherited(const struct tb_sandbox *sb)
{
	tb_world_server();
	/* address_space 0: none, under a sanitizer (world.c) */
	if (limit(RLIMIT_CORE, 0) || (sb->address_space && limit(RLIMIT_AS, sb->address_space)) ||
	    limit(RLIMIT_FSIZE, sb->file_size))
		return -1;
	/* The file-size limit is the harness's, not the program's: a write
	 * past it fails with EFBIG, as on a full disk, instead of killing the
	 * process with SIGXFSZ, which would count as an ABORT no program sees. */
	if (signal(SIGXFSZ, SIG_IGN) == SIG_ERR)
		return -1;
	if (dup2(sb->devnull_fd, 0) < 0 || dup2(sb->devnull_fd, 1) < 0 ||
	    dup2(sb->devnull_fd, 2) < 0)
		return -1;
	/* the process limit counts per user: nobody's processes, or the
	 * user's inside its user namespace */
	if ((sb->drop_privileges || sb->isolation == TB_ISOLATION_USER) &&
	    limit(RLIMIT_NPROC, sb->processes))
		return -1;
	/* the server stays root (uid): only its children become nobody */
	if (sb->drop_privileges && (setgroups(0, NULL) || setgid(sb->gid)))
		return -1;
	return 0;
}

/* The rest of the sandbox, per test process: what cannot be inherited (a
 * process group of its own, in the server's session that has no
 * controlling terminal; a CPU clock of its own; the server's descriptors
 * closed, the unprivileged user, since the server must stay able to kill). */
static int enter_sandbox(const struct tb_sandbox *sb, const char *dir, int stderr_fd,
			 rlim_t cpu_seconds)
{
	sigset_t none;

	sigemptyset(&none);
	/* descriptor 2 on the slot's memory file, so that a failing case's
	 * last words can be read back (forkserver.c) */
	if (stderr_fd >= 0 && dup2(stderr_fd, 2) < 0)
		return -1;
	if (setpgid(0, 0) || sigprocmask(SIG_SETMASK, &none, NULL) ||
	    prctl(PR_SET_PDEATHSIG, SIGKILL) || cpu_limit(cpu_seconds) ||
	    close_range(3, ~0U, 0))
		return -1;
	if (sb->drop_privileges && setuid(sb->uid))
		return -1;
	return chdir(dir);
}

void tb_case_run(const struct tb_sandbox *sb, const struct tb_planned_function *pf,
		 uint64_t case_index, struct tb_record *rec, const char *dir, int stderr_fd,
		 rlim_t cpu_seconds)
{
	union tb_arg args[TB_MAX_PARAMS];
	const struct tb_value *values[TB_MAX_PARAMS];
	int index[TB_MAX_PARAMS];
	struct tb_call call = { 0 };
	pid_t self;
	int i;

	if (enter_sandbox(sb, dir, stderr_fd, cpu_seconds))
		_exit(TB_EXIT_SANDBOX);
	self = getpid();
	/* what the crash handler needs (crashsite.c), in the shared record:
	 * a write to the process's own memory would cost it a copy-on-write
	 * fault per case */
	rec->pid = self;
	tb_case_decode(case_index, pf->counts, pf->nparams, index);
	for (i = 0; i < pf->nparams; i++) {
		values[i] = pf->lists[i]->values[index[i]];
		rec->building = i;
		if (tb_value_build(values[i], &args[i])) {
			rec->setup_param = i;
			snprintf(rec->setup_reason, sizeof(rec->setup_reason), "%s",
				 tb_setup_reason(&rec->setup_errno));
			tb_mark_store(&rec->setup_mark, tb_setup_mark(rec));
			_exit(0);
		}
	}

	rec->stack_top = (uint64_t)(uintptr_t)__builtin_frame_address(0);
	tb_mark_store(&rec->calling_mark, tb_mark(rec->nonce, TB_MARK_CALLING, 0, 0, 0));
	tb_channel_seal();
	pf->fn->call(args, &call);
	tb_channel_unseal();
	/* a copy made by fork() inside the call returns here too: it must not
	 * speak for the case */
	if (getpid() != self)
		_exit(0);
	if (pf->fn->judge)
		call.error_reported = tb_judge(pf->fn, args, &call);
	rec->call = call;
	tb_mark_store(&rec->returned_mark, tb_returned_mark(rec));

	for (i = 0; i < pf->nparams; i++)
		if (values[i]->cleanup)
			values[i]->cleanup(&args[i]);
	tb_mark_store(&rec->cleaned_mark, tb_mark(rec->nonce, TB_MARK_CLEANED, 0, 0, 0));
	_exit(0);
}
