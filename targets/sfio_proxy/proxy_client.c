/*
 * The caller's side of the process boundary: the server started on first
 * use and again after it died, and one request and one reply a call
 * (proxy_wire.h).  A server that dies answers nothing: its process is
 * reaped, the call fails with SFIO's error value and errno ECONNRESET, and
 * every stream it held is gone with it (its handles are refused by the next
 * server, whose generation differs).
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proxy_client.h"

#define SERVER_NAME "sfio-proxy-server"
#define SERVER_SOCK 3

static int sock = -1;
static pid_t server;
static unsigned generation;
static unsigned char *reply_data;  /* the last reply's bytes */

/* The server's program, beside this library. */
static const char *server_path(void)
{
	static char path[PATH_MAX];
	Dl_info info;
	char *slash;

	if (!path[0] && dladdr((void *)server_path, &info) && info.dli_fname &&
	    strlen(info.dli_fname) + sizeof(SERVER_NAME) < sizeof(path)) {
		strcpy(path, info.dli_fname);
		slash = strrchr(path, '/');
		strcpy(slash ? slash + 1 : path, SERVER_NAME);
	}
	return path;
}

/* The server's program, read when this library is loaded: a test process
 * runs in a sandbox whose /tmp is its own, where a build under /tmp (a CI
 * checkout) cannot be seen, so the server is started from a copy in
 * memory (memfd_create, fexecve) rather than by its path. */
static unsigned char *server_image;
static size_t server_size;

__attribute__((constructor)) static void read_server(void)
{
	int fd = open(server_path(), O_RDONLY | O_CLOEXEC);
	off_t size = fd < 0 ? -1 : lseek(fd, 0, SEEK_END);
	size_t got = 0;
	ssize_t n;

	if (size <= 0 || !(server_image = malloc((size_t)size)))
		goto done;
	while (got < (size_t)size &&
	       (n = pread(fd, server_image + got, (size_t)size - got, (off_t)got)) > 0)
		got += (size_t)n;
	if (got == (size_t)size) {
		server_size = got;
	} else {
		free(server_image);
		server_image = NULL;
	}
done:
	if (fd >= 0)
		close(fd);
}

/* In the child: the server from its copy, else by its path. */
static void exec_server(const char *gen)
{
	char *argv[] = { SERVER_NAME, (char *)gen, NULL };
	extern char **environ;
	size_t put = 0;
	ssize_t n;
	int fd;

	if (server_image && (fd = memfd_create(SERVER_NAME, MFD_CLOEXEC)) >= 0) {
		while (put < server_size && (n = write(fd, server_image + put, server_size - put)) > 0)
			put += (size_t)n;
		if (put == server_size)
			fexecve(fd, argv, environ);
	}
	execv(server_path(), argv);
}

static int start(void)
{
	int sv[2];
	char gen[16];

	snprintf(gen, sizeof(gen), "%u", ++generation);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -1;
	server = fork();
	if (server == 0) {
		/* the server has its socket on 3 and nothing else of the caller's */
		if (dup2(sv[1], SERVER_SOCK) == SERVER_SOCK && !close_range(SERVER_SOCK + 1, ~0U, 0) &&
		    !prctl(PR_SET_PDEATHSIG, SIGKILL))
			exec_server(gen);
		_exit(127);
	}
	close(sv[1]);
	if (server < 0) {
		close(sv[0]);
		return -1;
	}
	sock = sv[0];
	return 0;
}

/* The server is gone (or never came): reap it, and fail the call. */
static void lost(void)
{
	close(sock);
	sock = -1;
	kill(server, SIGKILL);
	waitpid(server, NULL, 0);
}

int64_t proxy_call(struct proxy_request *rq, int fd, const void *b0, const void *b1,
		   size_t *reply_len)
{
	struct proxy_reply rp;

	free(reply_data);
	reply_data = NULL;
	if (reply_len)
		*reply_len = 0;
	if (sock < 0 && start())
		return errno = ECONNRESET, proxy_fail(rq->op);
	if (proxy_send(sock, rq, sizeof(*rq), fd, b0, rq->len[0], b1, rq->len[1]) ||
	    proxy_recv(sock, &rp, sizeof(rp), NULL) || rp.len > PROXY_BLOCK_MAX ||
	    !(reply_data = malloc(rp.len ? rp.len : 1)) || proxy_recv(sock, reply_data, rp.len, NULL)) {
		lost();
		errno = ECONNRESET;
		return proxy_fail(rq->op);
	}
	if (reply_len)
		*reply_len = rp.len;
	errno = rp.err;
	return rp.ret;
}

const unsigned char *proxy_reply_data(void)
{
	return reply_data;
}
