/*
 * SQLite, loaded when the store is first opened instead of linked.
 *
 * Every test process is a fork of a fork server, and a fork copies, and an
 * exit tears down, every mapping the server holds.  The servers are forked
 * before the store is opened (main.c), so a SQLite the executor linked
 * would sit in them, with the libm it needs, for nothing: ten mappings and
 * their pages in every fork.  Loaded here, after the servers exist, it is
 * in the executor alone.  Measured on st_return (bench/throughput.py):
 * about a tenth more cases a second.
 *
 * store.c calls SQLite through the table tb_sqlite_load() fills
 * (tb_sqlite.step for sqlite3_step), its types and constants from
 * <sqlite3.h> as usual.
 */
#ifndef TREBUCHET_SQLITE_LATE_H
#define TREBUCHET_SQLITE_LATE_H

#include <sqlite3.h>
#include <stddef.h>

/* each SQLite function the store calls, once */
#define TB_SQLITE_FUNCTIONS(X) \
	X(bind_blob) X(bind_double) X(bind_int) X(bind_int64) X(bind_null) X(bind_text) \
	X(busy_timeout) X(close) X(db_config) X(column_int) X(column_int64) X(column_text) \
	X(errmsg) X(exec) X(finalize) X(last_insert_rowid) X(open) \
	X(prepare_v2) X(reset) X(step)

#define TB_SQLITE_MEMBER(name) __typeof__(sqlite3_##name) *name;
struct tb_sqlite {
	TB_SQLITE_FUNCTIONS(TB_SQLITE_MEMBER)
};
#undef TB_SQLITE_MEMBER
extern struct tb_sqlite tb_sqlite;

/* Loads libsqlite3 once; 0, or -1 with why. */
int tb_sqlite_load(char *why, size_t len);

#endif
