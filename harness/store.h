/*
 * The SQLite writer.  The schema is schemas/results.sql, embedded at build
 * time; a store of another schema version is refused.  Results are written in
 * batched transactions in WAL mode, so a run killed at any instant leaves a
 * store whose every committed case is whole, and --resume runs the rest.
 */
#ifndef TREBUCHET_STORE_H
#define TREBUCHET_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "outcome.h"

struct tb_store;

struct tb_run_info {
	char target[128];
	char spec[4096];       /* the spec's path as the run was given it, "" if by name */
	char extends[128];     /* the base target's name, "" if none */
	char target_version[128];
	char host[512];
	char harness_version[32];
	uint64_t seed;
	uint64_t cap;
	long timeout_ms;
	int jobs;
	char functions[8192];  /* comma-separated */
	char dictionary[32];
	char dictionary_digest[32];
	char spec_digest[80];
	int shard, shards;     /* shard K of N; 1 of 1 is the whole campaign */
	char sandbox[16];      /* tb_isolation_name() of the servers' sandbox */
	char sanitizer[16];    /* the runtime test processes ran under: "address", "" none */
	char libc[64];         /* the C library the executor runs on: "glibc 2.36" */
	char kernel[256];      /* "Linux 6.1.0-18-amd64 x86_64" */
	char pins[8192];       /* the runs.pins column (pins.h), "" if none */
	int listed;            /* its cases are listed (tb_store_listed_cases) */
};

/* Opens (creating if new) the store at path.  On error returns NULL and
 * writes a one-line reason naming the file to err. */
struct tb_store *tb_store_open(const char *path, char *err, size_t errlen);
void tb_store_close(struct tb_store *st);

/* Commits what is stored and lets the store go at once, as it is: in WAL
 * mode, its last commits in the log beside it, which the next writer (the
 * run resumed) folds in.  For an executor whose caller is gone, which must
 * stop writing and free the store for a resume at once (tb_store_close
 * folds the log into the store first: a tenth of a second and more). */
void tb_store_let_go(struct tb_store *st);
const char *tb_store_error(struct tb_store *st);

/* listed: the run's cases are added next (tb_store_add_listed) in the same
 * transaction, committed by tb_store_commit, so that a run is never stored
 * without them. */
int tb_store_begin_run(struct tb_store *st, const struct tb_run_info *info, int listed,
		       int64_t *run_id);
/* The newest unfinished run of target: 1 found, 0 none, -1 error. */
int tb_store_find_unfinished(struct tb_store *st, const char *target,
			     int64_t *run_id, struct tb_run_info *info);
int tb_store_add_function(struct tb_store *st, int64_t run_id, const char *name,
			  const char *signature, const char *datatypes,
			  uint64_t total, uint64_t drawn, int unsigned_return);
/* The case indices of function already stored for run, ascending; *out is
 * malloc'd. */
int tb_store_done_cases(struct tb_store *st, int64_t run_id, const char *function,
			uint64_t **out, size_t *n);
/* A case of a listed run (`run --values-file`); stored with the run's row,
 * in the transaction tb_store_begin_run opens when listed is set. */
int tb_store_add_listed(struct tb_store *st, int64_t run_id, const char *function,
			uint64_t case_index);
/* The listed cases of function for run, ascending, like tb_store_done_cases;
 * none when the run drew its cases. */
int tb_store_listed_cases(struct tb_store *st, int64_t run_id, const char *function,
			  uint64_t **out, size_t *n);
/* floating: res->ret holds a double's bits (tb_function.floating_return) */
int tb_store_add_result(struct tb_store *st, int64_t run_id, const char *function,
			int floating, const char *value_names, const struct tb_result *res);
int tb_store_commit(struct tb_store *st);
/* Commits the open batch if it is a second old.  The campaign calls it
 * each time it wakes (every result batch, and at least five times a
 * second), so results are stored at least once a second. */
int tb_store_commit_due(struct tb_store *st);
/* Takes the store's writer lock; -1 with a one-line error naming the run
 * being written when another trebuchet holds it. */
int tb_store_lock(struct tb_store *st, const char *path);
int tb_store_finish_function(struct tb_store *st, int64_t run_id, const char *function);
int tb_store_finish_run(struct tb_store *st, int64_t run_id);

#endif
