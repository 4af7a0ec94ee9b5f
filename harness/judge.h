/*
 * Reading an error convention that looks past the return value: an
 * out-parameter, the handle's own error state, the stream's end-of-file flag
 * (tb_function.judge).  It runs in the test process after the call
 * returned; the arguments may be wild pointers, so a fault while reading
 * them means "no error could be read" instead of a crash of the call.
 */
#ifndef TREBUCHET_JUDGE_H
#define TREBUCHET_JUDGE_H

#include "plugin.h"

/* fn->judge(args, call) guarded against SIGSEGV and SIGBUS: its answer, or 0
 * when it faulted.  The default signal actions are back on return. */
int tb_judge(const struct tb_function *fn, const union tb_arg *args, const struct tb_call *call);

#endif
