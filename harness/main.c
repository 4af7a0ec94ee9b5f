/*
 * trebuchet-exec: runs one campaign of one target into the store.
 *
 * The order matters: the plugin is loaded and resolved (small), then the
 * fork servers (one per core) are forked while this process is still small,
 * and only then is the store opened and the case lists allocated.  Exit
 * codes: exitcodes.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "campaign.h"
#include "crashsite.h"
#include "exitcodes.h"
#include "listing.h"
#include "options.h"
#include "pins.h"
#include "repro.h"
#include "sanitizer.h"
#include "scratch.h"
#include "world.h"

#ifndef TB_VERSION
#define TB_VERSION "0.0.0"
#endif

static volatile sig_atomic_t interrupted;
static pid_t caller;  /* the parent it started with */

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* The executor lives and dies with whoever started it (the `trebuchet`
 * CLI): its parent's death is a SIGTERM, which stores what is done and
 * stops, so a killed CLI leaves no run going on behind a user's back. */
static void die_with_parent(void)
{
	caller = getppid();
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() == 1)
		raise(SIGTERM);
}

static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };  /* no SA_RESTART */

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static void sandbox_config(const struct tb_options *o, struct tb_sandbox *sb)
{
	uid_t uid = 65534;  /* where there is no nobody: its usual ids */
	gid_t gid = 65534;
	/* whole seconds: the granularity of RLIMIT_CPU */
	rlim_t cpu = (rlim_t)((o->timeout_ms + 999) / 1000);

	tb_world_user("nobody", &uid, &gid);
	*sb = (struct tb_sandbox){
		.devnull_fd = open("/dev/null", O_RDWR),
		.drop_privileges = geteuid() == 0,
		.uid = uid,
		.gid = gid,
		.address_space = (rlim_t)o->memory_mb << 20,
		.file_size = (rlim_t)64 << 20,
		/* the watchdog of a call that computes (see forkserver.c) */
		.cpu_seconds = cpu,
		.processes = 4096,
		.isolation = o->no_sandbox ? TB_ISOLATION_NONE : tb_isolation_best(),
	};
}

/* Fills sel with the function indices of the comma-separated list (all when
 * NULL); on an unknown name prints it and returns -1. */
static int select_functions(const struct tb_target *t, const char *list, int *sel, int *n)
{
	char *copy, *name, *save;

	*n = 0;
	if (!list || !*list) {
		for (*n = 0; *n < t->nfunctions; (*n)++)
			sel[*n] = *n;
		return 0;
	}
	copy = strdup(list);
	for (name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		int fn = tb_target_function(t, name), i;

		if (fn < 0) {
			fprintf(stderr, "trebuchet-exec: target %s has no function '%s'\n",
				t->plugin->target, name);
			free(copy);
			return -1;
		}
		for (i = 0; i < *n; i++)
			if (sel[i] == fn) {
				fprintf(stderr, "trebuchet-exec: function '%s' is listed twice\n", name);
				free(copy);
				return -1;
			}
		sel[(*n)++] = fn;
	}
	free(copy);
	return 0;
}

static void run_info(const struct tb_options *o, const struct tb_target *t,
		     const int *sel, int n, struct tb_run_info *info)
{
	struct utsname u;
	size_t used = 0;
	int i;

	memset(info, 0, sizeof(*info));
	snprintf(info->target, sizeof(info->target), "%s", t->plugin->target);
	snprintf(info->spec, sizeof(info->spec), "%s", o->spec ? o->spec : "");
	snprintf(info->extends, sizeof(info->extends), "%s",
		 t->plugin->extends ? t->plugin->extends : "");
	snprintf(info->target_version, sizeof(info->target_version), "%s",
		 t->plugin->version ? t->plugin->version() : "");
	uname(&u);
	snprintf(info->host, sizeof(info->host), "%s (%s %s %s)", u.nodename, u.sysname,
		 u.release, u.machine);
	/* the platform, with the sandbox level: outcomes on freed memory
	 * legitimately differ between C libraries and their versions */
	snprintf(info->kernel, sizeof(info->kernel), "%s %s %s", u.sysname, u.release, u.machine);
	if (!confstr(_CS_GNU_LIBC_VERSION, info->libc, sizeof(info->libc)))
		snprintf(info->libc, sizeof(info->libc), "unknown");
	snprintf(info->harness_version, sizeof(info->harness_version), "%s", TB_VERSION);
	info->seed = o->seed;
	info->cap = o->cap;
	info->timeout_ms = o->timeout_ms;
	info->jobs = o->jobs;
	snprintf(info->dictionary, sizeof(info->dictionary), "%s", t->dictionary);
	tb_target_dictionary_digest(t, info->dictionary_digest, sizeof(info->dictionary_digest));
	snprintf(info->spec_digest, sizeof(info->spec_digest), "%s", t->plugin->spec_digest);
	info->shard = o->shard;
	info->shards = o->shards;
	snprintf(info->pins, sizeof(info->pins), "%s", o->pins ? o->pins : "");
	info->listed = o->listed != NULL;
	for (i = 0; i < n && used < sizeof(info->functions); i++)
		used += (size_t)snprintf(info->functions + used, sizeof(info->functions) - used,
					 "%s%s", i ? "," : "", t->functions[sel[i]].fn->name);
}

/* --pins (or a resumed run's): parsed once, before the run is stored. */
static int pin(const struct tb_options *o, const struct tb_target *t, struct tb_campaign *c)
{
	struct tb_pins *pins;
	char err[512];

	if (!o->pins)
		return 0;
	if (strlen(o->pins) >= sizeof(((struct tb_run_info *)0)->pins)) {
		fprintf(stderr, "trebuchet-exec: --pins: %zu bytes, more than a run stores (%zu)\n",
			strlen(o->pins), sizeof(((struct tb_run_info *)0)->pins) - 1);
		return -1;
	}
	pins = calloc((size_t)t->nfunctions, sizeof(*pins));
	if (!pins || tb_pins_parse(o->pins, t, pins, err, sizeof(err))) {
		fprintf(stderr, "trebuchet-exec: --pins: %s\n", pins ? err : "out of memory");
		return -1;
	}
	c->pins = pins;
	return 0;
}

/* --listed FILE: its cases, each of a selected function, read before the
 * run is stored; on a bad line one line naming it. */
static int read_listed(const char *path, const struct tb_target *t, const struct tb_campaign *c,
		       const int *sel, struct tb_repro_case **cases, size_t *n)
{
	size_t k;
	int i, selected;

	if (tb_repro_read_cases(path, t, cases, n))
		return -1;
	for (k = 0; k < *n; k++) {
		for (i = selected = 0; i < c->nselected; i++)
			selected |= sel[i] == (*cases)[k].fn;
		if (!selected) {
			fprintf(stderr, "trebuchet-exec: %s lists a case of %s, which is not"
				" selected\n", path, t->functions[(*cases)[k].fn].fn->name);
			free(*cases);
			return -1;
		}
	}
	return 0;
}

/* The listed cases stored with the run's row, in its transaction. */
static int store_listed(const struct tb_target *t, struct tb_campaign *c,
			const struct tb_repro_case *cases, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (tb_store_add_listed(c->store, c->run_id, t->functions[cases[k].fn].fn->name,
					cases[k].index))
			return -1;
	c->listed = 1;
	return tb_store_commit(c->store);
}

/* Opens the store and starts a run, or finds the run to resume (whose
 * stored seed, cap, selection, shard, pins and listed cases then win over
 * the command line). */
static int open_run(struct tb_options *o, const struct tb_target *t, struct tb_campaign *c,
		    int *sel)
{
	static struct tb_run_info info;
	struct tb_repro_case *listed = NULL;
	size_t nlisted = 0;
	char err[512];
	int found = 0;

	/* a store that is not there has nothing to resume: do not create it */
	if (o->resume && access(o->db, F_OK)) {
		fprintf(stderr, "trebuchet-exec: %s: no such store, so nothing to resume\n", o->db);
		return -1;
	}
	c->store = tb_store_open(o->db, err, sizeof(err));
	if (!c->store) {
		fprintf(stderr, "trebuchet-exec: %s\n", err);
		return -1;
	}
	if (tb_store_lock(c->store, o->db)) {
		fprintf(stderr, "trebuchet-exec: %s\n", tb_store_error(c->store));
		return -1;
	}
	if (o->resume) {
		found = tb_store_find_unfinished(c->store, t->plugin->target, &c->run_id, &info);
		if (found < 0) {
			fprintf(stderr, "trebuchet-exec: %s\n", tb_store_error(c->store));
			return -1;
		}
		if (!found) {
			fprintf(stderr, "trebuchet-exec: %s: no unfinished run of %s to resume\n",
				o->db, t->plugin->target);
			return -1;
		}
		if (strcmp(info.sanitizer, tb_world_sanitizer())) {
			fprintf(stderr, "trebuchet-exec: %s: the unfinished run of %s ran under %s%s;"
				" resume it %s\n", o->db, t->plugin->target,
				info.sanitizer[0] ? "the sanitizer " : "no sanitizer", info.sanitizer,
				info.sanitizer[0] ? "with --sanitizer" : "without --sanitizer");
			return -1;
		}
		if (strcmp(info.dictionary, t->dictionary)) {
			fprintf(stderr, "trebuchet-exec: %s: the unfinished run of %s draws from the"
				" %s dictionary; resume it with --dictionary %s\n", o->db,
				t->plugin->target, info.dictionary, info.dictionary);
			return -1;
		}
		o->functions = info.functions;
		o->seed = info.seed;
		o->cap = info.cap;
		o->shard = info.shard;
		o->shards = info.shards;
		o->pins = info.pins[0] ? info.pins : NULL;
		c->listed = info.listed;
	}
	if (select_functions(t, o->functions, sel, &c->nselected) || pin(o, t, c))
		return -1;
	if (!found && o->listed && read_listed(o->listed, t, c, sel, &listed, &nlisted))
		return -1;
	if (!found) {
		run_info(o, t, sel, c->nselected, &info);
		snprintf(info.sandbox, sizeof(info.sandbox), "%s",
			 tb_isolation_name(c->servers->isolation));
		snprintf(info.sanitizer, sizeof(info.sanitizer), "%s", tb_world_sanitizer());
		if (tb_store_begin_run(c->store, &info, info.listed, &c->run_id) ||
		    (o->listed && store_listed(t, c, listed, nlisted))) {
			fprintf(stderr, "trebuchet-exec: %s\n", tb_store_error(c->store));
			free(listed);
			return -1;
		}
		free(listed);
	}
	c->seed = o->seed;
	c->cap = o->cap;
	c->shard = o->shard;
	c->shards = o->shards;
	return 0;
}

/* The sandbox refused: one line, once the input is known good, so that a
 * bad input's message stays the one line it is everywhere. */
static void say_unsandboxed(const struct tb_server_pool *servers, int as_nobody)
{
	if (servers->refused[0])
		fprintf(stderr, "trebuchet-exec: no sandbox: %s; test processes see the "
			"filesystem, network and IPC as %s does, as before\n", servers->refused,
			as_nobody ? "nobody" : "this user");
}

/* --case (one case of one function) or --cases FILE: run, printed, nothing
 * stored. */
static int single_cases(const struct tb_options *o, const struct tb_target *t,
			struct tb_server_pool *pool, int as_nobody)
{
	struct tb_repro_case one, *cases = &one;
	size_t n = 1;
	int rc;

	if (o->cases_file) {
		if (tb_repro_read_cases(o->cases_file, t, &cases, &n))
			return TB_EXIT_INPUT;
	} else {
		one.fn = o->functions ? tb_target_function(t, o->functions) : -1;
		one.index = o->case_index;
		if (one.fn < 0) {
			fprintf(stderr, "trebuchet-exec: --case wants --functions naming one "
				"function of %s\n", t->plugin->target);
			return TB_EXIT_INPUT;
		}
		if (one.index >= t->functions[one.fn].total) {
			fprintf(stderr, "trebuchet-exec: %s has %llu cases, no case %llu\n",
				o->functions, (unsigned long long)t->functions[one.fn].total,
				(unsigned long long)one.index);
			return TB_EXIT_INPUT;
		}
	}
	say_unsandboxed(pool, as_nobody);
	rc = tb_repro(t, pool, cases, n, !o->no_second_look, o->streamed, stdout)
	     ? TB_EXIT_HARNESS : TB_EXIT_OK;
	if (cases != &one)
		free(cases);
	return rc;
}

static int list(const struct tb_options *o, const struct tb_target *t)
{
	if (o->list)
		tb_list_functions(stdout, t);
	else
		tb_list_datatypes(stdout, o->dictionary, t);
	return 0;
}

int main(int argc, char **argv)
{
	static struct tb_target target;
	struct tb_options o;
	struct tb_server_config cfg = { .target = &target };
	static struct tb_server_pool servers;
	struct tb_campaign c = { .target = &target, .servers = &servers,
				 .interrupted = &interrupted };
	char err[512], scratch[4096];
	static char share[PATH_MAX];
	int *sel, rc;

	tb_world_settle(argv);
	tb_crashsite_locate_exe();
	die_with_parent();
	tb_options_parse(argc, argv, &o);
	tb_sanitizer_init();
	if (!o.plugin)
		return tb_list_datatypes(stdout, o.dictionary, NULL), 0;
	if ((o.list_datatypes ? tb_target_open : tb_target_load)(o.plugin, o.dictionary, &target,
								 err, sizeof(err))) {
		fprintf(stderr, "trebuchet-exec: %s\n", err);
		return TB_EXIT_INPUT;
	}
	if (o.list || o.list_datatypes)
		return list(&o, &target);

	sandbox_config(&o, &cfg.sandbox);
	cfg.jobs = o.jobs;
	cfg.timeout_ms = o.timeout_ms;
	cfg.crash_sites = !o.no_crash_sites;
	tb_scratch_sweep(o.scratch_parent);
	if (cfg.sandbox.devnull_fd < 0 ||
	    tb_scratch_create(o.scratch_parent, scratch, sizeof(scratch)) ||
	    (cfg.sandbox.drop_privileges &&
	     chown(scratch, cfg.sandbox.uid, cfg.sandbox.gid))) {
		fprintf(stderr, "trebuchet-exec: cannot make a scratch directory in %s\n",
			o.scratch_parent);
		return TB_EXIT_INPUT;
	}
	cfg.scratch_root = scratch;
	/* static, as all the executor holds before the servers fork: the heap
	 * they inherit must not depend on it */
	if (tb_world_share() && !(cfg.share = realpath(tb_world_share(), share))) {
		fprintf(stderr, "trebuchet-exec: TREBUCHET_SHARE names %s: %s\n", tb_world_share(),
			strerror(errno));
		tb_remove_tree(AT_FDCWD, scratch);
		return TB_EXIT_INPUT;
	}
	/* test processes write temporary files into the scratch directory too */
	tb_world_enter(scratch);
	/* give freed heap pages back, so that the test processes find zeros,
	 * not what this process did so far, in memory they did not write */
	malloc_trim(0);
	if (tb_pool_start(&cfg, (int)sysconf(_SC_NPROCESSORS_ONLN), &servers)) {
		tb_pool_stop(&servers);
		fprintf(stderr, "trebuchet-exec: cannot start the fork servers\n");
		tb_remove_tree(AT_FDCWD, scratch);
		return TB_EXIT_HARNESS;
	}
	close(cfg.sandbox.devnull_fd);
	catch_signals();

	if (o.single) {
		rc = single_cases(&o, &target, &servers, cfg.sandbox.drop_privileges);
		tb_pool_stop(&servers);
		tb_remove_tree(AT_FDCWD, scratch);
		return rc;
	}
	sel = calloc((size_t)target.nfunctions + 1, sizeof(*sel));
	c.selected = sel;
	c.second_look = !o.no_second_look;
	c.progress = o.progress == TB_PROGRESS_ON ||
		     (o.progress == TB_PROGRESS_AUTO && isatty(2));
	if (!sel || open_run(&o, &target, &c, sel)) {
		rc = TB_EXIT_INPUT;
	} else {
		say_unsandboxed(&servers, cfg.sandbox.drop_privileges);
		rc = tb_campaign_run(&c);
		if (rc == TB_CAMPAIGN_DONE && tb_store_finish_run(c.store, c.run_id))
			rc = TB_CAMPAIGN_FAILED;
		rc = rc == TB_CAMPAIGN_DONE ? TB_EXIT_OK
		   : rc == TB_CAMPAIGN_INTERRUPTED ? TB_EXIT_INTERRUPTED : TB_EXIT_HARNESS;
	}
	/* its caller killed: no one waits for it, and a resume may start at
	 * once (the store is let go before the servers are stopped) */
	if (getppid() != caller)
		tb_store_let_go(c.store);
	else
		tb_store_close(c.store);
	tb_pool_stop(&servers);
	tb_remove_tree(AT_FDCWD, scratch);
	free(sel);
	return rc;
}
