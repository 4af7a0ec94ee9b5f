/*
 * Datatypes of the sqlite3 survey target (sqlite3.yaml), from sqlite3.h:
 *
 *   sqlite3       pointer's values, then connections in the states sqlite3.h
 *                 tells apart: open, busy with a statement, after an error,
 *                 closed
 *   sqlite3_stmt  pointer's values, then prepared statements fresh, stepped
 *                 (a row ready), done, failed in step, finalized
 *   sql           string's values, then SQL texts: a query, an insert, two
 *                 statements, a comment, a syntax error, a missing table
 *   sql_text      a statement and its byte count (prepare_v2's zSql, nByte)
 *   text_len      a value and its byte count (bind_text/bind_blob's 3rd, 4th)
 *   destructor    callback's values and SQLITE_TRANSIENT (NULL is SQLITE_STATIC)
 *   open_flags    int's values and sqlite3_open_v2's documented combinations
 *   sqlite3_mem   pointer's values and blocks from sqlite3_malloc
 *
 * Every connection is ":memory:" and holds table t(a INTEGER, b TEXT) with
 * two rows, so that the statements below have something to read.
 */
#include <limits.h>
#include <sqlite3.h>
#include <stdint.h>
#include <string.h>

#include "datatype.h"

#define SCHEMA "CREATE TABLE t(a INTEGER, b TEXT);" \
	"CREATE TABLE u(k INTEGER PRIMARY KEY);" \
	"INSERT INTO t VALUES(1, 'one'), (2, 'two'); INSERT INTO u VALUES(1);"
/* two parameters (?1 and :name), four result columns */
#define QUERY "SELECT a, b, ?1, :name FROM t"

/* ---- sqlite3 ---- */

static sqlite3 *opened(void)
{
	sqlite3 *db = NULL;

	if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK
	    || sqlite3_exec(db, SCHEMA, NULL, NULL, NULL) != SQLITE_OK)
		return NULL;
	return db;
}

static int db_value(union tb_arg *out, sqlite3 *db, const char *why)
{
	out->ptr = db;
	return db ? 0 : tb_setup_fail("%s", why);
}

static int setup_open(union tb_arg *out)
{
	return db_value(out, opened(), "sqlite3_open_v2(\":memory:\") or the schema failed");
}

/* a statement stepped to a row and left so: sqlite3_close answers SQLITE_BUSY */
static int setup_busy(union tb_arg *out)
{
	sqlite3 *db = opened();
	sqlite3_stmt *st = NULL;

	if (!db || sqlite3_prepare_v2(db, QUERY, -1, &st, NULL) != SQLITE_OK
	    || sqlite3_step(st) != SQLITE_ROW)
		return tb_setup_fail("no statement stepped to a row");
	return db_value(out, db, "");
}

/* the last call failed: errcode and errmsg say why */
static int setup_in_error(union tb_arg *out)
{
	sqlite3 *db = opened();

	if (!db || sqlite3_exec(db, "SELECT * FROM nosuch", NULL, NULL, NULL) != SQLITE_ERROR
	    || sqlite3_errcode(db) != SQLITE_ERROR)
		return tb_setup_fail("the failing query did not fail");
	return db_value(out, db, "");
}

static int setup_closed(union tb_arg *out)
{
	sqlite3 *db = opened();

	if (!db || sqlite3_close(db) != SQLITE_OK)
		return tb_setup_fail("sqlite3_close failed");
	out->u = (uintptr_t)db;
	return 0;
}

static int setup_garbage(union tb_arg *out)
{
	return (out->ptr = tb_garbage_block(4096)) ? 0 : tb_setup_fail("no memory");
}

static const struct tb_value db_values[] = {
	{ .name = "OPEN", .setup = setup_open, .desc = "sqlite3_open_v2(\":memory:\"), table t with two rows" },
	{ .name = "BUSY", .setup = setup_busy, .desc = "OPEN, with a statement stepped to a row and not finalized" },
	{ .name = "IN_ERROR", .setup = setup_in_error, .desc = "OPEN, after a query on a missing table failed" },
	{ .name = "CLOSED", .setup = setup_closed, .desc = "OPEN, then sqlite3_close", .misuse = 1 },
	{ .name = "GARBAGE", .setup = setup_garbage, .desc = "4 KiB of random bytes before a guard page", .misuse = 1 },
	{ 0 },
};

const struct tb_datatype tb_type_sqlite3 = {
	.name = "sqlite3",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", NULL },  /* no connection */
	.ctype = "sqlite3 *",
	.values = db_values,
};

/* ---- sqlite3_stmt ---- */

static sqlite3_stmt *prepared(const char *sql)
{
	sqlite3 *db = opened();
	sqlite3_stmt *st = NULL;

	if (!db || sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return NULL;
	return st;
}

static int stmt_value(union tb_arg *out, sqlite3_stmt *st, const char *why)
{
	out->ptr = st;
	return st ? 0 : tb_setup_fail("%s", why);
}

static int setup_fresh(union tb_arg *out)
{
	return stmt_value(out, prepared(QUERY), "sqlite3_prepare_v2 failed");
}

static int stepped(union tb_arg *out, int steps, int want)
{
	sqlite3_stmt *st = prepared(QUERY);
	int rc = SQLITE_ROW;

	for (int i = 0; st && i < steps; i++)
		rc = sqlite3_step(st);
	return stmt_value(out, rc == want ? st : NULL, "sqlite3_step did not reach the state");
}

static int setup_stepped(union tb_arg *out) { return stepped(out, 1, SQLITE_ROW); }
static int setup_done(union tb_arg *out) { return stepped(out, 3, SQLITE_DONE); }

/* an insert that breaks the primary key: sqlite3_step returned an error */
static int setup_stmt_error(union tb_arg *out)
{
	sqlite3_stmt *st = prepared("INSERT INTO u VALUES(1)");

	if (st && sqlite3_step(st) != SQLITE_CONSTRAINT)
		st = NULL;
	return stmt_value(out, st, "the duplicate insert did not fail");
}

static int setup_finalized(union tb_arg *out)
{
	sqlite3_stmt *st = prepared(QUERY);

	if (!st || sqlite3_finalize(st) != SQLITE_OK)
		return tb_setup_fail("sqlite3_finalize failed");
	out->u = (uintptr_t)st;
	return 0;
}

static const struct tb_value stmt_values[] = {
	{ .name = "FRESH", .setup = setup_fresh, .desc = "prepared \"" QUERY "\", never stepped" },
	{ .name = "STEPPED", .setup = setup_stepped, .desc = "FRESH, stepped once: a row is ready" },
	{ .name = "DONE", .setup = setup_done, .desc = "FRESH, stepped until SQLITE_DONE" },
	{ .name = "STEP_FAILED", .setup = setup_stmt_error,
	  .desc = "an insert breaking a primary key, stepped: SQLITE_CONSTRAINT" },
	{ .name = "FINALIZED", .setup = setup_finalized, .desc = "FRESH, then sqlite3_finalize", .misuse = 1 },
	{ .name = "GARBAGE", .setup = setup_garbage, .desc = "4 KiB of random bytes before a guard page", .misuse = 1 },
	{ 0 },
};

const struct tb_datatype tb_type_sqlite3_stmt = {
	.name = "sqlite3_stmt",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", NULL },  /* no statement */
	.ctype = "sqlite3_stmt *",
	.values = stmt_values,
};

/* ---- sql: SQL text, NUL-terminated ---- */

static const struct tb_value sql_values[] = {
	{ .name = "SELECT", .constant.ptr = (void *)"SELECT a, b FROM t", .desc = "a query with two rows" },
	{ .name = "INSERT", .constant.ptr = (void *)"INSERT INTO t VALUES(3, 'three')", .desc = "an insert" },
	{ .name = "TWO_STATEMENTS", .constant.ptr = (void *)"SELECT 1; SELECT 2;", .desc = "two statements" },
	{ .name = "COMMENT", .constant.ptr = (void *)"-- nothing", .desc = "an SQL comment only" },
	{ .name = "SYNTAX_ERROR", .constant.ptr = (void *)"SELEC 1", .desc = "no SQL: a syntax error" },
	{ .name = "NO_TABLE", .constant.ptr = (void *)"SELECT * FROM nosuch", .desc = "a query on a missing table" },
	{ 0 },
};

const struct tb_datatype tb_type_sql = {
	.name = "sql",
	.parent = &tb_type_string,
	.ctype = "const char *",
	.values = sql_values,
};

/* ---- a text and its length, one value spanning two parameters ---- */

/* s copied to the end of a guarded block: a read past it faults */
static int text_at_end(union tb_arg *out, const char *s, long long len)
{
	size_t n = strlen(s);
	char *p = tb_guarded_block(n);

	if (!p)
		return tb_setup_fail("no memory");
	memcpy(p, s, n);
	out[0].ptr = p;
	out[1].i = len;
	return 0;
}

/* s with its NUL, at the end of a guarded block */
static int string_at_end(union tb_arg *out, const char *s, long long len)
{
	size_t n = strlen(s) + 1;
	char *p = tb_guarded_block(n);

	if (!p)
		return tb_setup_fail("no memory");
	memcpy(p, s, n);
	out[0].ptr = p;
	out[1].i = len;
	return 0;
}

static int null_len(union tb_arg *out, long long len)
{
	out[0].ptr = NULL;
	out[1].i = len;
	return 0;
}

#define SEL "SELECT a, b FROM t"

static int setup_sel_nul(union tb_arg *out) { return string_at_end(out, SEL, -1); }
static int setup_sel_len(union tb_arg *out) { return text_at_end(out, SEL, strlen(SEL)); }
static int setup_sel_len_nul(union tb_arg *out) { return string_at_end(out, SEL, strlen(SEL) + 1); }
static int setup_sql_two(union tb_arg *out) { return string_at_end(out, "SELECT 1; SELECT 2;", -1); }
static int setup_sql_comment(union tb_arg *out) { return string_at_end(out, "-- nothing", -1); }
static int setup_sql_syntax(union tb_arg *out) { return string_at_end(out, "SELEC 1", -1); }
static int setup_sql_zero(union tb_arg *out) { return string_at_end(out, SEL, 0); }
static int setup_sel_past_end(union tb_arg *out) { return text_at_end(out, SEL, strlen(SEL) + 1); }
static int setup_sel_unterminated(union tb_arg *out) { return text_at_end(out, SEL, -1); }
static int setup_sel_int_max(union tb_arg *out) { return string_at_end(out, SEL, INT_MAX); }
static int setup_null_neg(union tb_arg *out) { return null_len(out, -1); }
static int setup_null_zero(union tb_arg *out) { return null_len(out, 0); }

static const struct tb_value sql_text_values[] = {
	{ .name = "SELECT_NUL", .setup = setup_sel_nul, .desc = "\"" SEL "\", -1: read to the NUL" },
	{ .name = "SELECT_LEN", .setup = setup_sel_len, .desc = "\"" SEL "\" with no NUL, its length" },
	{ .name = "SELECT_LEN_NUL", .setup = setup_sel_len_nul, .desc = "\"" SEL "\", its length with the NUL" },
	{ .name = "TWO_STATEMENTS", .setup = setup_sql_two, .desc = "\"SELECT 1; SELECT 2;\", -1" },
	{ .name = "COMMENT", .setup = setup_sql_comment, .desc = "\"-- nothing\", -1: no SQL" },
	{ .name = "SYNTAX_ERROR", .setup = setup_sql_syntax, .desc = "\"SELEC 1\", -1" },
	{ .name = "ZERO", .setup = setup_sql_zero, .desc = "\"" SEL "\", 0: no statement" },
	{ .name = "PAST_END", .setup = setup_sel_past_end,
	  .desc = "\"" SEL "\" with no NUL, its length + 1: one byte into the guard page" },
	{ .name = "UNTERMINATED", .setup = setup_sel_unterminated, .desc = "\"" SEL "\" with no NUL, -1" },
	{ .name = "INT_MAX", .setup = setup_sel_int_max, .desc = "\"" SEL "\", INT_MAX" },
	{ .name = "NULL_NEG", .setup = setup_null_neg, .desc = "NULL, -1" },
	{ .name = "NULL_ZERO", .setup = setup_null_zero, .desc = "NULL, 0" },
	{ 0 },
};

const struct tb_datatype tb_type_sql_text = {
	.name = "sql_text",
	.ctype = "const char *, int",
	.span = 2,
	.values = sql_text_values,
};

#define VAL "hello"

static int setup_val_nul(union tb_arg *out) { return string_at_end(out, VAL, -1); }
static int setup_val_len(union tb_arg *out) { return text_at_end(out, VAL, 5); }
static int setup_val_zero(union tb_arg *out) { return text_at_end(out, VAL, 0); }
static int setup_val_empty(union tb_arg *out) { return string_at_end(out, "", -1); }
static int setup_val_past_end(union tb_arg *out) { return text_at_end(out, VAL, 6); }
static int setup_val_unterminated(union tb_arg *out) { return text_at_end(out, VAL, -1); }
static int setup_val_int_max(union tb_arg *out) { return string_at_end(out, VAL, INT_MAX); }
static int setup_val_null(union tb_arg *out) { return null_len(out, 5); }

static const struct tb_value text_len_values[] = {
	{ .name = "NUL_TERMINATED", .setup = setup_val_nul, .desc = "\"hello\", -1: to the NUL" },
	{ .name = "EXACT", .setup = setup_val_len, .desc = "\"hello\" with no NUL, 5" },
	{ .name = "ZERO", .setup = setup_val_zero, .desc = "\"hello\", 0" },
	{ .name = "EMPTY", .setup = setup_val_empty, .desc = "\"\", -1" },
	{ .name = "PAST_END", .setup = setup_val_past_end,
	  .desc = "\"hello\" with no NUL, 6: one byte into the guard page" },
	{ .name = "UNTERMINATED", .setup = setup_val_unterminated, .desc = "\"hello\" with no NUL, -1" },
	{ .name = "INT_MAX", .setup = setup_val_int_max, .desc = "\"hello\", INT_MAX" },
	{ .name = "NULL_LEN", .setup = setup_val_null, .desc = "NULL, 5" },
	{ 0 },
};

const struct tb_datatype tb_type_text_len = {
	.name = "text_len",
	.ctype = "const void *, int",
	.span = 2,
	.values = text_len_values,
};

/* ---- destructor: the 5th argument of bind_text and bind_blob ---- */

static const struct tb_value destructor_values[] = {
	/* callback's NULL is SQLITE_STATIC (sqlite3.h: ((sqlite3_destructor_type)0)) */
	{ .name = "TRANSIENT", .constant.ptr = (void *)SQLITE_TRANSIENT, .desc = "SQLITE_TRANSIENT: copy now" },
	{ 0 },
};

const struct tb_datatype tb_type_destructor = {
	.name = "destructor",
	.parent = &tb_type_callback,
	.ctype = "void (*)(void *)",
	.values = destructor_values,
};

/* ---- open_flags: sqlite3_open_v2's 3rd parameter ---- */

static const struct tb_value open_flags_values[] = {
	{ .name = "READONLY", .constant.i = SQLITE_OPEN_READONLY, .desc = "SQLITE_OPEN_READONLY" },
	{ .name = "READWRITE", .constant.i = SQLITE_OPEN_READWRITE, .desc = "SQLITE_OPEN_READWRITE" },
	{ .name = "CREATE", .constant.i = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
	  .desc = "SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE" },
	{ .name = "CREATE_URI_MEMORY",
	  .constant.i = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI | SQLITE_OPEN_MEMORY,
	  .desc = "CREATE | SQLITE_OPEN_URI | SQLITE_OPEN_MEMORY" },
	{ 0 },
};

const struct tb_datatype tb_type_open_flags = {
	.name = "open_flags",
	.parent = &tb_type_int,
	.skip = (const char *const[]){ "ONE", NULL },  /* 1 is READONLY, named above */
	.ctype = "int",
	.values = open_flags_values,
};

/* ---- sqlite3_mem: memory for sqlite3_free, realloc, msize ---- */

static int setup_malloced(union tb_arg *out)
{
	return (out->ptr = sqlite3_malloc(64)) ? 0 : tb_setup_fail("sqlite3_malloc(64) failed");
}

static int setup_mprintf(union tb_arg *out)
{
	return (out->ptr = sqlite3_mprintf("%d", 42)) ? 0 : tb_setup_fail("sqlite3_mprintf failed");
}

static int setup_mem_freed(union tb_arg *out)
{
	void *p = sqlite3_malloc(64);

	if (!p)
		return tb_setup_fail("sqlite3_malloc(64) failed");
	sqlite3_free(p);
	out->u = (uintptr_t)p;
	return 0;
}

static const struct tb_value mem_values[] = {
	{ .name = "MALLOCED", .setup = setup_malloced, .desc = "sqlite3_malloc(64)" },
	{ .name = "MPRINTF", .setup = setup_mprintf, .desc = "sqlite3_mprintf(\"%d\", 42)" },
	{ .name = "SQLITE_FREED", .setup = setup_mem_freed, .desc = "sqlite3_malloc(64), then sqlite3_free",
	  .misuse = 1 },
	{ 0 },
};

const struct tb_datatype tb_type_sqlite3_mem = {
	.name = "sqlite3_mem",
	.parent = &tb_type_pointer,
	/* memory, but none from sqlite3_malloc */
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", "MISALIGNED", NULL },
	.ctype = "void *",
	.values = mem_values,
};

/* ---- sql_name: names of databases, tables and columns ---- */

static const struct tb_value sql_name_values[] = {
	{ .name = "MAIN", .constant.ptr = (void *)"main", .desc = "\"main\": the main database" },
	{ .name = "TEMP", .constant.ptr = (void *)"temp", .desc = "\"temp\": the temporary database" },
	{ .name = "TABLE_T", .constant.ptr = (void *)"t", .desc = "\"t\": the table every connection holds" },
	{ .name = "COLUMN_A", .constant.ptr = (void *)"a", .desc = "\"a\": an INTEGER column of t" },
	{ .name = "ROWID", .constant.ptr = (void *)"rowid", .desc = "\"rowid\": t's implicit rowid" },
	{ .name = "NOSUCH", .constant.ptr = (void *)"nosuch", .desc = "\"nosuch\": names nothing" },
	{ 0 },
};

const struct tb_datatype tb_type_sql_name = {
	.name = "sql_name",
	.parent = &tb_type_string,
	.ctype = "const char *",
	.values = sql_name_values,
};
