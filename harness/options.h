/*
 * trebuchet-exec's command line.
 */
#ifndef TREBUCHET_OPTIONS_H
#define TREBUCHET_OPTIONS_H

#include <stdint.h>

enum tb_progress { TB_PROGRESS_AUTO, TB_PROGRESS_ON, TB_PROGRESS_OFF };

struct tb_options {
	const char *plugin;
	const char *db;
	const char *spec;       /* how `trebuchet run` named the spec, when by path */
	const char *functions;  /* comma-separated, NULL = all */
	uint64_t cap;
	uint64_t seed;
	long timeout_ms;
	int jobs;
	int resume;
	int shard, shards;      /* --shard K/N; 1/1 = every case */
	enum tb_progress progress;
	const char *scratch_parent;
	long memory_mb;
	int no_sandbox;         /* --no-sandbox: no namespaces (isolation.h) */
	int no_crash_sites;     /* --no-crash-sites: no handler in test processes (crashsite.h) */
	int no_second_look;     /* --no-second-look: RESTART at the first stop (forkserver.h) */
	int list;               /* print the target's functions and datatypes as JSON */
	int list_datatypes;     /* print the base datatypes as JSON */
	int single;             /* run only case_index of the one function, or the
				 * cases listed in cases_file; no store */
	uint64_t case_index;
	const char *cases_file; /* lines "FUNCTION INDEX" */
	int streamed;           /* --stream: each case's result printed as it ends */
	const char *dictionary; /* ours or ballista (dictionary.h) */
	const char *pins;       /* --pins: the runs.pins text (pins.h), NULL = none */
	const char *listed;     /* --listed FILE: run exactly its "FUNCTION INDEX" lines */
};

/* Parses argv; on a usage error prints one line and exits with 2. */
void tb_options_parse(int argc, char **argv, struct tb_options *o);

#endif
