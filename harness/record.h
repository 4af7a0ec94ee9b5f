/*
 * The result channel: one shared-memory record per executor slot, mapped
 * before the fork server starts and so inherited by every test process.
 * Shared memory needs no descriptor, so a function that closes or writes to
 * every descriptor cannot cut or flood it; and each mark is a keyed checksum
 * over a per-case nonce, so a wild write into the record is seen as damage
 * instead of being read as a result.
 */
#ifndef TREBUCHET_RECORD_H
#define TREBUCHET_RECORD_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "plugin.h"

/* Where a failing case ended, as the test process's handler leaves it
 * (crashsite.c): up to TB_SITE_FRAMES frames, each an offset into a module
 * whose path is copied once into names. */
#define TB_SITE_FRAMES 16
#define TB_SITE_NAMES 2048
#define TB_NO_MODULE UINT32_MAX   /* a frame in no module: offset is the pc */
#define TB_NO_DEPTH UINT64_MAX    /* sp was not on the call's stack */

struct tb_frame {
	uint64_t offset;          /* from the module's load base */
	uint32_t module;          /* where its path starts in names, or TB_NO_MODULE */
	uint32_t unused;
};

struct tb_record {
	uint64_t nonce;           /* set by the fork server before each fork */
	int32_t building;         /* parameter being set up (unchecked, a hint) */
	int32_t setup_param;      /* covered by setup_mark, as are the next two */
	int32_t setup_errno;      /* errno when the value's setup failed */
	char setup_reason[TB_SETUP_REASON];  /* why, in its setup's words, or "" */
	uint64_t setup_mark;      /* a value could not be built */
	uint64_t calling_mark;    /* about to call the function */
	struct tb_call call;      /* written by the shim */
	uint64_t returned_mark;   /* the call returned; covers .call */
	uint64_t cleaned_mark;    /* cleanups ran to the end */
	/* the crash site (crashsite.c), when the process died by a signal it
	 * could catch */
	int32_t pid;              /* the test process (unchecked): how its handler finds this record */
	uint64_t stack_top;       /* its stack pointer before the call (unchecked, a hint) */
	int32_t dying_signal;     /* covered by dying_mark, as are the next four */
	int32_t dying_code;       /* si_code */
	uint64_t fault_addr;      /* si_addr where the signal has one, else 0 */
	uint64_t sp;              /* the stack pointer at the fault */
	uint64_t stack_depth;     /* stack_top - sp, or TB_NO_DEPTH */
	uint64_t dying_mark;      /* the handler caught a signal */
	uint32_t nframes;         /* covered by frames_mark, as are frames and names_used */
	uint32_t names_used;
	uint64_t frames_mark;     /* the frames are written */
	/* not cleared between cases (launch() clears up to here): read only
	 * under a valid frames_mark, which covers what is read */
	struct tb_frame frames[TB_SITE_FRAMES];
	char names[TB_SITE_NAMES];
};

/* the setup mark reads the reason a word at a time */
_Static_assert(TB_SETUP_REASON % sizeof(uint64_t) == 0, "TB_SETUP_REASON in whole words");

/* What launch() clears before each case: the frames and names are
 * overwritten by a handler before its mark makes them count. */
#define TB_RECORD_CLEARED offsetof(struct tb_record, frames)

enum tb_mark_kind {
	TB_MARK_SETUP = 1, TB_MARK_CALLING, TB_MARK_RETURNED, TB_MARK_CLEANED,
	TB_MARK_DYING, TB_MARK_FRAMES,
};

/* Stores a mark after what it covers (release), so that a reader that
 * sees the mark sees what it covers. */
static inline void tb_mark_store(uint64_t *where, uint64_t value)
{
	__atomic_store_n(where, value, __ATOMIC_RELEASE);
}

/* The mark of kind over the nonce and up to three payload words. */
static inline uint64_t tb_mark(uint64_t nonce, enum tb_mark_kind kind,
			       uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t words[4] = { (uint64_t)kind, a, b, c };
	uint64_t h = nonce ^ 0x9e3779b97f4a7c15ull;
	int i;

	for (i = 0; i < 4; i++) {
		h ^= words[i];
		h *= 0xbf58476d1ce4e5b9ull;
		h ^= h >> 31;
	}
	return h ? h : 1;  /* never 0, which means "not written" */
}

static inline uint64_t tb_returned_mark(const struct tb_record *r)
{
	return tb_mark(r->nonce, TB_MARK_RETURNED, (uint64_t)r->call.ret,
		       (uint64_t)(uint32_t)r->call.err, (uint64_t)r->call.error_reported);
}

/* Over the parameter, errno and every byte of the reason (8 at a time). */
static inline uint64_t tb_setup_mark(const struct tb_record *r)
{
	uint64_t fold = 0, word;
	size_t i;

	for (i = 0; i < sizeof(r->setup_reason); i += sizeof(word)) {
		memcpy(&word, r->setup_reason + i, sizeof(word));
		fold = tb_mark(fold, TB_MARK_SETUP, word, i, 0);
	}
	return tb_mark(r->nonce, TB_MARK_SETUP, (uint64_t)r->setup_param,
		       (uint64_t)(uint32_t)r->setup_errno, fold);
}

/* The signals whose si_addr is an address (the faulting access or
 * instruction); for the others it holds the sender's pid and uid. */
static inline int tb_signal_has_address(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL ||
	       sig == SIGTRAP;
}

/* Five words: the mark over the first three, marked again with the depth. */
static inline uint64_t tb_dying_mark(const struct tb_record *r)
{
	uint64_t first = tb_mark(r->nonce, TB_MARK_DYING,
				 (uint64_t)(uint32_t)r->dying_signal << 32 | (uint32_t)r->dying_code,
				 r->fault_addr, r->sp);

	return tb_mark(first, TB_MARK_DYING, r->stack_depth, 0, 0);
}

/* Over the frame count, the names' length and every frame's words. */
static inline uint64_t tb_frames_mark(const struct tb_record *r)
{
	uint64_t fold = 0;
	uint32_t i;

	for (i = 0; i < r->nframes && i < TB_SITE_FRAMES; i++)
		fold = tb_mark(fold, TB_MARK_FRAMES, r->frames[i].offset, r->frames[i].module, i);
	return tb_mark(r->nonce, TB_MARK_FRAMES, r->nframes, r->names_used, fold);
}

#endif
