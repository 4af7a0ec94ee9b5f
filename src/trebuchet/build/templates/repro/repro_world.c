/*
 * The world trebuchet's test process runs in, made again without trebuchet
 * (there, its harness sets it up), so that the call meets what it met there:
 *
 *   - address-space randomisation off, malloc's tcache off
 *     (GLIBC_TUNABLES=glibc.malloc.tcache_count=0) and trebuchet's
 *     environment (PATH, LC_ALL=C, TZ=UTC; TMPDIR and HOME name the working
 *     directory): the program re-executes itself once to get them;
 *   - a fresh working directory (mkdtemp under $TMPDIR or /tmp) where the
 *     values make their files; removed when the call returns, kept when it
 *     crashes or hangs (its path is printed first, to look at);
 *   - limits: address space 1 GiB and file size 64 MiB (with SIGXFSZ
 *     ignored, a write past it fails with EFBIG), 1024 descriptors, 8 MiB
 *     of stack;
 *   - descriptors 0 and 1 on /dev/null, 2 on a file of its own beside the
 *     working directory (its path with ".stderr"; trebuchet gives a test
 *     process a memory file there, whose end it keeps), removed with the
 *     working directory when the call returns, kept to read when it crashes
 *     or hangs; no other open: this program's own messages go to copies of
 *     the original stdout and stderr, kept at descriptor 1000 and up with
 *     the working directory's, and closed in any program the call starts;
 *   - default signal dispositions, none blocked, umask 022;
 *   - started as root, it becomes nobody (looked up in a child, so that the
 *     name service leaves this heap as it was), as the test process does, so that
 *     permission values (a read-only file) mean the same.
 *
 * Unlike the test process it stays in the caller's process group, so that
 * Ctrl-C stops a hang, and leaves core dumps to `ulimit -c`.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <math.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "repro_support.h"

#define SETTLED_ENV "REPRO_SETTLED"
#define PARENT_ENV "REPRO_TMPDIR"  /* the caller's TMPDIR, carried across exec */
#define REPORT_FD 1000
#define NOBODY 65534               /* when the system has no such user */
/* trebuchet's environment for a test process, but TMPDIR and HOME */
#define WORLD_ENV "PATH=/usr/local/bin:/usr/bin:/bin", "LC_ALL=C", "TZ=UTC", \
	"GLIBC_TUNABLES=glibc.malloc.tcache_count=0"

extern char **environ;

static char workdir[PATH_MAX];
static char stderr_path[PATH_MAX + 8];  /* workdir's, with ".stderr" */
static int report_out = -1, report_err = -1;
/* the working directory and its parent, held open so that it can be
 * removed whatever the call did to the current directory, and by nobody,
 * who may not be able to reach it by its path */
static int workdir_fd = -1, parent_fd = -1;

/* Could not set the world up: nothing was called.  Exit status 4. */
static void fail(const char *what)
{
	dprintf(report_err >= 0 ? report_err : 2, "repro: %s: %s\n", what, strerror(errno));
	_exit(4);
}

static void soft_limit(int resource, rlim_t value)
{
	struct rlimit rl;

	if (getrlimit(resource, &rl) == 0) {
		rl.rlim_cur = rl.rlim_max < value ? rl.rlim_max : value;
		setrlimit(resource, &rl);
	}
}

static void limit(int resource, rlim_t value)
{
	struct rlimit rl = { value, value };

	if (setrlimit(resource, &rl))
		fail("setrlimit");
}

/* LD_LIBRARY_PATH=... as the caller has it (how a user points the loader
 * at the library), or NULL. */
static char *loader_path(void)
{
	static char entry[8192];
	const char *v = getenv("LD_LIBRARY_PATH");

	if (!v || (size_t)snprintf(entry, sizeof(entry), "LD_LIBRARY_PATH=%s", v) >= sizeof(entry))
		return NULL;
	return entry;
}

/* Once, before anything else: randomisation off and trebuchet's environment,
 * which only an exec makes take effect. */
static void settle(char **argv)
{
	static char parent[PATH_MAX + sizeof(PARENT_ENV)];
	char *env[] = { WORLD_ENV, SETTLED_ENV "=1", parent, loader_path(), NULL };

	if (getenv(SETTLED_ENV))
		return;
	snprintf(parent, sizeof(parent), PARENT_ENV "=%s", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (personality(PER_LINUX | ADDR_NO_RANDOMIZE) == -1)
		personality(PER_LINUX);  /* refused (some containers): randomised */
	soft_limit(RLIMIT_STACK, (rlim_t)8 << 20);
	execve("/proc/self/exe", argv, env);
	/* no /proc (a chroot that was entered without mounting it): by the
	 * name it was run by, still the right one before anything moved */
	execve((const char *)getauxval(AT_EXECFN), argv, env);
	/* could not re-execute: carry on in the caller's world */
}

/* The test process's environment, in a static array (setenv would
 * allocate), with TMPDIR and HOME naming the working directory. */
static void take_environment(void)
{
	static char tmpdir[PATH_MAX + 8], home[PATH_MAX + 8];
	static char *env[] = { WORLD_ENV, tmpdir, home, NULL, NULL };

	snprintf(tmpdir, sizeof(tmpdir), "TMPDIR=%s", workdir);
	snprintf(home, sizeof(home), "HOME=%s", workdir);
	env[6] = loader_path();
	environ = env;
}

static void make_workdir(void)
{
	const char *parent = getenv(PARENT_ENV) ? getenv(PARENT_ENV) : getenv("TMPDIR");

	snprintf(workdir, sizeof(workdir), "%s/repro.XXXXXX", parent ? parent : "/tmp");
	if (!mkdtemp(workdir) || chdir(workdir) || !getcwd(workdir, sizeof(workdir)))
		fail("cannot make a working directory");
}

static void reset_signals(void)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t none;
	int sig;

	for (sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, &dfl, NULL);
	signal(SIGXFSZ, SIG_IGN);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	umask(022);
}

/* 0 and 1 on /dev/null, 2 on the stderr file, nothing else open but the
 * copies this program reports through. */
static void set_descriptors(void)
{
	int null, err;

	close_range(3, ~0U, 0);
	report_out = fcntl(1, F_DUPFD_CLOEXEC, REPORT_FD);
	report_err = fcntl(2, F_DUPFD_CLOEXEC, REPORT_FD);
	null = open("/dev/null", O_RDWR);
	if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0)
		fail("/dev/null");
	close(null);
	snprintf(stderr_path, sizeof(stderr_path), "%s.stderr", workdir);
	err = open(stderr_path, O_RDWR | O_CREAT | O_EXCL, 0644);
	if (err < 0 || dup2(err, 2) < 0)
		fail(stderr_path);
	close(err);
}

/* fd, moved up among the descriptors this program keeps for itself. */
static int kept(int fd)
{
	int high = fd < 0 ? -1 : fcntl(fd, F_DUPFD_CLOEXEC, REPORT_FD);

	if (fd >= 0)
		close(fd);
	return high;
}

static void hold_workdir(void)
{
	char *slash = strrchr(workdir, '/');

	*slash = '\0';
	parent_fd = kept(open(slash == workdir ? "/" : workdir, O_RDONLY | O_DIRECTORY));
	*slash = '/';
	workdir_fd = kept(open(workdir, O_RDONLY | O_DIRECTORY));
	if (parent_fd < 0 || workdir_fd < 0)
		fail("cannot hold the working directory open");
}

/* nobody's ids, NOBODY's where there is no such user, looked up in a child
 * of this process, as trebuchet's harness does (harness/world.c): the name
 * service's modules and buffers would otherwise be loaded into this heap, and
 * what a call does with freed memory hangs on the heap's exact layout. */
static void nobody_ids(uid_t *uid, gid_t *gid)
{
	struct { int found; uid_t uid; gid_t gid; } ids = { 0 };
	int p[2];
	pid_t pid;

	*uid = NOBODY;
	*gid = NOBODY;
	if (pipe2(p, O_CLOEXEC))
		return;
	pid = fork();
	if (pid == 0) {
		struct passwd *pw = getpwnam("nobody");

		if (pw)
			ids = (typeof(ids)){ 1, pw->pw_uid, pw->pw_gid };
		_exit(write(p[1], &ids, sizeof(ids)) != (ssize_t)sizeof(ids));
	}
	close(p[1]);
	if (pid > 0 && read(p[0], &ids, sizeof(ids)) == (ssize_t)sizeof(ids) && ids.found) {
		*uid = ids.uid;
		*gid = ids.gid;
	}
	close(p[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

static void become_nobody(uid_t uid, gid_t gid)
{
	limit(RLIMIT_NPROC, 4096);
	if (chown(workdir, uid, gid) || chown(stderr_path, uid, gid) || setgroups(0, NULL) ||
	    setgid(gid) || setuid(uid))
		fail("cannot become nobody");
}

void repro_enter(char **argv)
{
	uid_t uid = NOBODY;
	gid_t gid = NOBODY;

	settle(argv);
	/* looked up before the descriptors are closed: it reads /etc/passwd */
	if (geteuid() == 0)
		nobody_ids(&uid, &gid);
	make_workdir();
	take_environment();
	reset_signals();
	soft_limit(RLIMIT_NOFILE, 1024);
	set_descriptors();
	hold_workdir();
	limit(RLIMIT_FSIZE, (rlim_t)64 << 20);
	limit(RLIMIT_AS, (rlim_t)1 << 30);
	if (geteuid() == 0)
		become_nobody(uid, gid);
	dprintf(report_err, "repro: working in %s\nrepro: the call's stderr goes to %s\n",
		workdir, stderr_path);
}

/* Removes what dir holds, with no heap (the call may have broken it). */
static void remove_tree(int dir)
{
	char buf[4096] __attribute__((aligned(8)));
	ssize_t n, off;

	while ((n = getdents64(dir, buf, sizeof(buf))) > 0) {
		for (off = 0; off < n; off += ((struct dirent64 *)(buf + off))->d_reclen) {
			const char *name = ((struct dirent64 *)(buf + off))->d_name;
			int sub;

			if (!strcmp(name, ".") || !strcmp(name, "..") ||
			    !unlinkat(dir, name, 0) || errno != EISDIR)
				continue;
			sub = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
			if (sub >= 0) {
				remove_tree(sub);
				close(sub);
			}
			unlinkat(dir, name, AT_REMOVEDIR);
		}
	}
}

static void remove_workdir(void)
{
	lseek(workdir_fd, 0, SEEK_SET);
	remove_tree(workdir_fd);
	if (unlinkat(parent_fd, strrchr(workdir, '/') + 1, AT_REMOVEDIR))
		dprintf(report_err, "repro: could not remove %s: %s\n", workdir, strerror(errno));
	if (unlinkat(parent_fd, strrchr(stderr_path, '/') + 1, 0))
		dprintf(report_err, "repro: could not remove %s: %s\n", stderr_path, strerror(errno));
}

void repro_calling(const char *call)
{
	dprintf(report_err, "repro: calling %s\n", call);
}

static void __attribute__((noreturn)) returned(const char *function, const char *ret, int err,
						int error_reported)
{
	const char *name = err ? strerrorname_np(err) : NULL;

	dprintf(report_out, "%s returned %s, errno %d%s%s%s, error %s\n", function, ret, err,
		name ? " (" : "", name ? name : "", name ? ")" : "",
		error_reported ? "reported" : "not reported");
	remove_workdir();
	/* _exit, as the test process: the call may have left a stream that an
	 * exit-time flush would trip over */
	_exit(0);
}

void repro_returned(const char *function, long long ret, int err, int error_reported)
{
	char text[32];

	snprintf(text, sizeof(text), "%lld", ret);
	returned(function, text, err, error_reported);
}

void repro_returned_unsigned(const char *function, unsigned long long ret, int err,
			     int error_reported)
{
	char text[32];

	snprintf(text, sizeof(text), "%llu", ret);
	returned(function, text, err, error_reported);
}

/* As trebuchet says a floating return (Python's repr: the fewest digits
 * that read back the same double, a whole number with ".0", inf; and NaN
 * as the store keeps it), save that a number from 1e16 on, or under 1e-4,
 * takes an exponent sooner here. */
void repro_returned_floating(const char *function, double ret, int err, int error_reported)
{
	char text[40];
	int digits = 1;

	if (isnan(ret))
		returned(function, "NaN", err, error_reported);
	do
		snprintf(text, sizeof(text), "%.*g", digits, ret);
	while (strtod(text, NULL) != ret && ++digits <= 17);
	if (isfinite(ret) && !strpbrk(text, ".e"))
		strcat(text, ".0");
	returned(function, text, err, error_reported);
}

void repro_not_built(const char *param, const char *type, const char *name)
{
	int err;
	const char *why = tb_setup_reason(&err);

	dprintf(report_err, "repro: parameter %s (%s:%s) cannot be built here"
		" (trebuchet's outcome SETUP): %s%s%s\n", param, type, name, why,
		*why && err ? ", " : "", err ? strerror(err) : *why ? "" : "its setup gave no reason");
	remove_workdir();
	_exit(3);
}
