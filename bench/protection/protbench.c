/*
 * The driver of the protection bench: runs TR-96-20's benchmarks (nullc,
 * md5, nsieve, tdbm) through each scheme (schemes.h) at each granularity and
 * prints one machine-readable line per measurement, tab-separated:
 *
 *   rep scheme place bench size grain calls ns ns_per_call check
 *
 * size is the benchmark's size parameter (nullc: calls; md5: bytes hashed;
 * nsieve: the limit L; tdbm: words), grain the work per call (nullc: bytes
 * per block; md5: bytes per call; nsieve: candidates per call; tdbm: 1), ns
 * the wall time of the benchmark's calls (CLOCK_MONOTONIC), and check what
 * they computed (a digest, a prime count, the database's contents), which
 * must be the same under every scheme.  Lines starting with # say what was
 * skipped and why.  Measurements are interleaved: each repetition runs
 * every instance under every scheme, the schemes' order rotated by one each
 * repetition; a scheme is opened (its server started) before, and closed
 * after, each measurement, outside the timed calls.
 * --first-rep K numbers the repetitions from K (default 0), the scheme order
 * rotated as the K-th: a caller running one repetition at a time keeps the
 * rotation.
 *
 *   protbench list
 *   protbench run [--schemes A,B] [--bench nullc,md5,nsieve,tdbm] [--size N,..] [--grain G,..]
 *                 [--reps R] [--first-rep K] [--warmup W] [--place any|same|split] [--words FILE]
 *   protbench fault SCHEME [--then-crash]
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "schemes.h"

#define MAX_LIST 32
#define NULLC_CALLS 512
#define MD5_SIZE (512 * 1024)
#define DEFAULT_WORDS "/usr/share/dict/american-english"

struct list {
	int n;
	uint64_t v[MAX_LIST];
};

struct options {
	const struct scheme *schemes[MAX_LIST];
	int nschemes;
	unsigned benches;           /* bit per bench */
	struct list sizes, grains;  /* overrides */
	int reps, first_rep, warmup;
	enum placement place;
	int cpu[2];
	const char *words;
};

/* one measured run of a benchmark instance */
struct run {
	const struct options *opt;
	struct scheme_ctx *ctx;
	int rep;
	uint64_t size, grain;
	int print;                  /* 0 during a warm-up */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static const char *place_name(enum placement p)
{
	return p == PLACE_SAME ? "same" : p == PLACE_SPLIT ? "split" : "any";
}

/* not inlined: callgrind dumps its counts after each (--dump-after=emit) */
static __attribute__((noinline)) void emit(const struct run *run, const char *bench, uint64_t calls, uint64_t ns, const char *check)
{
	if (!run->print)
		return;
	printf("%d\t%s\t%s\t%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%.1f\t%s\n",
	       run->rep, run->ctx->scheme->name, place_name(run->opt->place), bench, run->size, run->grain,
	       calls, ns, calls ? (double)ns / calls : 0.0, check);
}

/* the bytes md5 hashes and nullc's blocks start as (tests compute the same) */
/* every timed call goes through here, so that callgrind can count what the
 * calls run and nothing else (`--toggle-collect=invoke`, the Python
 * command's --instructions) */
static __attribute__((noinline)) int64_t invoke(struct scheme_ctx *ctx, struct svc_req *r)
{
	return ctx->scheme->call(ctx, r);
}

static void fill_pattern(uint8_t *p, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		p[i] = (uint8_t)(((uint32_t)i * 2654435761u) >> 24);
}

/* ---- the benchmarks ---- */

/* nullc: NULLC_CALLS calls on one block of grain bytes; the client reads
 * the block's first byte after each call, so a reply that is not returned
 * shows in the check */
static void nullc_state(uint64_t size, uint64_t grain, uint64_t *state, uint64_t *client)
{
	*state = svc_state_size(SVC_NULLC, 0);
	*client = grain;
}

static int nullc_run(struct run *run)
{
	uint8_t *block = run->ctx->client;
	uint64_t pages = 0, first = 0, t0, t1;
	char check[64];

	fill_pattern(block, run->grain);
	t0 = now_ns();
	for (uint64_t i = 0; i < run->size; i++) {
		struct svc_req r = { .op = SVC_NULLC, .flags = SVC_INOUT, .in = block, .in_len = run->grain,
				     .out = block, .out_len = run->grain };
		int64_t got = invoke(run->ctx, &r);

		if (got < 0)
			return (int)got;
		pages += (uint64_t)got;
		first += block[0];
	}
	t1 = now_ns();
	snprintf(check, sizeof check, "pages=%" PRIu64 " first=%" PRIu64, pages, first);
	emit(run, "nullc", run->size, t1 - t0, check);
	return 0;
}

static void md5_state(uint64_t size, uint64_t grain, uint64_t *state, uint64_t *client)
{
	*state = svc_state_size(SVC_MD5, 0);
	*client = size + 16;
}

static int md5_run(struct run *run)
{
	uint8_t *msg = run->ctx->client, *digest = msg + run->size;
	uint64_t calls = 0, t0, t1;
	char check[40];

	fill_pattern(msg, run->size);
	t0 = now_ns();
	for (uint64_t off = 0; off < run->size || calls == 0; off += run->grain, calls++) {
		uint64_t n = run->size - off < run->grain ? run->size - off : run->grain;
		struct svc_req r = { .op = SVC_MD5, .in = msg + off, .in_len = n, .out = digest, .out_len = 16 };
		int64_t got;

		r.flags = (off == 0 ? SVC_FIRST : 0) | (off + n >= run->size ? SVC_LAST : 0);
		got = invoke(run->ctx, &r);
		if (got < 0)
			return (int)got;
	}
	t1 = now_ns();
	for (int i = 0; i < 16; i++)
		sprintf(check + 2 * i, "%02x", digest[i]);
	emit(run, "md5", calls, t1 - t0, check);
	return 0;
}

static void nsieve_state(uint64_t size, uint64_t grain, uint64_t *state, uint64_t *client)
{
	*state = svc_state_size(SVC_NSIEVE, size);
	*client = 64;
}

static int nsieve_run(struct run *run)
{
	uint64_t flags = run->size < 3 ? 0 : (run->size - 1) / 2, primes = 0, calls = 0, t0, t1;
	char check[40];

	t0 = now_ns();
	for (uint64_t lo = 0; lo < flags || calls == 0; lo += run->grain, calls++) {
		struct svc_req r = { .op = SVC_NSIEVE, .flags = lo == 0 ? SVC_FIRST : 0,
				     .arg = lo == 0 ? run->size : lo,
				     .arg2 = flags - lo < run->grain ? flags - lo : run->grain };
		int64_t got = invoke(run->ctx, &r);

		if (got < 0)
			return (int)got;
		primes += (uint64_t)got;
	}
	t1 = now_ns();
	snprintf(check, sizeof check, "primes=%" PRIu64, primes);
	emit(run, "nsieve", calls, t1 - t0, check);
	return 0;
}

/* tdbm's words: the list's words of at most TDBM_KEY_MAX bytes, N of them
 * taken evenly through it; the one list read once */
static char **all_words;
static uint64_t all_count;

static int words_load(const char *path)
{
	FILE *f;
	char line[256];
	uint64_t cap = 0;

	if (all_words)
		return 0;
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "protbench: cannot read the word list %s: %s (Debian: apt-get install wamerican)\n",
			path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof line, f)) {
		size_t n = strcspn(line, "\n");

		if (n == 0 || n > TDBM_KEY_MAX)
			continue;
		line[n] = '\0';
		if (all_count == cap) {
			cap = cap ? 2 * cap : 4096;
			all_words = realloc(all_words, cap * sizeof *all_words);
		}
		all_words[all_count++] = strdup(line);
	}
	fclose(f);
	return 0;
}

static void tdbm_state(uint64_t size, uint64_t grain, uint64_t *state, uint64_t *client)
{
	*state = svc_state_size(SVC_TDBM_RESET, size);
	*client = 16 + size * (TDBM_KEY_MAX + 1);
}

static uint64_t xorshift64(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static int64_t tdbm_op(struct scheme_ctx *ctx, uint32_t op, const uint8_t *key, uint64_t arg)
{
	struct svc_req r = { .op = op, .arg = arg, .in = key, .in_len = strlen((const char *)key) };

	return invoke(ctx, &r);
}

/* insert every word (value: its number), fetch N/2 drawn at random, delete the odd-numbered */
static int tdbm_run(struct run *run)
{
	struct scheme_ctx *ctx = run->ctx;
	uint64_t n = run->size, fresh = 0, hits = 0, values = 0, deleted = 0, x = 88172645463325252ull, t0, t1;
	uint8_t **key = calloc(n, sizeof *key), *sum = ctx->client, *p = ctx->client + 16;
	struct svc_req r = { .op = SVC_TDBM_RESET, .arg = n };
	char check[160];
	uint64_t contents = 0;
	int64_t got, count;

	if (!key || n == 0 || n > all_count)
		return SVC_EINVAL;
	for (uint64_t i = 0; i < n; i++) {
		key[i] = p;
		p = (uint8_t *)stpcpy((char *)p, all_words[i * all_count / n]) + 1;
	}
	if ((got = ctx->scheme->call(ctx, &r)) < 0)
		goto out;
	t0 = now_ns();
	for (uint64_t i = 0; i < n; i++) {
		if ((got = tdbm_op(ctx, SVC_TDBM_INSERT, key[i], i)) < 0)
			goto out;
		fresh += got == 0;
	}
	t1 = now_ns();
	snprintf(check, sizeof check, "new=%" PRIu64, fresh);
	emit(run, "tdbm_i", n, t1 - t0, check);
	t0 = now_ns();
	for (uint64_t i = 0; i < n / 2; i++) {
		got = tdbm_op(ctx, SVC_TDBM_FETCH, key[xorshift64(&x) % n], 0);
		if (got < 0 && got != SVC_ENOENT)
			goto out;
		hits += got >= 0;
		values += got >= 0 ? (uint64_t)got : 0;
	}
	t1 = now_ns();
	snprintf(check, sizeof check, "hits=%" PRIu64 " values=%" PRIu64, hits, values);
	emit(run, "tdbm_f", n / 2, t1 - t0, check);
	t0 = now_ns();
	for (uint64_t i = 1; i < n; i += 2) {
		if ((got = tdbm_op(ctx, SVC_TDBM_DELETE, key[i], 0)) < 0 && got != SVC_ENOENT)
			goto out;
		deleted += got == 0;
	}
	t1 = now_ns();
	r = (struct svc_req){ .op = SVC_TDBM_SUM, .out = sum, .out_len = 8 };
	if ((count = got = ctx->scheme->call(ctx, &r)) < 0)
		goto out;
	for (int i = 0; i < 8; i++)
		contents |= (uint64_t)sum[i] << (8 * i);
	snprintf(check, sizeof check, "deleted=%" PRIu64 " count=%" PRId64 " sum=%" PRIu64, deleted, count, contents);
	emit(run, "tdbm_d", n / 2, t1 - t0, check);
	got = 0;
out:
	free(key);
	return (int)got;
}

struct bench {
	const char *name;
	void (*need)(uint64_t size, uint64_t grain, uint64_t *state, uint64_t *client);
	int (*run)(struct run *run);
	/* the default instances: sizes × grains, or pairs where paired */
	struct list sizes, grains;
	int paired;
};

/* Table 2 of TR-96-20: the limits whose odd primes are its "number of
 * primes" (pi(L) - 1; its 14,683 for L = 160,000 counts one more), each
 * with its grain */
static const struct bench benches[] = {
	{ .name = "nullc", .need = nullc_state, .run = nullc_run,
	  .sizes = { 1, { NULLC_CALLS } },
	  .grains = { 17, { 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536,
			    131072, 262144 } } },
	{ .name = "md5", .need = md5_state, .run = md5_run,
	  .sizes = { 1, { MD5_SIZE } },
	  .grains = { 14, { 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144,
			    524288 } } },
	{ .name = "nsieve", .need = nsieve_state, .run = nsieve_run, .paired = 1,
	  .sizes = { 11, { 16384, 20000, 40000, 80000, 160000, 320000, 640000, 1280000, 2560000, 5120000,
			   10240000 } },
	  .grains = { 11, { 10, 10, 40, 160, 640, 2560, 10240, 40960, 163840, 655360, 2621440 } } },
	{ .name = "tdbm", .need = tdbm_state, .run = tdbm_run,
	  .sizes = { 3, { 512, 2048, 8192 } }, .grains = { 1, { 1 } } },
};
#define NBENCH (int)(sizeof benches / sizeof benches[0])

static int measure(const struct options *opt, const struct bench *b, const struct scheme *s,
		   uint64_t size, uint64_t grain, int rep)
{
	struct run run = { .opt = opt, .rep = rep, .size = size, .grain = grain };
	uint64_t state, client;
	int rc = 0;

	b->need(size, grain, &state, &client);
	run.ctx = scheme_open(s, state, client, opt->place, opt->cpu);
	if (!run.ctx) {
		fprintf(stderr, "protbench: cannot open %s: %s\n", s->name, strerror(errno));
		return -1;
	}
	for (int w = 0; w <= opt->warmup && rc == 0; w++) {
		run.print = w == opt->warmup;
		rc = b->run(&run);
	}
	if (rc != 0)
		fprintf(stderr, "protbench: %s under %s (size %" PRIu64 ", grain %" PRIu64 ") failed: %d\n",
			b->name, s->name, size, grain, rc);
	scheme_close(run.ctx);
	return rc;
}

static int run_instance(const struct options *opt, const struct bench *b, uint64_t size, uint64_t grain,
			int rep)
{
	for (int j = 0; j < opt->nschemes; j++)
		if (measure(opt, b, opt->schemes[(j + rep) % opt->nschemes], size, grain, rep) != 0)
			return -1;
	fflush(stdout);
	return 0;
}

static int run_bench(const struct options *opt, const struct bench *b, int rep)
{
	const struct list *sizes = opt->sizes.n ? &opt->sizes : &b->sizes;
	const struct list *grains = opt->grains.n ? &opt->grains : &b->grains;

	if (b->paired && !opt->sizes.n && !opt->grains.n) {
		for (int i = 0; i < sizes->n; i++)
			if (run_instance(opt, b, sizes->v[i], grains->v[i], rep) != 0)
				return -1;
		return 0;
	}
	for (int i = 0; i < sizes->n; i++)
		for (int g = 0; g < grains->n; g++)
			if (run_instance(opt, b, sizes->v[i], grains->v[g], rep) != 0)
				return -1;
	return 0;
}

/* ---- options ---- */

static int parse_list(const char *arg, struct list *l)
{
	char *copy = strdup(arg), *save = NULL;

	l->n = 0;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *end;

		if (l->n == MAX_LIST)
			break;
		l->v[l->n] = strtoull(t, &end, 10);
		if (*end || l->v[l->n] == 0) {
			free(copy);
			return -1;
		}
		l->n++;
	}
	free(copy);
	return l->n ? 0 : -1;
}

static int add_scheme(struct options *opt, const struct scheme *s)
{
	const char *why = s->unavailable ? s->unavailable() : NULL;

	if (why) {
		printf("# skip %s: %s\n", s->name, why);
		return 0;
	}
	opt->schemes[opt->nschemes++] = s;
	return 0;
}

static int parse_schemes(struct options *opt, const char *arg)
{
	char *copy = strdup(arg), *save = NULL;

	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		const struct scheme *s = scheme_find(t);

		if (!s) {
			fprintf(stderr, "protbench: no scheme %s (protbench list names them)\n", t);
			free(copy);
			return -1;
		}
		add_scheme(opt, s);
	}
	free(copy);
	return 0;
}

static int parse_benches(struct options *opt, const char *arg)
{
	char *copy = strdup(arg), *save = NULL;

	opt->benches = 0;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int i = 0;

		while (i < NBENCH && strcmp(benches[i].name, t) != 0)
			i++;
		if (i == NBENCH) {
			fprintf(stderr, "protbench: no benchmark %s (nullc, md5, nsieve, tdbm)\n", t);
			free(copy);
			return -1;
		}
		opt->benches |= 1u << i;
	}
	free(copy);
	return 0;
}

/* the first two CPUs this process may run on: the client's and, split, the server's */
static int pick_cpus(struct options *opt)
{
	cpu_set_t set;
	int found = 0;

	if (sched_getaffinity(0, sizeof set, &set) != 0)
		return -1;
	for (int c = 0; c < CPU_SETSIZE && found < 2; c++)
		if (CPU_ISSET(c, &set))
			opt->cpu[found++] = c;
	if (found == 1)
		opt->cpu[1] = opt->cpu[0];
	if (opt->place == PLACE_SPLIT && found < 2) {
		fprintf(stderr, "protbench: --place split needs two CPUs\n");
		return -1;
	}
	if (opt->place != PLACE_ANY) {
		CPU_ZERO(&set);
		CPU_SET(opt->cpu[0], &set);
		if (sched_setaffinity(0, sizeof set, &set) != 0)
			return -1;
	}
	printf("# place %s: client on CPU %d, a server on CPU %d\n", place_name(opt->place), opt->cpu[0],
	       opt->place == PLACE_SPLIT ? opt->cpu[1] : opt->cpu[0]);
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: protbench list\n"
			"       protbench run [--schemes A,B] [--bench nullc,md5,nsieve,tdbm] [--size N,..] [--grain G,..]\n"
			"                     [--reps R] [--first-rep K] [--warmup W] [--place any|same|split] [--words FILE]\n"
			"       protbench fault SCHEME [--then-crash]\n");
	return 2;
}

static int cmd_list(void)
{
	for (const struct scheme *s = schemes; s->name; s++) {
		const char *why = s->unavailable ? s->unavailable() : NULL;

		printf("%s\t%s\t%s\n", s->name, why ? "unavailable" : "available", why ? why : s->desc);
	}
	return 0;
}

static int cmd_run(int argc, char **argv)
{
	struct options opt = { .benches = (1u << NBENCH) - 1, .reps = 1, .warmup = 1, .place = PLACE_SAME,
			       .words = DEFAULT_WORDS };
	int schemes_given = 0;

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v)
			return usage();
		i++;
		if (strcmp(a, "--schemes") == 0) {
			if (parse_schemes(&opt, v) != 0)
				return 2;
			schemes_given = 1;
		} else if (strcmp(a, "--bench") == 0) {
			if (parse_benches(&opt, v) != 0)
				return 2;
		} else if (strcmp(a, "--size") == 0) {
			if (parse_list(v, &opt.sizes) != 0)
				return usage();
		} else if (strcmp(a, "--grain") == 0) {
			if (parse_list(v, &opt.grains) != 0)
				return usage();
		} else if (strcmp(a, "--reps") == 0) {
			opt.reps = atoi(v);
		} else if (strcmp(a, "--first-rep") == 0) {
			opt.first_rep = atoi(v);
		} else if (strcmp(a, "--warmup") == 0) {
			opt.warmup = atoi(v);
		} else if (strcmp(a, "--place") == 0) {
			opt.place = strcmp(v, "split") == 0 ? PLACE_SPLIT : strcmp(v, "any") == 0 ? PLACE_ANY : PLACE_SAME;
			if (opt.place == PLACE_SAME && strcmp(v, "same") != 0)
				return usage();
		} else if (strcmp(a, "--words") == 0) {
			opt.words = v;
		} else {
			return usage();
		}
	}
	if (!schemes_given)
		for (const struct scheme *s = schemes; s->name; s++)
			add_scheme(&opt, s);
	if (opt.reps < 1 || opt.first_rep < 0 || opt.warmup < 0 || opt.nschemes == 0)
		return usage();
	if ((opt.benches & (1u << (NBENCH - 1))) && words_load(opt.words) != 0)
		return 1;
	if (pick_cpus(&opt) != 0)
		return 1;
	printf("rep\tscheme\tplace\tbench\tsize\tgrain\tcalls\tns\tns_per_call\tcheck\n");
	for (int rep = opt.first_rep; rep < opt.first_rep + opt.reps; rep++)
		for (int b = 0; b < NBENCH; b++)
			if ((opt.benches & (1u << b)) && run_bench(&opt, &benches[b], rep) != 0)
				return 1;
	return 0;
}

/* ---- fault: a fault in the service, and whether the caller carries on ---- */

#define SENTINEL_EXIT 77

/* the caller's own handler, as trebuchet's crash-site handler would be:
 * a fault that reaches it was not caught by the scheme */
static void sentinel(int sig)
{
	static const char msg[] = "protbench: the fault reached the caller's own handler\n";

	write(2, msg, sizeof msg - 1);
	_exit(SENTINEL_EXIT);
}

static int64_t nullc_once(struct scheme_ctx *ctx)
{
	struct svc_req r = { .op = SVC_NULLC, .flags = SVC_INOUT, .in = ctx->client, .in_len = 64,
			     .out = ctx->client, .out_len = 64 };

	return ctx->scheme->call(ctx, &r);
}

static int cmd_fault(int argc, char **argv)
{
	const struct scheme *s = argc >= 1 ? scheme_find(argv[0]) : NULL;
	int then_crash = argc >= 2 && strcmp(argv[1], "--then-crash") == 0;
	struct sigaction sa = { .sa_handler = sentinel }, now;
	int cpu[2] = { 0, 0 };
	struct svc_req fault = { .op = SVC_FAULT, .arg = 1 };
	struct scheme_ctx *ctx;
	int64_t before, failed, after;
	const char *why;

	if (!s)
		return usage();
	if (s->unavailable && (why = s->unavailable())) {
		printf("# skip %s: %s\n", s->name, why);
		return 0;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	ctx = scheme_open(s, svc_state_size(SVC_NULLC, 0), 4096, PLACE_ANY, cpu);
	if (!ctx)
		return 1;
	before = nullc_once(ctx);
	failed = ctx->scheme->call(ctx, &fault);
	after = nullc_once(ctx);
	scheme_close(ctx);
	/* the caller's handler is back once the scheme is closed (the guards
	 * but guard-once give it back after every call) */
	sigaction(SIGSEGV, NULL, &now);
	printf("scheme\tbefore\tfault\tafter\thandler_kept\n%s\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%d\n",
	       s->name, before, failed, after, now.sa_handler == sentinel);
	fflush(stdout);
	if (then_crash) {
		volatile int *volatile nowhere = NULL;

		*nowhere = 1;
	}
	return before >= 0 && failed < 0 && after >= 0 && now.sa_handler == sentinel ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage();
	if (strcmp(argv[1], "list") == 0)
		return cmd_list();
	if (strcmp(argv[1], "run") == 0)
		return cmd_run(argc - 2, argv + 2);
	if (strcmp(argv[1], "fault") == 0)
		return cmd_fault(argc - 2, argv + 2);
	return usage();
}
