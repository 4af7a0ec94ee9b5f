/*
 * What repro.c needs besides the library under test: the world trebuchet's
 * test process runs in, made again here (repro_world.c), and trebuchet's own
 * test values, built by their names with the very code trebuchet builds
 * them with (repro_value.c and the datatype files beside it).
 */
#ifndef REPRO_SUPPORT_H
#define REPRO_SUPPORT_H

#include "datatype.h"

/* Sets up the test process's world (see repro_world.c); first thing in main. */
void repro_enter(char **argv);

/* Builds value `name` of datatype `type` into *out, for parameter `param`;
 * exits 3 when it cannot be built here (trebuchet's SETUP). */
void repro_value(union tb_arg *out, const struct tb_datatype *type, const char *name,
		 const char *param);

/* Says on stderr what is about to be called: a crash or a hang comes after it. */
void repro_calling(const char *call);

/* The call returned: prints what came back on stdout, removes the working
 * directory and exits 0. */
void repro_returned(const char *function, long long ret, int err, int error_reported)
	__attribute__((noreturn));

/* The same for a 64-bit unsigned return value, and for a floating one. */
void repro_returned_unsigned(const char *function, unsigned long long ret, int err,
			     int error_reported) __attribute__((noreturn));
void repro_returned_floating(const char *function, double ret, int err, int error_reported)
	__attribute__((noreturn));

/* A value could not be built: says which, removes the directory, exits 3. */
void repro_not_built(const char *param, const char *type, const char *name)
	__attribute__((noreturn));

#endif
