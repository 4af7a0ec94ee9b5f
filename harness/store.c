/*
 * The SQLite writer (store.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "clock.h"
#include "sqlite_late.h"
#include "store.h"

/* schemas/results.sql, linked in by the Makefile (ld -r -b binary) */
extern const char _binary_results_sql_start[], _binary_results_sql_end[];

/* A batch is committed after this many results or this long after its
 * first, whichever comes first: when slow cases dominate, a kill must not
 * lose minutes of them. */
#define BATCH 512
#define BATCH_US 1000000LL

struct tb_store {
	sqlite3 *db;
	sqlite3_stmt *insert;
	sqlite3_stmt *insert_site;
	int in_batch;
	long long batch_started_us;
	int lock_fd;  /* the writer's lock, held until the process ends */
	char error[512];
};

static int schema_version(const char *sql)
{
	const char *p = strstr(sql, "user_version =");

	return p ? atoi(p + strlen("user_version =")) : -1;
}

static char *schema_text(void)
{
	size_t n = (size_t)(_binary_results_sql_end - _binary_results_sql_start);
	char *s = malloc(n + 1);

	if (s) {
		memcpy(s, _binary_results_sql_start, n);
		s[n] = '\0';
	}
	return s;
}

static int query_int(sqlite3 *db, const char *sql, long long *out)
{
	sqlite3_stmt *st;
	int rc = tb_sqlite.prepare_v2(db, sql, -1, &st, NULL);

	if (rc == SQLITE_OK && (rc = tb_sqlite.step(st)) == SQLITE_ROW)
		*out = tb_sqlite.column_int64(st, 0), rc = SQLITE_OK;
	tb_sqlite.finalize(st);
	return rc;
}

/* Creates the tables in a new store, or checks an existing store's version. */
static int check_schema(struct tb_store *st, const char *path)
{
	char *sql = schema_text();
	long long version = 0, tables = 0;
	int want, rc = -1;

	if (!sql)
		return -1;
	want = schema_version(sql);
	if (query_int(st->db, "PRAGMA user_version", &version) ||
	    query_int(st->db, "SELECT count(*) FROM sqlite_master", &tables)) {
		snprintf(st->error, sizeof(st->error), "%s: not a SQLite store: %s",
			 path, tb_sqlite.errmsg(st->db));
	} else if (version == 0 && tables == 0) {
		/* in one transaction, already in WAL mode: statement by statement
		 * in a rollback journal, the tables cost forty disk syncs, more
		 * time than a short run's cases */
		rc = tb_sqlite.exec(st->db, "PRAGMA journal_mode=WAL; BEGIN IMMEDIATE;",
				  NULL, NULL, NULL) == SQLITE_OK &&
		     tb_sqlite.exec(st->db, sql, NULL, NULL, NULL) == SQLITE_OK &&
		     tb_sqlite.exec(st->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
		if (rc)
			snprintf(st->error, sizeof(st->error), "%s: cannot create tables: %s",
				 path, tb_sqlite.errmsg(st->db));
	} else if (version != want) {
		snprintf(st->error, sizeof(st->error),
			 "%s: store has schema version %lld, this trebuchet reads version %d",
			 path, version, want);
	} else {
		rc = 0;
	}
	free(sql);
	return rc;
}

struct tb_store *tb_store_open(const char *path, char *err, size_t errlen)
{
	struct tb_store *st = calloc(1, sizeof(*st));

	if (!st) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	st->lock_fd = -1;
	if (tb_sqlite_load(err, errlen)) {
		free(st);
		return NULL;
	}
	if (tb_sqlite.open(path, &st->db) != SQLITE_OK) {
		snprintf(st->error, sizeof(st->error), "%s: %s", path, tb_sqlite.errmsg(st->db));
		goto fail;
	}
	tb_sqlite.busy_timeout(st->db, 10000);
	if (check_schema(st, path))
		goto fail;
	if (tb_sqlite.exec(st->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
			 NULL, NULL, NULL) != SQLITE_OK ||
	    tb_sqlite.prepare_v2(st->db,
			       "INSERT INTO results (run_id, function, case_index, value_names,"
			       " outcome, signal, exit_status, ret, errno, error_reported,"
			       " setup_param, duration_us, cleanup_failed, channel_damaged, stderr,"
			       " setup_errno, setup_reason, second_look_cpu_us)"
			       " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
			       -1, &st->insert, NULL) != SQLITE_OK ||
	    tb_sqlite.prepare_v2(st->db,
			       "INSERT INTO crash_sites (run_id, function, case_index, signal, code,"
			       " fault_addr, sp, stack_depth, frames) VALUES (?,?,?,?,?,?,?,?,?)",
			       -1, &st->insert_site, NULL) != SQLITE_OK) {
		snprintf(st->error, sizeof(st->error), "%s: %s", path, tb_sqlite.errmsg(st->db));
		goto fail;
	}
	return st;
fail:
	snprintf(err, errlen, "%s", st->error);
	tb_store_close(st);
	return NULL;
}

/* Commits what is stored and closes the store; at rest, as one file. */
static void close_store(struct tb_store *st, int at_rest)
{
	if (!st)
		return;
	tb_store_commit(st);
	tb_sqlite.finalize(st->insert);
	tb_sqlite.finalize(st->insert_site);
	/* a store at rest is one file: out of WAL mode, which leaves -wal and
	 * -shm beside it for as long as a reader (the reports open it
	 * read-only, and cannot end WAL mode) was the last to close it.
	 * Refused while another connection is open: it then stays in WAL
	 * mode, which is as good, until the next run ends.  Let go, it stays
	 * in WAL mode as it is, the log not even folded in on close. */
	if (at_rest)
		tb_sqlite.exec(st->db, "PRAGMA journal_mode=DELETE;", NULL, NULL, NULL);
	else
		tb_sqlite.db_config(st->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)NULL);
	tb_sqlite.close(st->db);
	/* only now: closing any descriptor of the file drops SQLite's locks */
	if (st->lock_fd >= 0)
		close(st->lock_fd);
	free(st);
}

void tb_store_close(struct tb_store *st)
{
	close_store(st, 1);
}

void tb_store_let_go(struct tb_store *st)
{
	close_store(st, 0);
}

const char *tb_store_error(struct tb_store *st)
{
	return st->error;
}

static int failed(struct tb_store *st, const char *what)
{
	snprintf(st->error, sizeof(st->error), "%s: %s", what, tb_sqlite.errmsg(st->db));
	return -1;
}

int tb_store_begin_run(struct tb_store *st, const struct tb_run_info *info, int listed,
		       int64_t *run_id)
{
	sqlite3_stmt *s;
	int rc;

	if (listed) {  /* the batch's transaction, as results have it */
		if (tb_sqlite.exec(st->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
			return failed(st, "begin run");
		st->in_batch = 1;
		st->batch_started_us = tb_now_us();
	}
	if (tb_sqlite.prepare_v2(st->db,
			       "INSERT INTO runs (target, target_version, host, harness_version,"
			       " seed, cap, timeout_ms, jobs, functions, extends, dictionary,"
			       " dictionary_digest, spec_digest, shard, shards, spec, sandbox, libc, kernel,"
			       " pins, sanitizer, started) VALUES (?,?,?,?,?,?,?,?,?,NULLIF(?,''),?,?,?,?,?,"
			       "NULLIF(?,''),?,?,?,?,?, strftime('%Y-%m-%dT%H:%M:%SZ','now'))",
			       -1, &s, NULL) != SQLITE_OK)
		return failed(st, "begin run");
	tb_sqlite.bind_text(s, 1, info->target, -1, SQLITE_STATIC);
	tb_sqlite.bind_text(s, 2, info->target_version, -1, SQLITE_STATIC);
	tb_sqlite.bind_text(s, 3, info->host, -1, SQLITE_STATIC);
	tb_sqlite.bind_text(s, 4, info->harness_version, -1, SQLITE_STATIC);
	tb_sqlite.bind_int64(s, 5, (sqlite3_int64)info->seed);
	tb_sqlite.bind_int64(s, 6, (sqlite3_int64)info->cap);
	tb_sqlite.bind_int64(s, 7, info->timeout_ms);
	tb_sqlite.bind_int(s, 8, info->jobs);
	tb_sqlite.bind_text(s, 9, info->functions, -1, SQLITE_STATIC);
	tb_sqlite.bind_text(s, 10, info->extends, -1, SQLITE_STATIC);
	tb_sqlite.bind_text(s, 11, info->dictionary, -1, SQLITE_STATIC);
	tb_sqlite.bind_text(s, 12, info->dictionary_digest, -1, SQLITE_STATIC);
	tb_sqlite.bind_text(s, 13, info->spec_digest, -1, SQLITE_STATIC);
	tb_sqlite.bind_int(s, 14, info->shard);
	tb_sqlite.bind_int(s, 15, info->shards);
	tb_sqlite.bind_text(s, 16, info->spec, -1, SQLITE_STATIC);
	tb_sqlite.bind_text(s, 17, info->sandbox, -1, SQLITE_STATIC);
	tb_sqlite.bind_text(s, 18, info->libc, -1, SQLITE_STATIC);
	tb_sqlite.bind_text(s, 19, info->kernel, -1, SQLITE_STATIC);
	tb_sqlite.bind_text(s, 20, info->pins, -1, SQLITE_STATIC);
	tb_sqlite.bind_text(s, 21, info->sanitizer, -1, SQLITE_STATIC);
	rc = tb_sqlite.step(s);
	tb_sqlite.finalize(s);
	if (rc != SQLITE_DONE)
		return failed(st, "begin run");
	*run_id = tb_sqlite.last_insert_rowid(st->db);
	return 0;
}

static void copy_column(sqlite3_stmt *s, int col, char *out, size_t outlen)
{
	const unsigned char *t = tb_sqlite.column_text(s, col);

	snprintf(out, outlen, "%s", t ? (const char *)t : "");
}

int tb_store_find_unfinished(struct tb_store *st, const char *target,
			     int64_t *run_id, struct tb_run_info *info)
{
	sqlite3_stmt *s;
	int rc;

	if (tb_sqlite.prepare_v2(st->db,
			       "SELECT id, seed, cap, timeout_ms, jobs, functions, shard, shards,"
			       " dictionary, pins,"
			       " EXISTS (SELECT 1 FROM listed_cases WHERE run_id = runs.id), sanitizer FROM runs"
			       " WHERE target = ? AND finished IS NULL ORDER BY id DESC LIMIT 1",
			       -1, &s, NULL) != SQLITE_OK)
		return failed(st, "find run");
	tb_sqlite.bind_text(s, 1, target, -1, SQLITE_STATIC);
	rc = tb_sqlite.step(s);
	if (rc == SQLITE_ROW) {
		*run_id = tb_sqlite.column_int64(s, 0);
		info->seed = (uint64_t)tb_sqlite.column_int64(s, 1);
		info->cap = (uint64_t)tb_sqlite.column_int64(s, 2);
		info->timeout_ms = (long)tb_sqlite.column_int64(s, 3);
		info->jobs = tb_sqlite.column_int(s, 4);
		copy_column(s, 5, info->functions, sizeof(info->functions));
		info->shard = tb_sqlite.column_int(s, 6);
		info->shards = tb_sqlite.column_int(s, 7);
		copy_column(s, 8, info->dictionary, sizeof(info->dictionary));
		copy_column(s, 9, info->pins, sizeof(info->pins));
		info->listed = tb_sqlite.column_int(s, 10);
		copy_column(s, 11, info->sanitizer, sizeof(info->sanitizer));
	}
	tb_sqlite.finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return failed(st, "find run");
	return rc == SQLITE_ROW;
}

int tb_store_add_function(struct tb_store *st, int64_t run_id, const char *name,
			  const char *signature, const char *datatypes,
			  uint64_t total, uint64_t drawn, int unsigned_return)
{
	sqlite3_stmt *s;
	int rc;

	if (tb_sqlite.prepare_v2(st->db,
			       "INSERT OR IGNORE INTO functions (run_id, name, signature,"
			       " datatypes, cases_total, cases_drawn, unsigned_return)"
			       " VALUES (?,?,?,?,?,?,?)",
			       -1, &s, NULL) != SQLITE_OK)
		return failed(st, "add function");
	tb_sqlite.bind_int64(s, 1, run_id);
	tb_sqlite.bind_text(s, 2, name, -1, SQLITE_STATIC);
	tb_sqlite.bind_text(s, 3, signature, -1, SQLITE_STATIC);
	tb_sqlite.bind_text(s, 4, datatypes, -1, SQLITE_STATIC);
	tb_sqlite.bind_int64(s, 5, (sqlite3_int64)total);
	tb_sqlite.bind_int64(s, 6, (sqlite3_int64)drawn);
	tb_sqlite.bind_int(s, 7, unsigned_return);
	rc = tb_sqlite.step(s);
	tb_sqlite.finalize(s);
	return rc == SQLITE_DONE ? 0 : failed(st, "add function");
}

/* The case indices of one function of a run in table, ascending. */
static int case_indices(struct tb_store *st, const char *table, int64_t run_id,
			const char *function, uint64_t **out, size_t *n)
{
	char sql[160];
	sqlite3_stmt *s;
	size_t cap = 1024;
	int rc;

	*n = 0;
	*out = malloc(cap * sizeof(**out));
	snprintf(sql, sizeof(sql), "SELECT case_index FROM %s WHERE run_id = ? AND function = ?"
		 " ORDER BY case_index", table);
	if (!*out || tb_sqlite.prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return failed(st, "read stored cases");
	tb_sqlite.bind_int64(s, 1, run_id);
	tb_sqlite.bind_text(s, 2, function, -1, SQLITE_STATIC);
	while ((rc = tb_sqlite.step(s)) == SQLITE_ROW) {
		if (*n == cap) {
			uint64_t *bigger = realloc(*out, (cap *= 2) * sizeof(**out));

			if (!bigger)
				break;
			*out = bigger;
		}
		(*out)[(*n)++] = (uint64_t)tb_sqlite.column_int64(s, 0);
	}
	tb_sqlite.finalize(s);
	return rc == SQLITE_DONE ? 0 : failed(st, "read stored cases");
}

int tb_store_done_cases(struct tb_store *st, int64_t run_id, const char *function,
			uint64_t **out, size_t *n)
{
	return case_indices(st, "results", run_id, function, out, n);
}

int tb_store_listed_cases(struct tb_store *st, int64_t run_id, const char *function,
			  uint64_t **out, size_t *n)
{
	return case_indices(st, "listed_cases", run_id, function, out, n);
}

int tb_store_add_listed(struct tb_store *st, int64_t run_id, const char *function,
			uint64_t case_index)
{
	sqlite3_stmt *s;
	int rc;

	/* a case listed twice runs once */
	if (tb_sqlite.prepare_v2(st->db, "INSERT OR IGNORE INTO listed_cases (run_id, function,"
			       " case_index) VALUES (?,?,?)", -1, &s, NULL) != SQLITE_OK)
		return failed(st, "list case");
	tb_sqlite.bind_int64(s, 1, run_id);
	tb_sqlite.bind_text(s, 2, function, -1, SQLITE_STATIC);
	tb_sqlite.bind_int64(s, 3, (sqlite3_int64)case_index);
	rc = tb_sqlite.step(s);
	tb_sqlite.finalize(s);
	return rc == SQLITE_DONE ? 0 : failed(st, "list case");
}

static void bind_optional(sqlite3_stmt *s, int col, int present, long long value)
{
	if (present)
		tb_sqlite.bind_int64(s, col, value);
	else
		tb_sqlite.bind_null(s, col);
}

/* The case's crash site, in the batch of its result.  Addresses are stored
 * as SQLite's signed 64-bit integers: one above 2^63 reads back negative. */
static int add_site(struct tb_store *st, int64_t run_id, const char *function,
		    const struct tb_result *r)
{
	sqlite3_stmt *s = st->insert_site;
	const struct tb_site *site = &r->site;
	int rc;

	tb_sqlite.bind_int64(s, 1, run_id);
	tb_sqlite.bind_text(s, 2, function, -1, SQLITE_STATIC);
	tb_sqlite.bind_int64(s, 3, (sqlite3_int64)r->case_index);
	tb_sqlite.bind_int(s, 4, site->signal);
	tb_sqlite.bind_int(s, 5, site->code);
	bind_optional(s, 6, site->has_fault_addr, (long long)site->fault_addr);
	tb_sqlite.bind_int64(s, 7, (sqlite3_int64)site->sp);
	bind_optional(s, 8, site->stack_depth >= 0, site->stack_depth);
	tb_sqlite.bind_text(s, 9, site->frames, (int)site->frames_len, SQLITE_STATIC);
	rc = tb_sqlite.step(s);
	tb_sqlite.reset(s);
	return rc == SQLITE_DONE ? 0 : failed(st, "store crash site");
}

/* A floating return as SQLite keeps it: a REAL (a whole number becomes an
 * INTEGER in the INTEGER column, -0.0 then 0), and NaN, which SQLite would
 * store as NULL, the text 'NaN'. */
static void bind_floating(sqlite3_stmt *s, int col, double value)
{
	if (isnan(value))
		tb_sqlite.bind_text(s, col, "NaN", -1, SQLITE_STATIC);
	else
		tb_sqlite.bind_double(s, col, value);
}

int tb_store_add_result(struct tb_store *st, int64_t run_id, const char *function,
			int floating, const char *value_names, const struct tb_result *r)
{
	sqlite3_stmt *s = st->insert;
	int pass = r->outcome == TB_PASS, rc;

	if (!st->in_batch) {
		if (tb_sqlite.exec(st->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
			return failed(st, "begin batch");
		st->in_batch = 1;
		st->batch_started_us = tb_now_us();
	}
	tb_sqlite.bind_int64(s, 1, run_id);
	tb_sqlite.bind_text(s, 2, function, -1, SQLITE_STATIC);
	tb_sqlite.bind_int64(s, 3, (sqlite3_int64)r->case_index);
	tb_sqlite.bind_text(s, 4, value_names, -1, SQLITE_STATIC);
	tb_sqlite.bind_text(s, 5, tb_outcome_names[r->outcome], -1, SQLITE_STATIC);
	bind_optional(s, 6, r->signal >= 0, r->signal);
	bind_optional(s, 7, r->exit_status >= 0, r->exit_status);
	if (pass && floating)
		bind_floating(s, 8, tb_bits_double(r->ret));
	else
		bind_optional(s, 8, pass, r->ret);
	bind_optional(s, 9, pass, r->err);
	bind_optional(s, 10, pass, r->error_reported);
	bind_optional(s, 11, r->setup_param >= 0, r->setup_param);
	tb_sqlite.bind_int64(s, 12, r->duration_us);
	tb_sqlite.bind_int(s, 13, r->cleanup_failed);
	tb_sqlite.bind_int(s, 14, r->channel_damaged);
	if (r->stderr_len)
		tb_sqlite.bind_blob(s, 15, r->stderr_tail, (int)r->stderr_len, SQLITE_STATIC);
	else
		tb_sqlite.bind_null(s, 15);
	/* why a value could not be built; a setup that crashed or hung says it
	 * by its signal alone */
	bind_optional(s, 16, r->outcome == TB_SETUP && r->signal < 0, r->setup_errno);
	if (r->reason_len)
		tb_sqlite.bind_text(s, 17, r->setup_reason, (int)r->reason_len, SQLITE_STATIC);
	else
		tb_sqlite.bind_null(s, 17);
	bind_optional(s, 18, r->second_look, r->cpu_us);
	rc = tb_sqlite.step(s);
	tb_sqlite.reset(s);
	if (rc != SQLITE_DONE)
		return failed(st, "store result");
	if (r->site_len && add_site(st, run_id, function, r))
		return -1;
	if (++st->in_batch > BATCH)
		return tb_store_commit(st);
	return 0;
}

int tb_store_commit_due(struct tb_store *st)
{
	if (st->in_batch && tb_now_us() - st->batch_started_us >= BATCH_US)
		return tb_store_commit(st);
	return 0;
}

/* flock() on a descriptor of its own: independent of SQLite's fcntl()
 * locks, and released by the kernel however the holder ends. */
int tb_store_lock(struct tb_store *st, const char *path)
{
	sqlite3_stmt *s;
	char holder[256];

	st->lock_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (st->lock_fd >= 0 && flock(st->lock_fd, LOCK_EX | LOCK_NB) == 0)
		return 0;
	if (st->lock_fd < 0 || errno != EWOULDBLOCK) {
		snprintf(st->error, sizeof(st->error), "%s: cannot lock: %s", path, strerror(errno));
		return -1;
	}
	/* the holder's run, when its row is there yet */
	snprintf(holder, sizeof(holder), "a run");
	if (tb_sqlite.prepare_v2(st->db, "SELECT id, target, started FROM runs WHERE finished IS NULL"
			       " ORDER BY id DESC LIMIT 1", -1, &s, NULL) == SQLITE_OK) {
		if (tb_sqlite.step(s) == SQLITE_ROW)
			snprintf(holder, sizeof(holder), "run %lld of %s (started %s)",
				 (long long)tb_sqlite.column_int64(s, 0), tb_sqlite.column_text(s, 1),
				 tb_sqlite.column_text(s, 2));
		tb_sqlite.finalize(s);
	}
	snprintf(st->error, sizeof(st->error), "%s: %s is being written by another trebuchet; "
		 "wait for it to end or stop it", path, holder);
	return -1;
}

int tb_store_commit(struct tb_store *st)
{
	if (!st->in_batch)
		return 0;
	st->in_batch = 0;
	return tb_sqlite.exec(st->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK
		? 0 : failed(st, "commit");
}

static int exec_for(struct tb_store *st, const char *sql, int64_t run_id, const char *name)
{
	sqlite3_stmt *s;
	int rc;

	if (tb_store_commit(st) || tb_sqlite.prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return failed(st, "update");
	tb_sqlite.bind_int64(s, 1, run_id);
	if (name)
		tb_sqlite.bind_text(s, 2, name, -1, SQLITE_STATIC);
	rc = tb_sqlite.step(s);
	tb_sqlite.finalize(s);
	return rc == SQLITE_DONE ? 0 : failed(st, "update");
}

int tb_store_finish_function(struct tb_store *st, int64_t run_id, const char *function)
{
	return exec_for(st,
			"UPDATE functions SET cases_run = (SELECT count(*) FROM results"
			" WHERE run_id = ?1 AND function = ?2) WHERE run_id = ?1 AND name = ?2",
			run_id, function);
}

int tb_store_finish_run(struct tb_store *st, int64_t run_id)
{
	return exec_for(st,
			"UPDATE runs SET finished = strftime('%Y-%m-%dT%H:%M:%SZ','now')"
			" WHERE id = ?1", run_id, NULL);
}
