/*
 * The process boundary's wire (proxy_wire.c): one request and one reply per
 * call over a stream socketpair.  A request is a header and at most two
 * blocks of bytes copied from the caller (a buffer, strings); a descriptor
 * the call hands over travels with the header (SCM_RIGHTS).  A reply is a
 * header and the bytes the caller gets back (what was read, a record, what
 * a scan stored).  Streams cross as handles: numbers the server handed out,
 * which its table maps to its streams.
 */
#ifndef SFIO_PROXY_WIRE_H
#define SFIO_PROXY_WIRE_H

#include <stddef.h>
#include <stdint.h>

/* every operation, one per function of the spec (and the value BAD_FD's) */
#define PROXY_OPS(X) \
	X(NEW) X(OPEN) X(POPEN) X(TMP) X(CLOSE) X(STACK) X(SWAP) X(POOL) X(SET) \
	X(SETFD) X(SETBUF) X(SYNC) X(PURGE) X(DISC) X(RAISE) X(RESIZE) X(READ) \
	X(WRITE) X(RESERVE) X(MOVE) X(GETR) X(PUTR) X(NPUTC) X(UNGETC) X(SEEK) \
	X(TELL) X(SIZE) X(PRINTF) X(SCANF) X(SSCANF) X(SPRINTF) X(GETC) X(PUTC) \
	X(FILENO) X(EOF) X(ERROR) X(CLRERR) X(STACKED) X(VALUE) X(CLOSE_FD)
#define PROXY_OP_ENUM(name) PROXY_##name,
enum proxy_op { PROXY_OPS(PROXY_OP_ENUM) PROXY_NOPS };

#define PROXY_BLOCK_MAX ((uint64_t)256 << 20) /* more than any block a value holds */
/* a caller's descriptor that is not open arrives as one the server keeps closed */
#define PROXY_CLOSED_FD 1000

/* Handles: PROXY_HANDLE_BASE + (generation << 20 | index) * 16, a number
 * shaped like a pointer no caller has mapped.  The standard streams are
 * indexes 0 to 2 of generation 0 in every server, so that sfstdin keeps its
 * value across a restart; any other handle dies with the server that made it. */
#define PROXY_HANDLE_BASE 0x5f0000000000ull
#define PROXY_HANDLE(gen, index) (PROXY_HANDLE_BASE + (((uint64_t)(gen) << 20) | (index)) * 16)

/* Each operation's error value, SFIO's for its function (NULL is 0). */
static inline int64_t proxy_fail(int op)
{
	switch (op) {
	case PROXY_NEW: case PROXY_OPEN: case PROXY_POPEN: case PROXY_TMP: case PROXY_STACK:
	case PROXY_SWAP: case PROXY_POOL: case PROXY_SETBUF: case PROXY_DISC: case PROXY_RESERVE:
	case PROXY_GETR: case PROXY_SET: case PROXY_EOF: case PROXY_ERROR: case PROXY_CLRERR:
	case PROXY_STACKED: case PROXY_VALUE:
		return 0;
	default:
		return -1;
	}
}

struct proxy_request {
	int32_t op;
	int32_t has_fd;        /* a descriptor came with the header */
	uint64_t h[2];         /* streams, as handles (0: NULL) */
	int64_t a[4];          /* the numbers */
	uint64_t len[2];       /* the blocks that follow, in order */
};

struct proxy_reply {
	int64_t ret;           /* the return value (a stream's: its handle) */
	int32_t err;           /* errno after the call */
	int32_t pad;
	uint64_t len;          /* the bytes that follow */
};

/* Sends a header, an optional descriptor and two blocks; 0 or -1. */
int proxy_send(int sock, const void *head, size_t head_len, int fd,
	       const void *b0, size_t n0, const void *b1, size_t n1);
/* Receives exactly n bytes (and a descriptor, when fd is not NULL); 0, or
 * -1 at end of file or on an error. */
int proxy_recv(int sock, void *buf, size_t n, int *fd);

#endif
