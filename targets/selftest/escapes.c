/*
 * Hostile functions: each tries one way out of the run (selftest.h).  Each
 * returns 0 when its attempt went through as far as it can tell, -1 (errno
 * set) when it was refused; the escape test (tests/test_sandbox.py) looks
 * outside the run for what got through, since inside a sandbox an attempt
 * may "succeed" on a private stand-in.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <unistd.h>

#include "selftest.h"

/* The run's name (its scratch directory's), which the files a test leaves
 * outside carry, so the escape test knows them for its run's. */
static const char *run_name(void)
{
	const char *tmp = getenv("TMPDIR"), *slash = tmp ? strrchr(tmp, '/') : NULL;

	return slash ? slash + 1 : "unknown";
}

/* Creates dir/st-escape-RUN. */
static int leave_file(const char *dir, const char *what)
{
	char path[PATH_MAX];
	int fd;

	if (!dir)
		return errno = ENOENT, -1;
	snprintf(path, sizeof(path), "%s/st-escape-%s-%s", dir, what, run_name());
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

int st_escape_tmp(void)
{
	return leave_file("/tmp", "tmp");
}

int st_escape_var_tmp(void)
{
	return leave_file("/var/tmp", "var-tmp");
}

int st_escape_dev_shm(void)
{
	return leave_file("/dev/shm", "dev-shm");
}

/* $HOME, and the home the password file gives the process's user. */
int st_escape_home(void)
{
	struct passwd *pw = getpwuid(getuid());
	int env = leave_file(getenv("HOME"), "home");

	return leave_file(pw ? pw->pw_dir : NULL, "home") && env ? -1 : 0;
}

/* The test process works in scratch/sN: two levels up is the directory
 * the run's scratch directory was made in. */
int st_escape_above(void)
{
	return leave_file("../..", "above");
}

/* The escape test keeps its store in store/ beside the directory the
 * scratch directory is made in. */
int st_escape_store(void)
{
	return leave_file("../../../store", "store");
}

/* A number from a file the escape test leaves above the scratch directory. */
static long read_number(const char *path)
{
	char buf[32] = "";
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	return n > 0 ? strtol(buf, NULL, 10) : -1;
}

/* Connects to the port named in ../../st-escape.port on 127.0.0.1. */
int st_escape_connect(void)
{
	struct sockaddr_in to = { .sin_family = AF_INET };
	long port = read_number("../../st-escape.port");
	int fd, rc;

	if (port <= 0)
		return errno = ENOENT, -1;
	to.sin_port = htons((uint16_t)port);
	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	rc = connect(fd, (struct sockaddr *)&to, sizeof(to));
	if (rc == 0 && write(fd, "escaped\n", 8) != 8)
		rc = -1;
	close(fd);
	return rc;
}

int st_escape_shm(void)
{
	return shmget(ST_ESCAPE_SHM_KEY, 4096, IPC_CREAT | 0666) < 0 ? -1 : 0;
}

/* A daemon: a session of its own, SIGTERM ignored, its parent gone. */
int st_escape_daemon(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		setsid();
		signal(SIGTERM, SIG_IGN);
		if (fork() == 0) {
			prctl(PR_SET_NAME, "st-escape-d");
			for (;;)
				pause();
		}
		_exit(0);
	}
	return pid > 0 ? 0 : -1;
}

/* Sends SIGTERM to the process named in ../../st-escape.pid. */
int st_escape_signal(void)
{
	long pid = read_number("../../st-escape.pid");

	if (pid <= 0)
		return errno = ENOENT, -1;
	return kill((pid_t)pid, SIGTERM);
}

/* Every process forks until refused, then sleeps: as many processes as the
 * limits allow, none of them spinning. */
int st_escape_fork_bomb(void)
{
	for (;;)
		if (fork() < 0)
			pause();
}
