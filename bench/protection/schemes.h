/*
 * A scheme is one way to call the services (services.h) and keep their
 * failures, or their memory, from the caller: TR-96-20's protection options
 * as this machine can build them.  The driver opens a scheme for one
 * benchmark instance, places the data it passes in the scheme's client
 * buffer (shared memory where the scheme shares data with a server), calls,
 * and closes it.
 */
#ifndef PROTECTION_SCHEMES_H
#define PROTECTION_SCHEMES_H

#include <stdint.h>
#include <sys/types.h>

#include "services.h"

/* where a server process runs against its client */
enum placement {
	PLACE_ANY,     /* wherever the scheduler puts them */
	PLACE_SAME,    /* client and server pinned to one CPU */
	PLACE_SPLIT,   /* client on one CPU, server on another */
};

struct shm_ctl;

struct scheme_ctx {
	const struct scheme *scheme;
	uint64_t state_len;       /* the service's arena */
	void *state;              /* in this process, or NULL where a server holds it */
	uint8_t *client;          /* the caller's buffers: requests point into them */
	uint64_t client_len;
	enum placement place;
	int cpu[2];               /* client's and server's CPU where pinned */
	/* a server process */
	pid_t server;
	int sock;
	uint8_t *server_buf;      /* in the server: its copy of a request's data */
	struct shm_ctl *ctl;
	/* memory protection keys */
	int pkey;
	/* the Rust service */
	void *rs_state;
	/* software fault isolation: the sandbox, and the caller's own buffers while it uses the sandbox's */
	void *sandbox;
	uint8_t *client_kept;
};

struct scheme {
	const char *name;
	const char *desc;
	/* NULL where the scheme can run here, else why not (printed, and the scheme skipped) */
	const char *(*unavailable)(void);
	int (*open)(struct scheme_ctx *ctx);
	int64_t (*call)(struct scheme_ctx *ctx, struct svc_req *r);
	void (*close)(struct scheme_ctx *ctx);
};

/* the table, ended by a NULL name */
extern const struct scheme schemes[];

const struct scheme *scheme_find(const char *name);
/* NULL with errno set when it cannot be opened */
struct scheme_ctx *scheme_open(const struct scheme *s, uint64_t state_len, uint64_t client_len,
			       enum placement place, const int cpu[2]);
void scheme_close(struct scheme_ctx *ctx);

/* the process boundary (scheme_process.c) */
int process_copy_open(struct scheme_ctx *ctx);
int64_t process_copy_call(struct scheme_ctx *ctx, struct svc_req *r);
int process_shm_open(struct scheme_ctx *ctx);
int64_t process_shm_call(struct scheme_ctx *ctx, struct svc_req *r);
void process_close(struct scheme_ctx *ctx);

#endif
