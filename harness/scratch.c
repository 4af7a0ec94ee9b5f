/*
 * Scratch directories (scratch.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scratch.h"

int tb_scratch_create(const char *parent, char *out, size_t outlen)
{
	if ((size_t)snprintf(out, outlen, "%s/trebuchet-%d-XXXXXX", parent, (int)getpid()) >= outlen)
		return -1;
	return mkdtemp(out) ? 0 : -1;
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

/* A run killed with SIGKILL cannot remove its root; the next run does, once
 * the executor named in the root's name is gone. */
void tb_scratch_sweep(const char *parent)
{
	DIR *dir = opendir(parent);
	struct dirent *e;
	int pid, end;

	if (!dir)
		return;
	while ((e = readdir(dir))) {
		end = 0;
		if (sscanf(e->d_name, "trebuchet-%d-%*6[A-Za-z0-9]%n", &pid, &end) == 1 &&
		    end && !e->d_name[end] && pid > 0 && !executor_alive(pid))
			tb_remove_tree(dirfd(dir), e->d_name);
	}
	closedir(dir);
}

static int remove_children(int fd)
{
	DIR *dir = fdopendir(fd);
	struct dirent *e;
	int rc = 0;

	if (!dir) {
		close(fd);
		return -1;
	}
	while ((e = readdir(dir))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (unlinkat(dirfd(dir), e->d_name, 0) && tb_remove_tree(dirfd(dir), e->d_name))
			rc = -1;
	}
	closedir(dir);
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
