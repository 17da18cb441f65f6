/*
 * port/linux/agent_msg.c: the messages of agent_proto.h over the
 * connection between the consumer and an agent (both sides use this file).
 * A message is one fixed-size SOCK_SEQPACKET record, with descriptors as
 * SCM_RIGHTS; a short or truncated record is EPROTO, end-of-file is
 * ECONNRESET.  Not probe context.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agent_proto.h"
#include "linux_impl.h"

int
linux_agent_send(int sock, const linux_agent_msg_t *m, const int *fds, int nfds)
{
	struct iovec iov = {(void *)m, sizeof(*m)};
	struct msghdr mh;
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int) * 4)];
	} cm;
	ssize_t n;

	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (nfds > 0) {
		memset(&cm, 0, sizeof(cm));
		mh.msg_control = cm.buf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds);
		cm.h.cmsg_level = SOL_SOCKET;
		cm.h.cmsg_type = SCM_RIGHTS;
		cm.h.cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
		memcpy(CMSG_DATA(&cm.h), fds, sizeof(int) * (size_t)nfds);
	}
	do
		n = sendmsg(sock, &mh, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno;
	return n == (ssize_t)sizeof(*m) ? 0 : EPROTO;
}

int
linux_agent_recv(int sock, linux_agent_msg_t *m, int *fds, int maxfds, int *nfds, int timeout_ms)
{
	struct iovec iov = {m, sizeof(*m)};
	struct msghdr mh;
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int) * 4)];
	} cm;
	struct cmsghdr *c;
	struct pollfd pfd = {sock, POLLIN, 0};
	ssize_t n;
	int rc;

	if (nfds != NULL)
		*nfds = 0;
	if (timeout_ms >= 0) {
		do
			rc = poll(&pfd, 1, timeout_ms);
		while (rc < 0 && errno == EINTR);
		if (rc == 0)
			return ETIMEDOUT;
		if (rc < 0)
			return errno;
	}
	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = cm.buf;
	mh.msg_controllen = sizeof(cm.buf);
	do
		n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n == 0)
		return ECONNRESET;
	if (n < 0)
		return errno;
	for (c = CMSG_FIRSTHDR(&mh); c != NULL; c = CMSG_NXTHDR(&mh, c)) {
		int k = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int)), i, *in;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		in = (int *)CMSG_DATA(c);
		for (i = 0; i < k; i++) {
			if (fds != NULL && nfds != NULL && *nfds < maxfds)
				fds[(*nfds)++] = in[i];
			else
				close(in[i]);
		}
	}
	if (n != (ssize_t)sizeof(*m) || (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)))
		return EPROTO;
	return 0;
}

