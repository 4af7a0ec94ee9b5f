/*
 * The test process: its sandbox and the one straight path from fork to
 * _exit that builds the values, calls the function and leaves its marks.
 */
#ifndef TREBUCHET_TESTPROCESS_H
#define TREBUCHET_TESTPROCESS_H

#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "isolation.h"
#include "record.h"
#include "target.h"

/* Exit status of a test process whose sandbox could not be set up. */
#define TB_EXIT_SANDBOX 121

struct tb_sandbox {
	int devnull_fd;         /* opened once by the executor */
	int drop_privileges;    /* running as root: become uid/gid below */
	uid_t uid;
	gid_t gid;
	rlim_t address_space;   /* bytes; 0: no limit (a sanitizer's run) */
	rlim_t file_size;       /* bytes */
	rlim_t cpu_seconds;     /* CPU time a call may use: its watchdog when it computes */
	rlim_t processes;       /* only applied when privileges are dropped or
				 * in a user namespace: else it would count
				 * the user's own processes too */
	enum tb_isolation isolation;  /* the namespaces (isolation.h) */
};

/* The part of the sandbox every test process shares, applied once to the
 * fork server itself so that its children inherit it: limits on core
 * dumps, address space, file size (writes past it fail with EFBIG) and
 * processes, /dev/null on descriptors 0 to 2 (a case's 2 then becomes its
 * slot's memory file), and (when dropping privileges) no supplementary
 * groups and the unprivileged group.  0 or -1. */
int tb_sandbox_inherited(const struct tb_sandbox *sb);

/* Runs one case in the current (freshly forked) process.  Never returns.
 * The working directory must be the run's scratch root, and dir the name of
 * the (empty) slot directory in it where the case works.  stderr_fd, when
 * not -1, becomes the case's descriptor 2 (else it stays on /dev/null).
 * cpu_seconds: its CPU limit (sb's, or more on a second look). */
void tb_case_run(const struct tb_sandbox *sb, const struct tb_planned_function *pf,
		 uint64_t case_index, struct tb_record *rec, const char *dir, int stderr_fd,
		 rlim_t cpu_seconds)
	__attribute__((noreturn));

#endif
