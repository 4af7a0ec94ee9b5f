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

#include <stdint.h>

#include "plugin.h"

struct tb_record {
	uint64_t nonce;           /* set by the fork server before each fork */
	int32_t building;         /* parameter being set up (unchecked, a hint) */
	int32_t setup_param;      /* covered by setup_mark */
	uint64_t setup_mark;      /* a value could not be built */
	uint64_t calling_mark;    /* about to call the function */
	struct tb_call call;      /* written by the shim */
	uint64_t returned_mark;   /* the call returned; covers .call */
	uint64_t cleaned_mark;    /* cleanups ran to the end */
};

enum tb_mark_kind { TB_MARK_SETUP = 1, TB_MARK_CALLING, TB_MARK_RETURNED, TB_MARK_CLEANED };

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

#endif
