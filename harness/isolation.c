/*
 * The sandbox around a run's test processes (isolation.h), as syzkaller's
 * executor does it: namespaces entered once, by each fork server as it is
 * forked, and inherited by every test process it forks, so a case pays
 * nothing for them.
 *
 *   mount namespace  every mount read-only but the run's scratch directory;
 *                    /tmp, /var/tmp and /dev/shm bound to directories of
 *                    their own inside it (removed with it); the scratch
 *                    directory bound again at its own path when it lies
 *                    under one of them, so its paths (TMPDIR, HOME) stay
 *                    the same; propagation private, so nothing of this
 *                    reaches the machine's mounts
 *   network          a namespace of its own: no interface up, loopback
 *                    included, so no route anywhere
 *   IPC              SysV shared memory, semaphores and queues of its own
 *   PID              the fork server is its namespace's first process:
 *                    test processes see and signal only the run's own
 *                    processes, and whatever they leave dies with it; at
 *                    most RUN_PROCESSES of them at once, so a fork bomb
 *                    is bounded per run whoever runs it (Linux 6.14 and
 *                    later, where pid_max is the namespace's own)
 *   user             only for an ordinary user (level USER): the others
 *                    need it to be allowed; the user's own uid and gid
 *                    mapped to themselves, capabilities dropped once the
 *                    mounts are made, so a test cannot undo them
 *
 * Why unshare(2) here and not bubblewrap or nsjail: both set up the same
 * namespaces with the same system calls, but as a program that execs
 * another, so each fork server would become a program of its own started
 * through them; and a user would have to install one (bubblewrap is a
 * Debian package, nsjail is not packaged).  Done here it costs nothing to
 * install, takes about a millisecond per fork server (bench/throughput.py
 * measures the run's throughput with it on and off), and holds on any
 * Linux from 5.12 (mount_setattr); where the new mount calls answer ENOSYS
 * (Valgrind 3.19, older kernels) the same mounts are made with mount(2)
 * alone (isolation_legacy.c).  Where the kernel or a container
 * refuses the namespaces the run goes on without them (level NONE) and
 * says so once (pool.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "isolation.h"
#include "isolation_legacy.h"

/* The mount namespace is not among them: tb_isolate() enters it.  A tool
 * that follows forks opens its report for the child as it returns from the
 * fork (Valgrind's --xml-file=%p under `trebuchet memcheck`), and a file
 * open for writing on a mount keeps it from being made read-only (EBUSY,
 * with mount_setattr(2) as with mount(2)): opened before the new mount
 * namespace, the file is on the machine's mount, not on this namespace's
 * copy of it. */
#define NAMESPACES (CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWPID)
/* The most processes a fork server's PID namespace holds: its slots (at
 * most 256) and what their cases start, with room to spare. */
#define RUN_PROCESSES 1024

/* The shared directories a test process could leave files in, and the
 * directory of the run's scratch that stands in for each. */
static const struct {
	const char *path, *private;
} shared_dirs[] = {
	{ "/tmp", "tmp" },
	{ "/var/tmp", "var-tmp" },
	{ "/dev/shm", "dev-shm" },
};

const char *tb_isolation_name(enum tb_isolation level)
{
	return level == TB_ISOLATION_FULL ? "full" : level == TB_ISOLATION_USER ? "user" : "none";
}

enum tb_isolation tb_isolation_best(void)
{
	return geteuid() == 0 ? TB_ISOLATION_FULL : TB_ISOLATION_USER;
}

pid_t tb_isolation_fork(enum tb_isolation level)
{
	long flags = NAMESPACES | (level == TB_ISOLATION_USER ? CLONE_NEWUSER : 0);

	if (level == TB_ISOLATION_NONE)
		return fork();
	/* clone() without a stack is fork() into new namespaces */
	return (pid_t)syscall(SYS_clone, flags | SIGCHLD, NULL, NULL, NULL, NULL);
}

static int failed(char *err, size_t len, const char *what, const char *path)
{
	snprintf(err, len, "%s %s: %s", what, path, strerror(errno));
	return -1;
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* The user's own uid and gid, the same inside as outside. */
static int map_user(char *err, size_t len)
{
	char map[64];

	snprintf(map, sizeof(map), "%d %d 1\n", (int)getgid(), (int)getgid());
	if (write_file("/proc/self/setgroups", "deny") || write_file("/proc/self/gid_map", map))
		return failed(err, len, "mapping the group in", "/proc/self/gid_map");
	snprintf(map, sizeof(map), "%d %d 1\n", (int)getuid(), (int)getuid());
	if (write_file("/proc/self/uid_map", map))
		return failed(err, len, "mapping the user in", "/proc/self/uid_map");
	return 0;
}

/* mkdir -p of an absolute path. */
static int make_path(const char *path)
{
	char buf[PATH_MAX];
	size_t i, n = strlen(path);

	if (n >= sizeof(buf))
		return errno = ENAMETOOLONG, -1;
	memcpy(buf, path, n + 1);
	for (i = 1; i <= n; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -1;
		buf[i] = i < n ? '/' : '\0';
	}
	return 0;
}

static int set_read_only(const char *path, int on, unsigned flags)
{
	struct mount_attr attr = { 0 };

	if (on)
		attr.attr_set = MOUNT_ATTR_RDONLY;
	else
		attr.attr_clr = MOUNT_ATTR_RDONLY;
	return mount_setattr(AT_FDCWD, path, flags, &attr, sizeof(attr));
}

/* Binds the directory open at fd over path: by descriptor, since a mount
 * made before may have hidden the directory's own path; with open_tree(2),
 * not through /proc/self/fd, which a chroot may not have (the fallback
 * goes through it: isolation_legacy.c). */
static int bind_fd(int fd, const char *path)
{
	int tree = open_tree(fd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH), rc;

	if (tree < 0)
		return errno == ENOSYS ? tb_legacy_bind(fd, path, 0) : -1;
	rc = move_mount(tree, "", AT_FDCWD, path, MOVE_MOUNT_F_EMPTY_PATH);
	close(tree);
	return rc;
}

/* The directory open at fd bound onto itself with the mounts under it, and
 * the working directory moved into the new mount. */
static int bind_onto_itself(int fd)
{
	int tree = open_tree(fd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE |
			     AT_EMPTY_PATH), rc;

	if (tree < 0)
		return errno == ENOSYS ? tb_legacy_bind_onto_itself(fd) : -1;
	rc = move_mount(tree, "", fd, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) ||
	     fchdir(tree) ? -1 : 0;
	close(tree);
	return rc;
}

/* Every mount read-only but those of the paths rw.  mount_setattr(2) does
 * it in one call; where it answers ENOSYS, mount by mount
 * (isolation_legacy.c). */
static int read_only_but(const char **rw, int nrw, char *err, size_t len)
{
	char at[PATH_MAX];
	int i;

	if (set_read_only("/", 1, AT_RECURSIVE)) {
		if (errno != ENOSYS)
			return failed(err, len, "making read-only every mount under", "/");
		if (tb_legacy_read_only_but(rw, nrw, at, sizeof(at)))
			return failed(err, len, "making read-only the mount at", at);
		return 0;
	}
	for (i = 0; i < nrw; i++)
		if (set_read_only(rw[i], 0, 0))
			return failed(err, len, "leaving writable", rw[i]);
	return 0;
}

/* Whether "." is the machine's root: its parent is itself. */
static int at_top(void)
{
	struct stat here, up;

	return !stat(".", &here) && !stat("..", &up) &&
	       here.st_dev == up.st_dev && here.st_ino == up.st_ino;
}

/* Where "/" is not a mount point (a chroot) it cannot be made private, so
 * this namespace's copy of the mount holding it would still pass every
 * mount made here to the machine's (where that mount is shared, as
 * systemd makes "/"): binding "/" onto itself from inside the chroot
 * showed up in the machine's mount table, and stayed.  So, in this mount
 * namespace only and as root (a chroot refuses user namespaces, so it is
 * never level USER): out of the chroot (chroot(2) into scratch leaves the
 * working directory outside the root, and ".." climbs to the top), every
 * mount made private there, the chroot's directory bound onto itself, and
 * back into it, now the root of a mount of its own.  Nothing of the old
 * root stays open.  Container runtimes make their root a mount point the
 * same way; only the way out is a chroot's. */
static int own_root(const char *scratch, char *err, size_t len)
{
	int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC), rc = -1;

	if (root < 0)
		return failed(err, len, "opening", "/");
	if (chroot(scratch) || fchdir(root)) {
		failed(err, len, "leaving the chroot, whose root is not a mount point, at", "/");
		goto out;
	}
	while (!at_top())
		if (chdir("..")) {
			failed(err, len, "leaving the chroot at", "..");
			goto out;
		}
	if (chroot(".") || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		failed(err, len, "making mounts private above the chroot at", "/");
		goto out;
	}
	if (bind_onto_itself(root) || chroot(".")) {
		failed(err, len, "binding the chroot onto itself at", "/");
		goto out;
	}
	rc = 0;
out:
	close(root);
	return rc;
}

/* A stand-in for a shared directory: scratch/name, open at *fd. */
static int stand_in(const char *scratch, const char *name, int *fd, char *err, size_t len)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", scratch, name) >= sizeof(path))
		return errno = ENAMETOOLONG, failed(err, len, "making a directory in", scratch);
	/* every fork server of the run binds the same one */
	if (mkdir(path, 0700) && errno != EEXIST)
		return failed(err, len, "making", path);
	if (chmod(path, 01777))
		return failed(err, len, "opening up", path);
	*fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return *fd < 0 ? failed(err, len, "opening", path) : 0;
}

/* /tmp, /var/tmp and /dev/shm (where they are directories) bound to their
 * stand-ins in the scratch directory, listed in rw; then scratch (open at
 * scratch_fd) again at its own path: a mount of its own to leave writable,
 * and seen again where it lies under a private /tmp (the path is then made
 * inside the stand-in). */
static int private_dirs(const char *scratch, int scratch_fd, const char **rw, int *nrw,
			char *err, size_t len)
{
	enum { N = sizeof(shared_dirs) / sizeof(shared_dirs[0]) };
	int fds[N], i, rc = 0;
	struct stat st;

	for (i = 0; i < N; i++) {
		fds[i] = -1;
		if (!rc && !stat(shared_dirs[i].path, &st) && S_ISDIR(st.st_mode))
			rc = stand_in(scratch, shared_dirs[i].private, &fds[i], err, len);
	}
	for (i = 0; i < N && !rc; i++) {
		if (fds[i] < 0)
			continue;
		if (bind_fd(fds[i], shared_dirs[i].path))
			rc = failed(err, len, "binding a private directory over", shared_dirs[i].path);
		rw[(*nrw)++] = shared_dirs[i].path;
	}
	for (i = 0; i < N; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	if (!rc && (make_path(scratch) || bind_fd(scratch_fd, scratch)))
		rc = failed(err, len, "binding the scratch directory at", scratch);
	rw[(*nrw)++] = scratch;
	return rc;
}

/* The user's share (open at fd) bound at scratch/share, and at its own
 * path, as it is reached without a sandbox: its path may lie under a
 * private /tmp by now (it is then made inside the stand-in).  A checker
 * that writes from inside test processes (Valgrind's reports under
 * `trebuchet memcheck`) names its files by that path. */
static int bind_share(const char *scratch, const char *share, int fd, char *at, size_t atlen,
		      char *err, size_t len)
{
	snprintf(at, atlen, "%s/share", scratch);
	if ((mkdir(at, 0755) && errno != EEXIST) || bind_fd(fd, at))
		return failed(err, len, "binding the shared directory at", at);
	if (make_path(share) || bind_fd(fd, share))
		return failed(err, len, "binding the shared directory at", share);
	return 0;
}

/* Nothing mounted in this namespace may propagate to the machine's. */
static int private_root(const char *scratch, char *err, size_t len)
{
	if (!mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return 0;
	if (errno != EINVAL)  /* not "not a mount point" */
		return failed(err, len, "making mounts private at", "/");
	return own_root(scratch, err, len);
}

/* The filesystem read-only but scratch (and share, when given), with
 * private shared directories. */
static int private_filesystem(const char *scratch, const char *share, char *err, size_t len)
{
	static char share_at[PATH_MAX + 8];
	const char *rw[TB_LEGACY_MAX_RW];
	int nrw = 0, fd, share_fd = -1, i;

	if (share && (share_fd = open(share, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return failed(err, len, "opening the shared directory", share);
	fd = open(scratch, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return failed(err, len, "opening", scratch);
	i = private_dirs(scratch, fd, rw, &nrw, err, len);
	close(fd);
	if (!i && share_fd >= 0) {
		i = bind_share(scratch, share, share_fd, share_at, sizeof(share_at), err, len);
		rw[nrw++] = share_at;
		rw[nrw++] = share;
	}
	if (share_fd >= 0)
		close(share_fd);
	return i ? -1 : read_only_but(rw, nrw, err, len);
}

/* pid_max of the PID namespace just made.  Before Linux 6.14 the same file
 * is the machine's: left alone there. */
static int bound_processes(char *err, size_t len)
{
	struct utsname u;
	int major, minor;
	char value[16];

	if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2 ||
	    major < 6 || (major == 6 && minor < 14))
		return 0;
	snprintf(value, sizeof(value), "%d", RUN_PROCESSES);
	if (write_file("/proc/sys/kernel/pid_max", value))
		return failed(err, len, "bounding the processes in", "/proc/sys/kernel/pid_max");
	return 0;
}

/* Capabilities in the user namespace would let a test unmount what hides
 * /tmp or make the filesystem writable again: none are kept. */
static int drop_capabilities(char *err, size_t len)
{
	struct __user_cap_header_struct head = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct none[2] = { { 0 } };

	if (syscall(SYS_capset, &head, none))
		return failed(err, len, "dropping", "capabilities");
	return 0;
}

/* Without a sandbox the share is a link, at the same path. */
static int link_share(const char *share, char *err, size_t len)
{
	if (symlink(share, "share") && errno != EEXIST)
		return failed(err, len, "linking the shared directory", share);
	return 0;
}

int tb_isolate(enum tb_isolation level, const char *scratch, const char *share,
	       char *err, size_t errlen)
{
	char real[PATH_MAX];

	if (level == TB_ISOLATION_NONE)
		return share ? link_share(share, err, errlen) : 0;
	if (level == TB_ISOLATION_USER && map_user(err, errlen))
		return -1;
	if (unshare(CLONE_NEWNS))
		return failed(err, errlen, "entering a mount namespace of", "its own");
	/* the server works in scratch already, which may have been named
	 * relative to where the executor was */
	if (!getcwd(real, sizeof(real)))
		return failed(err, errlen, "resolving", scratch);
	if (private_root(real, err, errlen))
		return -1;
	/* the PID namespace's own processes, for the server's /proc reads;
	 * before the binds, which may go through /proc/self/fd
	 * (isolation_legacy.c), and the read-only pass, which then covers it */
	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL))
		return failed(err, errlen, "mounting the PID namespace's", "/proc");
	if (bound_processes(err, errlen) || private_filesystem(real, share, err, errlen))
		return -1;
	/* the working directory was on the mount now read-only: into the
	 * writable one, where test processes make their slots */
	if (chdir(real))
		return failed(err, errlen, "moving into", real);
	return level == TB_ISOLATION_USER ? drop_capabilities(err, errlen) : 0;
}
