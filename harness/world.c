/*
 * The world a test process sees (world.h): the same whoever started
 * trebuchet, from whatever shell, directory, make or CI job.
 *
 * Test values that point into freed or uninitialised memory (FREED,
 * FILE:CLOSED, a command string read from a freed block) make a case's fate
 * depend on the exact heap and stack layout the test process inherits.  That
 * layout is decided by what the executor was handed: glibc copies the
 * environment into a heap array the first time a variable is added, so one
 * more variable in the caller's environment moved every later heap block
 * and turned a SIGABRT into a SIGSEGV.  So the executor, before anything
 * else, re-executes itself into a world of its own making:
 *
 *   - personality exactly PER_LINUX | ADDR_NO_RANDOMIZE (no randomised
 *     addresses; no inherited quirks such as READ_IMPLIES_EXEC);
 *   - a soft stack limit of 8 MiB, which fixes where mmap() places things;
 *   - an environment of our own (below), nothing else passed through;
 *   - argument and environment strings padded to a fixed count and a fixed
 *     number of bytes, so the stack starts at the same address whatever
 *     the paths and options were.
 *
 * The environment a test process sees, and why:
 *   PATH=/usr/local/bin:/usr/bin:/bin  where a tested function finds programs
 *                                      (sfpopen, popen, system)
 *   LC_ALL=C, TZ=UTC                   no locale or time zone of the caller's
 *   TMPDIR, HOME                       the run's scratch directory (main.c)
 *   GLIBC_TUNABLES                     malloc's tcache off (freed blocks hold
 *                                      no per-process random key); the
 *                                      caller's tunables, MALLOC_CHECK_ and
 *                                      MALLOC_PERTURB_ are dropped
 *   LD_LIBRARY_PATH                    passed through when set: it is how a
 *                                      user points the loader at the library
 *                                      under test
 * The caller's TMPDIR is kept, under another name, only to choose where the
 * scratch directory goes, and TREBUCHET_SHARE only to name the directory
 * the sandbox shares with test processes (isolation.h).
 *
 * Under AddressSanitizer (`trebuchet run --sanitizer address`: the caller
 * sets TREBUCHET_EXEC_SANITIZER=address, TREBUCHET_EXEC_SANITIZER_RUNTIME
 * to libasan's path and TREBUCHET_EXEC_SANITIZER_ALLOC_MB to the run's
 * --memory-mb), the world also holds, for the executor and every test
 * process (and what they execute):
 *   LD_PRELOAD=<libasan>               the plugin is built with ASan but the
 *                                      executor is not: the runtime must be
 *                                      loaded first, before the plugin
 *   ASAN_OPTIONS (fixed, nothing of the caller's), one option each because:
 *     detect_leaks=0                   a test process exits at once after
 *                                      its call; what it did not free is no
 *                                      finding (and LeakSanitizer needs
 *                                      ptrace, refused in the sandbox)
 *     abort_on_error=1                 a report ends in SIGABRT: the case is
 *                                      an ABORT with the report in its stderr
 *     halt_on_error=1                  the first report ends the case
 *     handle_segv=0, handle_sigbus=0,  the harness's own crash handler
 *     handle_sigfpe=0,                 (crashsite.c) records where a crash
 *     allow_user_segv_handler=1        happened, as in a plain run
 *     handle_abort=0                   the same for SIGABRT
 *     detect_stack_use_after_return=0  its fake stacks are allocated at
 *                                      random points and would move what a
 *                                      case's stack values see
 *     verify_asan_link_order=0         the runtime comes by LD_PRELOAD, not
 *                                      as the executor's first library
 *     allocator_may_return_null=1,     the address-space limit cannot coexist
 *     max_allocation_size_mb=N         with ASan's terabytes of shadow memory
 *                                      (testprocess.c sets none): one allocation
 *                                      above --memory-mb fails as it would
 *                                      under the limit, returning NULL
 *     symbolize=0                      the report names each place as
 *                                      (MODULE+0xOFFSET); the reporter names
 *                                      it (src/trebuchet/findings/sanitizer_report.py).  A
 *                                      symbolizer here reads the module by
 *                                      its path, which the sandbox hides
 *                                      when the checkout is under /tmp and
 *                                      nobody cannot read under /root: the
 *                                      report depended on the folder
 *     print_legend=0                   the shadow bytes' legend, the same in
 *                                      every report, would fill the stored
 *                                      stderr tail (sanitizer.c)
 *
 * Under UndefinedBehaviorSanitizer (`--sanitizer undefined`) the same way,
 * LD_PRELOAD=<libubsan> and UBSAN_OPTIONS (fixed):
 *     halt_on_error=1, abort_on_error=1  the first report ends the case in
 *                                      SIGABRT (the plugin is also built
 *                                      with -fno-sanitize-recover=all)
 *     print_stacktrace=0               the report is its one line, "FILE:
 *                                      LINE:COL: runtime error: WHAT", which
 *                                      the stored stderr tail keeps (the
 *                                      crash handler records the stack)
 *     handle_segv=0, handle_sigbus=0,  as for ASan: the harness's crash
 *     handle_sigfpe=0, handle_abort=0, handler records crash sites
 *     allow_user_segv_handler=1
 *     symbolize=0                      as for ASan; the one line's source
 *                                      place is compiled in, not looked up
 * UBSan keeps no shadow memory: the address-space limit stays.
 *
 * What is inherited across fork rather than exec (signal dispositions, the
 * umask, the descriptor limit) is normalised once in each fork server by
 * tb_world_server(), and so are the heap and the stack (tb_world_memory()).
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <stdint.h>
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

#include "world.h"

#define SETTLED_ENV "TREBUCHET_EXEC_SETTLED"
#define PAD_ENV "TREBUCHET_EXEC_PAD"
#define SCRATCH_ENV "TREBUCHET_EXEC_SCRATCH_PARENT"
#define SHARE_ENV "TREBUCHET_EXEC_SHARE"
#define SANITIZER_ENV "TREBUCHET_EXEC_SANITIZER"
#define RUNTIME_ENV "TREBUCHET_EXEC_SANITIZER_RUNTIME"
#define ALLOC_MB_ENV "TREBUCHET_EXEC_SANITIZER_ALLOC_MB"
#define UBSAN_OPTIONS_TEXT \
	"halt_on_error=1:abort_on_error=1:print_stacktrace=0:handle_segv=0:" \
	"handle_sigbus=0:handle_sigfpe=0:handle_abort=0:allow_user_segv_handler=1:symbolize=0"
#define UBSAN_OPTIONS_FIXED "UBSAN_OPTIONS=" UBSAN_OPTIONS_TEXT
#define ASAN_OPTIONS_FIXED \
	"detect_leaks=0:abort_on_error=1:halt_on_error=1:handle_segv=0:handle_sigbus=0:" \
	"handle_sigfpe=0:allow_user_segv_handler=1:handle_abort=0:" \
	"detect_stack_use_after_return=0:verify_asan_link_order=0:" \
	"allocator_may_return_null=1:symbolize=0:print_legend=0:max_allocation_size_mb="
#define STACK_LIMIT ((rlim_t)8 << 20)
/* argv + environment after padding: this many strings, this many bytes
 * (the executor's path included).  Larger command lines run unpadded. */
#define PADDED_STRINGS 64
#define PADDED_BYTES (64 << 10)
#define NOFILE_LIMIT 1024
#define PATH_ENTRY 4200
/* The test processes' heap begins this much past the heap's start, where
 * the executor's own heap up to the fork fits (about 40 KiB for sfio);
 * at a multiple of it for a larger one (same_heap). */
#define HEAP_RESERVE ((uintptr_t)1 << 20)
#define HEAP_FAR ((uintptr_t)1 << 30)  /* farther, a block is not on that heap */
/* The padding up to there goes in pieces below malloc's mmap threshold
 * (128 KiB), so that it comes from the heap, not from mmap. */
#define HEAP_PIECE ((uintptr_t)64 << 10)
#define CHUNK_MIN 32  /* malloc's smallest chunk; a request of n takes n + 8 rounded up to 16 */
/* How much of the stack below a fork server's frame is cleared: more than
 * the executor ever used there (its whole stack mapping is 200 KiB, 64 KiB
 * of it argument and environment strings). */
#define STACK_SCRUB (128 << 10)

/* What every test process's environment holds, in this order. */
static char *const fixed_env[] = {
	"PATH=/usr/local/bin:/usr/bin:/bin",
	"LC_ALL=C",
	"TZ=UTC",
	"GLIBC_TUNABLES=glibc.malloc.tcache_count=0",
};
#define NFIXED (sizeof(fixed_env) / sizeof(fixed_env[0]))

/* The settled executor's world: static, so that nothing here reaches the
 * heap that test processes inherit. */
static char scratch_parent[PATH_ENTRY], share[PATH_ENTRY];
static char libpath_entry[8192], tmpdir_entry[PATH_ENTRY], home_entry[PATH_ENTRY];
static char preload_entry[PATH_ENTRY], options_entry[512], sanitizer[16];
static char *world_env[NFIXED + 6];
/* Where the heap began: the break when the settled executor started
 * (fixed, addresses not randomised); 0 when unsettled. */
static uintptr_t heap_start;

/* "AS=value" of the caller's variable NAME in buf; NULL when unset or too long. */
static char *carried(const char *name, const char *as, char *buf, size_t len)
{
	const char *v = getenv(name);

	if (!v || (size_t)snprintf(buf, len, "%s=%s", as, v) >= len)
		return NULL;
	return buf;
}

static size_t strings_size(char *const *list, size_t *count)
{
	size_t bytes = 0;

	for (*count = 0; list[*count]; (*count)++)
		bytes += strlen(list[*count]) + 1;
	return bytes;
}

/* Pads env (n entries, room for PADDED_STRINGS + 1) with empty PAD_ENV
 * entries up to PADDED_STRINGS strings in argv and env together, the last
 * one long enough to make PADDED_BYTES. */
static void pad_env(char **argv, const char *self, char **env, size_t n)
{
	static char pads[PADDED_STRINGS][sizeof(PAD_ENV) + 1];
	static char last[PADDED_BYTES];
	size_t argc, envc, bytes, empty, fill;

	bytes = strings_size(argv, &argc) + strings_size(env, &envc) + strlen(self) + 1;
	if (argc + envc >= PADDED_STRINGS)
		return;
	empty = PADDED_STRINGS - argc - envc - 1;
	/* the last pad: "PAD_ENV=" (sizeof(PAD_ENV) bytes), fill bytes, NUL */
	if (bytes + empty * sizeof(pads[0]) + sizeof(PAD_ENV) + 1 > PADDED_BYTES)
		return;
	fill = PADDED_BYTES - bytes - empty * sizeof(pads[0]) - sizeof(PAD_ENV) - 1;
	for (size_t i = 0; i < empty; i++) {
		memcpy(pads[i], PAD_ENV "=", sizeof(pads[i]));
		env[n++] = pads[i];
	}
	memcpy(last, PAD_ENV "=", sizeof(PAD_ENV));
	memset(last + sizeof(PAD_ENV), 'x', fill);
	last[sizeof(PAD_ENV) + fill] = '\0';
	env[n++] = last;
	env[n] = NULL;
}

/* The sanitizer's entries (header comment) into env, when the caller asks
 * for one; how many.  An unknown sanitizer, or one without its runtime,
 * is refused by the settled executor (tb_world_sanitizer). */
static size_t sanitizer_env(char **env)
{
	static char name[sizeof(SANITIZER_ENV) + sizeof(sanitizer)];
	const char *asked = getenv(SANITIZER_ENV), *runtime = getenv(RUNTIME_ENV);
	const char *mb = getenv(ALLOC_MB_ENV);

	if (!asked || !*asked)
		return 0;
	snprintf(name, sizeof(name), "%s=%s", SANITIZER_ENV, asked);
	env[0] = name;
	if (!runtime || !*runtime)
		return 1;
	if (!strcmp(asked, "address"))
		snprintf(options_entry, sizeof(options_entry), "ASAN_OPTIONS=" ASAN_OPTIONS_FIXED
			 "%ld", mb && atol(mb) > 0 ? atol(mb) : 1024L);
	else if (!strcmp(asked, "undefined"))
		snprintf(options_entry, sizeof(options_entry), "%s", UBSAN_OPTIONS_FIXED);
	else
		return 1;
	snprintf(preload_entry, sizeof(preload_entry), "LD_PRELOAD=%s", runtime);
	env[1] = preload_entry;
	env[2] = options_entry;
	return 3;
}

/* The environment handed to the re-executed executor. */
static void build_env(char **argv, const char *self, char **env)
{
	static char parent[PATH_ENTRY + 64], shared[PATH_ENTRY + 64];
	static char libpath[sizeof(libpath_entry)];
	size_t n = 0, i;

	for (i = 0; i < NFIXED; i++)
		env[n++] = fixed_env[i];
	env[n++] = SETTLED_ENV "=1";
	if ((env[n] = carried("TMPDIR", SCRATCH_ENV, parent, sizeof(parent))))
		n++;
	if ((env[n] = carried("TREBUCHET_SHARE", SHARE_ENV, shared, sizeof(shared))))
		n++;
	if ((env[n] = carried("LD_LIBRARY_PATH", "LD_LIBRARY_PATH", libpath, sizeof(libpath))))
		n++;
	n += sanitizer_env(env + n);
	env[n] = NULL;
	pad_env(argv, self, env, n);
}

/* Sets the soft limit of resource to value, or to the hard limit if lower. */
static void soft_limit(int resource, rlim_t value)
{
	struct rlimit rl;

	if (getrlimit(resource, &rl) == 0) {
		rl.rlim_cur = rl.rlim_max < value ? rl.rlim_max : value;
		setrlimit(resource, &rl);
	}
}

static void settle_process(void)
{
	if (personality(PER_LINUX | ADDR_NO_RANDOMIZE) == -1)
		personality(PER_LINUX);  /* refused (some containers): still plain */
	soft_limit(RLIMIT_STACK, STACK_LIMIT);
}

/* Settled: keep what was carried, then swap in the test processes'
 * environment (a static array: setenv() would allocate by its size). */
static void take_world(void)
{
	const char *parent = getenv(SCRATCH_ENV), *shared = getenv(SHARE_ENV);
	size_t n = 0, i;

	snprintf(scratch_parent, sizeof(scratch_parent), "%s", parent ? parent : "/tmp");
	snprintf(share, sizeof(share), "%s", shared ? shared : "");
	for (i = 0; i < NFIXED; i++)
		world_env[n++] = fixed_env[i];
	if (carried("LD_LIBRARY_PATH", "LD_LIBRARY_PATH", libpath_entry, sizeof(libpath_entry)))
		world_env[n++] = libpath_entry;
	snprintf(sanitizer, sizeof(sanitizer), "%s",
		 getenv(SANITIZER_ENV) ? getenv(SANITIZER_ENV) : "");
	if (carried("LD_PRELOAD", "LD_PRELOAD", preload_entry, sizeof(preload_entry)))
		world_env[n++] = preload_entry;
	if (carried("ASAN_OPTIONS", "ASAN_OPTIONS", options_entry, sizeof(options_entry)) ||
	    carried("UBSAN_OPTIONS", "UBSAN_OPTIONS", options_entry, sizeof(options_entry)))
		world_env[n++] = options_entry;
	world_env[n] = NULL;
	environ = world_env;
}

/* The executor's own real path, so that it keeps its name (scratch.c looks
 * for it): /proc's link, or where there is no /proc (a chroot entered
 * without mounting it, where Debian's bare systems start) the name it was
 * executed by, resolved.  The second matters as much as the first: without
 * the exec, addresses stay randomised and the caller's environment stays,
 * and freed-memory cases turned from run to run (freopen of a freed
 * stream: 222 of its 5000 cases differed between two runs in such a
 * chroot). */
static int own_path(char *self, size_t len)
{
	const char *named = (const char *)getauxval(AT_EXECFN);
	ssize_t n = readlink("/proc/self/exe", self, len - 1);

	if (n > 0) {
		self[n] = '\0';
		return 0;
	}
	return named && len >= PATH_MAX && realpath(named, self) ? 0 : -1;
}

void tb_world_settle(char **argv)
{
	static char *env[PADDED_STRINGS + 1];
	static char self[PATH_MAX];

	if (getenv(SETTLED_ENV)) {
		heap_start = (uintptr_t)sbrk(0);
		take_world();
		return;
	}
	settle_process();
	if (!own_path(self, sizeof(self))) {
		build_env(argv, self, env);
		execve(self, argv, env);
	}
	/* could not re-execute: carry on unsettled, in the caller's environment
	 * (without a sanitizer's runtime: tb_world_sanitizer_loaded says so) */
	snprintf(sanitizer, sizeof(sanitizer), "%s",
		 getenv(SANITIZER_ENV) ? getenv(SANITIZER_ENV) : "");
	snprintf(scratch_parent, sizeof(scratch_parent), "%s",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	snprintf(share, sizeof(share), "%s",
		 getenv("TREBUCHET_SHARE") ? getenv("TREBUCHET_SHARE") : "");
}

const char *tb_world_sanitizer(void)
{
	return sanitizer;
}

int tb_world_sanitizer_loaded(void)
{
	/* a symbol of the runtime, there only when it was preloaded */
	const char *entry = !strcmp(sanitizer, "address") ? "__asan_init" :
			    !strcmp(sanitizer, "undefined") ? "__ubsan_handle_add_overflow" : NULL;

	return entry && getenv("LD_PRELOAD") && dlsym(RTLD_DEFAULT, entry);
}

/* UBSan's runtime, loaded into a plain executor, starts at the first report,
 * in a test process, and reads UBSAN_OPTIONS from /proc/self/environ, which
 * a test process turned nobody cannot read: its options would be the
 * defaults (exit 1, no abort).  The options it takes by default come from
 * here instead (the executor exports its symbols: -rdynamic). */
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void)
{
	return UBSAN_OPTIONS_TEXT;
}

int tb_world_shadow(void)
{
	return !strcmp(sanitizer, "address");
}

const char *tb_world_scratch_parent(void)
{
	return scratch_parent;
}

const char *tb_world_share(void)
{
	return share[0] ? share : NULL;
}

void tb_world_enter(const char *scratch)
{
	size_t n = 0;

	snprintf(tmpdir_entry, sizeof(tmpdir_entry), "TMPDIR=%s", scratch);
	snprintf(home_entry, sizeof(home_entry), "HOME=%s", scratch);
	if (environ != world_env) {
		putenv(tmpdir_entry);  /* unsettled: the caller's environment */
		putenv(home_entry);
		return;
	}
	while (world_env[n])
		n++;
	world_env[n++] = tmpdir_entry;
	world_env[n++] = home_entry;
	world_env[n] = NULL;
}

void tb_world_server(void)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	int sig;

	/* an ignored signal survives fork and exec: nohup, a CI runner or a
	 * shell that ignores SIGPIPE or SIGINT would change what a test sees */
	for (sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, &dfl, NULL);
	umask(022);
	soft_limit(RLIMIT_NOFILE, NOFILE_LIMIT);
}

/* Every free chunk in malloc's bins taken (and kept): 0, or -1 when that
 * cannot be done.  malloc_trim first merges the fast bins, which a small
 * request would never search; then requests of one byte each take a chunk
 * of a bin or carve one, until none holds anything (mallinfo2: free bytes
 * but the top chunk's). */
static int drain_bins(void)
{
	struct mallinfo2 mi;
	size_t binned, before = SIZE_MAX;

	malloc_trim(0);
	for (;;) {
		mi = mallinfo2();
		binned = mi.fordblks - mi.keepcost;
		if (!binned)
			return 0;
		if (binned >= before || !malloc(1))
			return -1;  /* no longer taken from the bins */
		before = binned;
	}
}

/* Takes exactly gap bytes off the top chunk, in chunks of HEAP_PIECE or
 * less; 0, or -1 when gap cannot be made of whole chunks. */
static int take_from_top(uintptr_t gap)
{
	while (gap) {
		uintptr_t piece = gap > HEAP_PIECE + CHUNK_MIN ? HEAP_PIECE : gap;

		if (piece < CHUNK_MIN || piece % 16 || !malloc(piece - 8))
			return -1;
		gap -= piece;
	}
	return 0;
}

/* The heap every test process inherits, the same whatever the executor did
 * before the fork.  A value that allocates and frees (FREED, a released
 * handle, a stream fclosed) or a library that reads freed memory finds
 * the blocks its process allocated where the heap's top chunk began, of
 * the size the top then had, and any chunk the bins held.  All of these
 * followed what the executor had allocated: the dynamic loader copies a
 * plugin's path into its heap three times (the name, the real name, the
 * directory for $ORIGIN) and splits a library's RUNPATH into allocated
 * entries, so a checkout at a path of another length moved every later
 * block (a plugin reached by a 12-byte path put the top chunk 0x70 bytes
 * lower than by its checkout's path, and the top 0x70 bytes longer).  So
 * in each fork server, last before its first fork: the bins emptied, the
 * top chunk moved to HEAP_RESERVE past the heap's start, and the heap
 * trimmed to end one page after it.  The executor's blocks below stay
 * where they are; nothing a test process allocates is placed among them.
 * Left as it is under AddressSanitizer or Valgrind (their own allocator),
 * or when unsettled (addresses randomised anyway).
 */
static void same_heap(void)
{
	uintptr_t page = (uintptr_t)getpagesize(), goal, top;
	char *probe;

	if (!heap_start || tb_world_shadow() || drain_bins())
		return;
	/* a chunk of CHUNK_MIN bytes off the top: the top now begins after it */
	probe = malloc(1);
	top = (uintptr_t)probe + CHUNK_MIN - 16;
	if (!probe || top < heap_start || top - heap_start > HEAP_FAR)
		return;  /* not the heap at the break: another allocator's */
	/* past a larger executor's heap, the next multiple of the reserve */
	goal = heap_start + (top - heap_start + HEAP_RESERVE) / HEAP_RESERVE * HEAP_RESERVE;
	goal = (goal + page - 1) / page * page;
	if (goal - top < CHUNK_MIN)  /* no chunk is that small */
		goal += HEAP_RESERVE;
	if (take_from_top(goal - top))
		return;
	malloc_trim(0);
}

/* The stack below the fork server's frame, where a test process's calls
 * run, cleared.  It held what the executor's deeper calls left there: the
 * dynamic loader's pointers to the blocks above (which moved with the
 * plugin's path), the scratch directory's random name, stack canaries
 * (random at each exec): a call that reads a variable it never set read
 * them. */
static __attribute__((noinline)) void same_stack(void)
{
	char below[STACK_SCRUB];

	explicit_bzero(below, sizeof(below));
}

void tb_world_memory(void)
{
	same_heap();
	same_stack();
}

int tb_world_under_valgrind(void)
{
	const char *preload = getenv("LD_PRELOAD");

	return preload && strstr(preload, "/vgpreload_");
}

int tb_world_user(const char *name, uid_t *uid, gid_t *gid)
{
	struct { int found; uid_t uid; gid_t gid; } ids = { 0 };
	int p[2];
	ssize_t n;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid == 0) {
		struct passwd *pw = getpwnam(name);

		if (pw)
			ids = (typeof(ids)){ 1, pw->pw_uid, pw->pw_gid };
		_exit(write(p[1], &ids, sizeof(ids)) != (ssize_t)sizeof(ids));
	}
	close(p[1]);
	n = pid < 0 ? -1 : read(p[0], &ids, sizeof(ids));
	close(p[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	if (n != (ssize_t)sizeof(ids) || !ids.found)
		return -1;
	*uid = ids.uid;
	*gid = ids.gid;
	return 0;
}

