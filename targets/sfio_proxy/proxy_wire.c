/*
 * Sending and receiving the wire's messages (proxy_wire.h).  MSG_NOSIGNAL:
 * a peer that died is an error to answer, not a SIGPIPE.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "proxy_wire.h"

static int send_all(int sock, struct msghdr *msg)
{
	while (msg->msg_iovlen) {
		ssize_t n = sendmsg(sock, msg, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		msg->msg_control = NULL, msg->msg_controllen = 0;
		while (msg->msg_iovlen && (size_t)n >= msg->msg_iov->iov_len) {
			n -= (ssize_t)msg->msg_iov->iov_len;
			msg->msg_iov++, msg->msg_iovlen--;
		}
		if (msg->msg_iovlen) {
			msg->msg_iov->iov_base = (char *)msg->msg_iov->iov_base + n;
			msg->msg_iov->iov_len -= (size_t)n;
		}
	}
	return 0;
}

int proxy_send(int sock, const void *head, size_t head_len, int fd,
	       const void *b0, size_t n0, const void *b1, size_t n1)
{
	struct iovec iov[3] = { { (void *)head, head_len }, { (void *)b0, n0 }, { (void *)b1, n1 } };
	char control[CMSG_SPACE(sizeof(int))] = { 0 };
	struct msghdr msg = { .msg_iov = iov, .msg_iovlen = 3 };

	if (fd >= 0) {
		struct cmsghdr *c;

		msg.msg_control = control, msg.msg_controllen = sizeof(control);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET, c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	return send_all(sock, &msg);
}

int proxy_recv(int sock, void *buf, size_t n, int *fd)
{
	char control[CMSG_SPACE(sizeof(int))];
	size_t got = 0;

	while (got < n) {
		struct iovec iov = { (char *)buf + got, n - got };
		struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
		struct cmsghdr *c;
		ssize_t r;

		if (fd)
			msg.msg_control = control, msg.msg_controllen = sizeof(control);
		r = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		c = fd ? CMSG_FIRSTHDR(&msg) : NULL;
		if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			memcpy(fd, CMSG_DATA(c), sizeof(int)), fd = NULL;
		got += (size_t)r;
	}
	return 0;
}
