/*
 * The services of TR-96-20 (Banerji et al., "Quantitative Analysis of
 * Protection Options"), behind one calling convention that every protection
 * scheme forwards: a request names an operation, carries two numbers and a
 * block in and a block out, and comes back with one signed result (negative
 * is an error).  The services own no memory: their state is an arena the
 * caller hands in, so that a scheme can put it where it protects it (in a
 * server process, behind mprotect).  They import nothing, not even memset:
 * services.o has no undefined symbols, which the tests check, so the same
 * code runs in any domain.
 *
 * The Rust service (rust/src/lib.rs) mirrors this struct field for field.
 */
#ifndef PROTECTION_SERVICES_H
#define PROTECTION_SERVICES_H

#include <stdint.h>

enum svc_op {
	SVC_NULLC = 1,     /* touch every page of the block in place; result: pages touched */
	SVC_MD5,           /* hash in[]; FIRST initialises, LAST finishes: 16 bytes to out */
	SVC_NSIEVE,        /* FIRST: arg = limit L (flags for the odd numbers 3..L);
	                      then search arg2 candidates from index arg; result: primes found */
	SVC_TDBM_RESET,    /* an empty database for arg records */
	SVC_TDBM_INSERT,   /* key in[], value arg; result 0 new, 1 replaced */
	SVC_TDBM_FETCH,    /* key in[]; result the value, or SVC_ENOENT */
	SVC_TDBM_DELETE,   /* key in[]; result 0, or SVC_ENOENT */
	SVC_TDBM_SUM,      /* result the number of records; out: 8 bytes, the contents' checksum */
	SVC_FAULT,         /* a service with a bug: dereferences NULL (the Rust one indexes past its end) */
	SVC_OP_END
};

/* request flags */
#define SVC_FIRST 1u
#define SVC_LAST  2u
#define SVC_INOUT 4u       /* out is in (nullc): a scheme that copies must keep them one block */

/* errors: negative results */
#define SVC_EINVAL  (-22)  /* a bad argument, found by the checked entry */
#define SVC_ENOENT  (-2)
#define SVC_ENOSPC  (-28)  /* the state arena or the database is full */
#define SVC_EFAULT  (-14)  /* the service faulted; the guard or the boundary caught it */
#define SVC_ECRASH  (-32)  /* the server died and was restarted: its state is gone */

/* the longest tdbm key: a record is 64 bytes */
#define TDBM_KEY_MAX 51

struct svc_req {
	uint32_t op;
	uint32_t flags;
	uint64_t arg;
	uint64_t arg2;
	const uint8_t *in;
	uint64_t in_len;
	uint8_t *out;
	uint64_t out_len;   /* capacity on the way in, bytes written on the way out */
};

/* the plain service: trusts its arguments */
int64_t svc_call(void *state, uint64_t state_len, struct svc_req *r);
/* the same service validating every argument first (the study's "checks") */
int64_t svc_call_checked(void *state, uint64_t state_len, struct svc_req *r);
/* the arena a benchmark needs: op and its size parameter (nsieve: L; tdbm: records) */
uint64_t svc_state_size(uint32_t op, uint64_t size);

#endif
