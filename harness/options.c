/*
 * trebuchet-exec's command line (options.h).  The `trebuchet` CLI is the
 * interface users see; this one is for it, and for debugging.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "dictionary.h"
#include "exitcodes.h"
#include "options.h"
#include "world.h"

static const char usage[] =
	"usage: trebuchet-exec --plugin PATH [--db PATH] [--functions a,b] [--cap N]\n"
	"       [--seed S] [--timeout SEC] [--jobs N] [--shard K/N] [--resume]\n"
	"       [--progress|--quiet] [--scratch DIR] [--memory-mb N] [--spec NAME]\n"
	"       [--no-sandbox] [--no-crash-sites] [--no-second-look]\n"
	"       [--dictionary ours|ballista]\n"
	"       [--pins 'FUNCTION.PARAM#POSITION=DATATYPE:VALUE,... ...' | --listed FILE]\n"
	"       | --list-datatypes [--plugin PATH]\n"
	"       | --list --plugin PATH | --plugin PATH --functions F --case N\n"
	"       | --plugin PATH --cases FILE (lines \"FUNCTION INDEX\") [--stream]\n";

/* One line, as every input error: the usage is for --help. */
static void usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "trebuchet-exec: %s%s%s\n", what, arg ? ": " : "", arg ? arg : "");
	exit(TB_EXIT_INPUT);
}

static unsigned long long number(const char *arg, const char *name)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 0);
	if (errno || *end || end == arg || *arg == '-') {
		fprintf(stderr, "trebuchet-exec: %s wants a whole number, not '%s'\n", name, arg);
		exit(TB_EXIT_INPUT);
	}
	return v;
}

static long seconds_to_ms(const char *arg)
{
	char *end;
	double s = strtod(arg, &end);

	if (*end || end == arg || !(s > 0) || s > 3600)
		usage_error("--timeout wants seconds above 0 and at most 3600, not", arg);
	return s < 0.001 ? 1 : (long)(s * 1000 + 0.5);
}

/* K/N with 1 <= K <= N */
static void shard(const char *arg, struct tb_options *o)
{
	char *end;
	long k, n;

	errno = 0;
	k = strtol(arg, &end, 10);
	if (*end == '/') {
		n = strtol(end + 1, &end, 10);
		if (!errno && !*end && k >= 1 && n >= 1 && k <= n && n <= 100000) {
			o->shard = (int)k;
			o->shards = (int)n;
			return;
		}
	}
	usage_error("--shard wants K/N with 1 <= K <= N, not", arg);
}

void tb_options_parse(int argc, char **argv, struct tb_options *o)
{
	static const struct option longopts[] = {
		{ "plugin", required_argument, NULL, 'p' },
		{ "db", required_argument, NULL, 'd' },
		{ "functions", required_argument, NULL, 'f' },
		{ "cap", required_argument, NULL, 'c' },
		{ "seed", required_argument, NULL, 's' },
		{ "timeout", required_argument, NULL, 't' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "resume", no_argument, NULL, 'r' },
		{ "shard", required_argument, NULL, 'k' },
		{ "progress", no_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "scratch", required_argument, NULL, 'S' },
		{ "spec", required_argument, NULL, 'n' },
		{ "memory-mb", required_argument, NULL, 'm' },
		{ "no-sandbox", no_argument, NULL, 'N' },
		{ "no-crash-sites", no_argument, NULL, 'X' },
		{ "no-second-look", no_argument, NULL, 'R' },
		{ "case", required_argument, NULL, 'C' },
		{ "cases", required_argument, NULL, 'F' },
		{ "stream", no_argument, NULL, 'W' },
		{ "list", no_argument, NULL, 'l' },
		{ "list-datatypes", no_argument, NULL, 'L' },
		{ "dictionary", required_argument, NULL, 'D' },
		{ "pins", required_argument, NULL, 'I' },
		{ "listed", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int c;

	*o = (struct tb_options){
		.db = "trebuchet.db",
		.cap = 5000,
		.seed = 1,
		/* 2 s: a finite call that computes for most of a second (sfnputc
		 * writing gigabytes) stays clear of the deadline on a busy machine */
		.timeout_ms = 2000,
		/* twice the cores: a case blocked until its deadline holds a
		 * slot but not a core */
		.jobs = (int)(ncpu > 0 ? 2 * ncpu : 2),
		.scratch_parent = tb_world_scratch_parent(),
		/* none under a sanitizer: its shadow memory is terabytes of
		 * address space (world.c holds allocations instead) */
		.memory_mb = tb_world_shadow() ? 0 : 1024,
		.shard = 1,
		.shards = 1,
		.dictionary = TB_DICTIONARY_OURS,
	};
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'p': o->plugin = optarg; break;
		case 'd': o->db = optarg; break;
		case 'f': o->functions = optarg; break;
		case 'c': o->cap = number(optarg, "--cap"); break;
		case 's': o->seed = number(optarg, "--seed"); break;
		case 't': o->timeout_ms = seconds_to_ms(optarg); break;
		case 'j': o->jobs = (int)number(optarg, "--jobs"); break;
		case 'r': o->resume = 1; break;
		case 'k': shard(optarg, o); break;
		case 'P': o->progress = TB_PROGRESS_ON; break;
		case 'q': o->progress = TB_PROGRESS_OFF; break;
		case 'S': o->scratch_parent = optarg; break;
		case 'n': o->spec = optarg; break;
		case 'm': o->memory_mb = (long)number(optarg, "--memory-mb"); break;
		case 'N': o->no_sandbox = 1; break;
		case 'X': o->no_crash_sites = 1; break;
		case 'R': o->no_second_look = 1; break;
		case 'C': o->single = 1; o->case_index = number(optarg, "--case"); break;
		case 'F': o->single = 1; o->cases_file = optarg; break;
		case 'W': o->streamed = 1; break;
		case 'l': o->list = 1; break;
		case 'L': o->list_datatypes = 1; break;
		case 'D': o->dictionary = optarg; break;
		case 'I': o->pins = optarg; break;
		case 'T': o->listed = optarg; break;
		case 'h': fputs(usage, stdout); exit(0);
		default: usage_error("unknown option (see --help)", NULL);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument", argv[optind]);
	if (!o->plugin && !o->list_datatypes)
		usage_error("--plugin is required", NULL);
	if (o->jobs < 1 || o->jobs > 256)
		usage_error("--jobs wants 1 to 256", NULL);  /* TB_SERVER_MAX_JOBS */
	if (o->cap < 1)
		usage_error("--cap wants at least 1", NULL);
	if (!tb_dictionary_known(o->dictionary))
		usage_error("--dictionary wants ours or ballista, not", o->dictionary);
	if (o->pins && o->listed)
		usage_error("--pins and --listed exclude each other", NULL);
	if (tb_world_sanitizer()[0] && !tb_world_sanitizer_loaded())
		usage_error("no such sanitizer, or its runtime could not be loaded",
			    tb_world_sanitizer());
	if (tb_world_shadow() && o->memory_mb)
		usage_error("--memory-mb wants 0 (no address-space limit) under a sanitizer,"
			    " whose shadow memory is terabytes of address space", NULL);
	if (!tb_world_shadow() && o->memory_mb < 64)
		usage_error("--memory-mb wants at least 64 (0, no limit, only under a sanitizer"
			    " with shadow memory)", NULL);
}
