/*
 * The sandbox's mounts made with mount(2) alone (isolation_legacy.h), for
 * where the new mount calls answer ENOSYS: Valgrind 3.19 (Debian 12), the
 * one `trebuchet memcheck` runs the executor under, knows none of
 * open_tree, move_mount and mount_setattr, nor does a kernel before 5.2
 * (5.12 for mount_setattr).  The sandbox it makes is the same one
 * (isolation.c decides what is bound where and what stays writable); only
 * the calls differ:
 *
 *   by descriptor    a bind from a directory open at fd goes through its
 *                    name /proc/self/fd/N, which mount(2) follows to the
 *                    directory itself, hidden path or not.  Where there is
 *                    no /proc (a chroot that lacks even the directory) the
 *                    fallback fails, and the run goes on at level none.
 *   read-only "/"    mount_setattr(AT_RECURSIVE) has no mount(2) twin: the
 *                    mounts are read from /proc/self/mountinfo and each is
 *                    remounted read-only on its own.
 *
 * Nothing here allocates: the fork server's heap is what every test process
 * inherits, and a case on freed memory may end by what lies in it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "isolation_legacy.h"

/* mount(2)'s type (and a remount's source), ignored for binds and
 * remounts: a string all the same, since Valgrind reads them as strings
 * (a NULL is an error in its report) */
#define NO_TYPE "none"

static void fd_name(int fd, char *buf, size_t len)
{
	snprintf(buf, len, "/proc/self/fd/%d", fd);
}

int tb_legacy_bind(int fd, const char *path, unsigned long rec)
{
	char name[64];

	fd_name(fd, name, sizeof(name));
	return mount(name, path, NO_TYPE, MS_BIND | rec, NULL);
}

int tb_legacy_bind_onto_itself(int fd)
{
	char name[64], path[PATH_MAX];
	ssize_t n;

	/* its path, not its /proc name, to step into: a path crosses onto the
	 * mount just made; the /proc link leads to the directory beneath it */
	fd_name(fd, name, sizeof(name));
	n = readlink(name, path, sizeof(path) - 1);
	if (n < 0)
		return -1;
	if (n == sizeof(path) - 1)
		return errno = ENAMETOOLONG, -1;
	path[n] = '\0';
	if (mount(path, path, NO_TYPE, MS_BIND | MS_REC, NULL))
		return -1;
	return chdir(path);
}

/* mountinfo's escapes (\040 for a space, \011, \012, \134) undone in place. */
static void unescape(char *s)
{
	char *out = s;

	for (; *s; s++, out++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*out = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*out = *s;
		}
	}
	*out = '\0';
}

/* The mount's flags that a read-only bind remount must say again.  Inside
 * a user namespace the mounts it inherited have nosuid, nodev, noexec and
 * their atime flags locked: a remount that leaves one out asks to clear it,
 * and is refused (EPERM).  statvfs(2) tells them of the mount a path leads
 * to, the one the remount changes. */
static int kept_flags(const char *path, unsigned long *flags)
{
	static const struct { unsigned long st, ms; } keep[] = {
		{ ST_NOSUID, MS_NOSUID }, { ST_NODEV, MS_NODEV }, { ST_NOEXEC, MS_NOEXEC },
		{ ST_NOATIME, MS_NOATIME }, { ST_NODIRATIME, MS_NODIRATIME },
		{ ST_RELATIME, MS_RELATIME },
	};
	struct statvfs st;
	size_t i;

	if (statvfs(path, &st))
		return -1;
	*flags = st.f_flag & ST_RDONLY ? MS_RDONLY : 0;
	for (i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		if (st.f_flag & keep[i].st)
			*flags |= keep[i].ms;
	return 0;
}

/* The id of the mount path leads to (statx, Linux 5.8), or -1 where the
 * kernel does not say. */
static long long mount_id(const char *path)
{
	struct statx stx;

	if (statx(AT_FDCWD, path, AT_NO_AUTOMOUNT, STATX_MNT_ID, &stx) ||
	    !(stx.stx_mask & STATX_MNT_ID))
		return -1;
	return (long long)stx.stx_mnt_id;
}

static int writable(const char *path, long long id, const long long *rw_ids,
		    const char *const *rw, int nrw)
{
	int i;

	for (i = 0; i < nrw; i++)
		if (id >= 0 ? id == rw_ids[i] : !strcmp(path, rw[i]))
			return 1;
	return 0;
}

/* One line of mountinfo ("ID PARENT MAJ:MIN ROOT POINT OPTIONS ..."): its
 * mount made read-only, unless it is one of rw or cannot be reached by its
 * path (a mount under one hidden since, as the machine's /tmp under the
 * private one: no test process can reach it either). */
static int read_only_line(char *line, const long long *rw_ids, const char *const *rw, int nrw,
			  char *failed_at, size_t len)
{
	char *point = NULL, *save = NULL, *field = strtok_r(line, " ", &save);
	long long id = field ? atoll(field) : -1, at;
	unsigned long flags;
	int i;

	for (i = 0; field && i < 4; i++)
		point = field = strtok_r(NULL, " ", &save);
	if (!point)
		return 0;
	unescape(point);
	at = mount_id(point);
	if ((at >= 0 && at != id) || writable(point, at, rw_ids, rw, nrw))
		return 0;
	if (kept_flags(point, &flags))
		return errno == ENOENT ? 0 : (snprintf(failed_at, len, "%s", point), -1);
	if (flags & MS_RDONLY)
		return 0;
	if (mount(NO_TYPE, point, NO_TYPE, MS_REMOUNT | MS_BIND | MS_RDONLY | flags, NULL)) {
		/* hidden where no id told: the path leads to no mount point */
		if (at < 0 && (errno == EINVAL || errno == ENOENT))
			return 0;
		snprintf(failed_at, len, "%s", point);
		return -1;
	}
	return 0;
}

int tb_legacy_read_only_but(const char *const *rw, int nrw, char *failed_at, size_t len)
{
	/* static, not on the heap (above); two paths and options fit a line */
	static char buf[3 * PATH_MAX];
	long long rw_ids[TB_LEGACY_MAX_RW];
	size_t have = 0;
	int fd, i, rc = 0;

	if (nrw > TB_LEGACY_MAX_RW)
		return snprintf(failed_at, len, "%s", rw[0]), errno = E2BIG, -1;
	for (i = 0; i < nrw; i++)
		rw_ids[i] = mount_id(rw[i]);
	snprintf(failed_at, len, "/proc/self/mountinfo");
	fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* a line at a time; remounting changes no line of the table */
	for (;;) {
		ssize_t n = read(fd, buf + have, sizeof(buf) - 1 - have);
		char *line = buf, *end;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		have += (size_t)n;
		buf[have] = '\0';
		while (!rc && (end = strchr(line, '\n'))) {
			*end = '\0';
			rc = read_only_line(line, rw_ids, rw, nrw, failed_at, len);
			line = end + 1;
		}
		if (rc)
			break;
		have -= (size_t)(line - buf);
		memmove(buf, line, have);
		if (have == sizeof(buf) - 1) {  /* a line that does not fit */
			errno = ENAMETOOLONG;
			rc = -1;
			break;
		}
	}
	close(fd);
	return rc;
}
