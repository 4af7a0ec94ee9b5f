/*
 * The SQLite table (sqlite_late.h).
 */
#include <dlfcn.h>
#include <stdio.h>

#include "sqlite_late.h"

/* the soname Debian's libsqlite3-0 installs, which libsqlite3-dev's
 * libsqlite3.so links to */
#define SQLITE_SONAME "libsqlite3.so.0"

struct tb_sqlite tb_sqlite;

int tb_sqlite_load(char *why, size_t len)
{
	void *lib;

	if (tb_sqlite.step)
		return 0;
	lib = dlopen(SQLITE_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		snprintf(why, len, "cannot load SQLite: %s", dlerror());
		return -1;
	}
#define TB_SQLITE_FIND(name)                                                      \
	if (!(tb_sqlite.name = (__typeof__(tb_sqlite.name))dlsym(lib, "sqlite3_" #name))) { \
		snprintf(why, len, "cannot load SQLite: %s has no sqlite3_" #name,      \
			 SQLITE_SONAME);                                                 \
		return -1;                                                               \
	}
	TB_SQLITE_FUNCTIONS(TB_SQLITE_FIND)
#undef TB_SQLITE_FIND
	return 0;
}
