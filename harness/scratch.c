/*
 * Scratch directories (scratch.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scratch.h"

/* A run's root is locked (flock) by its executor for as long as it lives:
 * the lock goes with the process, however it ends, so a later run's sweep
 * can tell a live run's root from a dead one's without trusting the pid in
 * its name alone (an executor under another name, a pid reused). */
int tb_scratch_create(const char *parent, char *out, size_t outlen)
{
	int fd;

	/* the executor's pid, so that a later run can tell when it is gone;
	 * padded, so that the path's length does not depend on it */
	if ((size_t)snprintf(out, outlen, "%s/trebuchet-%07d-XXXXXX", parent, (int)getpid()) >= outlen)
		return -1;
	if (!mkdtemp(out))
		return -1;
	/* kept open (close-on-exec) until the process ends; fork servers
	 * close their copies, which leaves the lock with the executor */
	fd = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0)
		flock(fd, LOCK_EX | LOCK_NB);  /* a filesystem without locks: the pid alone tells */
	return 0;
}

/* Whether the root name (in dirfd) is locked by a live executor. */
static int root_locked(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int locked;

	if (fd < 0)
		return 0;
	locked = flock(fd, LOCK_EX | LOCK_NB) && errno == EWOULDBLOCK;
	close(fd);  /* and with it the lock, if this took it */
	return locked;
}

/* Whether pid is a live trebuchet-exec: not gone, not a zombie (a killed
 * executor may wait unreaped), and not the pid reused by another program. */
static int executor_alive(int pid)
{
	char path[64], stat[256];
	FILE *f;
	size_t n;
	char *state;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(stat, 1, sizeof(stat) - 1, f);
	fclose(f);
	stat[n] = '\0';
	state = strrchr(stat, ')');
	return strstr(stat, "(trebuchet-exec)") && state && state[1] == ' ' && state[2] != 'Z';
}

static void sweep(const char *parent)
{
	DIR *dir = opendir(parent);
	struct dirent *e;
	int pid, end;

	if (!dir)
		return;
	while ((e = readdir(dir))) {
		end = 0;
		if (sscanf(e->d_name, "trebuchet-%d-%*6[A-Za-z0-9]%n", &pid, &end) == 1 &&
		    end && !e->d_name[end] && pid > 0 && !executor_alive(pid) &&
		    !root_locked(dirfd(dir), e->d_name))
			tb_remove_tree(dirfd(dir), e->d_name);
	}
	closedir(dir);
}

/* A run killed with SIGKILL cannot remove its root; the next run does, once
 * the executor named in the root's name is gone and nothing holds the
 * root's lock.  In a child process: the directory's listing, read into a
 * heap buffer and freed, stayed in the heap every test process inherits,
 * where a FREED value found it (fsetpos of a freed fpos_t read an offset
 * out of /tmp's entries: EINVAL or not with what /tmp held). */
void tb_scratch_sweep(const char *parent)
{
	pid_t pid = fork();

	if (pid == 0) {
		sweep(parent);
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

/* Reads fd's entries from the start and removes each; returns how many it
 * saw besides "." and "..", or -1. */
static int remove_entries(int fd, char *buf, size_t len)
{
	long n, pos;
	int seen = 0;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return -1;
	for (;;) {
		n = syscall(SYS_getdents64, fd, buf, len);
		if (n <= 0)
			break;
		for (pos = 0; pos < n;) {
			struct dirent64 *e = (struct dirent64 *)(buf + pos);

			pos += e->d_reclen;
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			seen++;
			if (unlinkat(fd, e->d_name, 0) && tb_remove_tree(fd, e->d_name))
				return -1;
		}
		/* room left for one more entry of the longest name: the kernel
		 * had no more to give, so skip the call that would return 0 */
		if ((size_t)n + sizeof(struct dirent64) <= len)
			return seen;
	}
	return n < 0 ? -1 : seen;
}

int tb_empty_dir(int fd, void *buf, size_t len)
{
	int seen;

	/* removing entries while reading may skip some: read again until a
	 * pass finds none */
	while ((seen = remove_entries(fd, buf, len)) > 0)
		;
	return seen;
}

static int remove_children(int fd)
{
	char buf[4096];
	int rc = tb_empty_dir(fd, buf, sizeof(buf));

	close(fd);
	return rc;
}

int tb_remove_tree(int dirfd, const char *name)
{
	int fd;

	/* the common case: the test left nothing behind */
	if (!unlinkat(dirfd, name, AT_REMOVEDIR) || errno == ENOENT)
		return 0;
	if (errno != ENOTEMPTY && errno != EEXIST)
		return -1;
	/* a test may have taken away its own permissions */
	fchmodat(dirfd, name, 0700, 0);
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	if (fd < 0 || remove_children(fd))
		return -1;
	return unlinkat(dirfd, name, AT_REMOVEDIR);
}
