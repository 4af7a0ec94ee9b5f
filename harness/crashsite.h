/*
 * Where a failing case ended, taken in the test process as it dies: a
 * handler for the signals that end a call (SIGSEGV, SIGBUS, SIGFPE, SIGILL,
 * SIGABRT, SIGTRAP, SIGSYS, and SIGXCPU, the watchdog's) on an alternate
 * signal stack, so that a stack overflow is caught too.  It leaves the
 * signal, the fault address, the stack pointer and depth and up to
 * TB_SITE_FRAMES frames (module + offset) in the case's record (record.h),
 * then dies of the same signal by its default action, so the outcome is
 * what it would have been without it.  The fork server reads the site back
 * (crashsite_reader.h).
 */
#ifndef TREBUCHET_CRASHSITE_H
#define TREBUCHET_CRASHSITE_H

#include "record.h"

/* Reads the executor's own path while it is still the one its user knows:
 * inside a chroot whose root the sandbox later binds onto itself, the file
 * was opened through the mount beneath, and /proc/self/exe then names it by
 * the path from the machine's real root, which the chroot cannot open. */
void tb_crashsite_locate_exe(void);

/* Once, in a fork server, before its first fork: its test processes
 * inherit the handlers and the alternate stack (a test process then pays
 * nothing for them until it dies).  A test process finds its own record
 * among records[0 .. n) by its pid (tb_record.pid).  0 or -1. */
int tb_crashsite_install(struct tb_record *records, int n);

#endif
