/*
 * Reproducer: jansson json_equal, case 414 of trebuchet's cross product
 *
 *   json_equal(json_t:DEEP, json_t:DEEP)
 *
 *   value1 (const json_t *) = json_t:DEEP: arrays nested 200000 deep, built with
 *       json_array_append_new
 *   value2 (const json_t *) = json_t:DEEP: arrays nested 200000 deep, built with
 *       json_array_append_new
 *
 * `trebuchet repro --target examples/jansson/jansson.yaml --function json_equal --case 414`
 * ran it and saw: ABORT, signal 11 (SIGSEGV).
 * That breaks the library's documented promise:
 *   returns on acceptable values (apiref.rst:1868-1872: returns 1 if
 *   value1 and value2 are equal, 0 if they are unequal or one or both of
 *   the pointers are NULL).
 * Built and run here, this program should end the same way:
 * it dies of signal 11 (SIGSEGV).
 *
 * Build and run it with a C compiler and libjansson.so.4 alone:
 *   make         builds ./repro
 *   make run     runs it, stopped after 10 seconds
 *   ./repro      the same, never stopped
 * Before the call it says on stderr "repro: calling ...": a crash or a hang
 * comes after that line.  When the call returns it prints on stdout what came
 * back (the return value as a number, errno, and whether json_equal's error
 * convention says an error was reported) and exits 0.
 *
 * A hang: the program sets no watchdog of its own, so a call that never
 * returns is seen not returning; `make run` stops it with timeout(1), exit
 * status 124.  (trebuchet stops one after --timeout, 2 s by default: RESTART.)
 *
 * What it sets up as trebuchet's test process had it: support/repro_world.c
 * (a fresh working directory for the values' files, the same limits,
 * environment and descriptors, ASLR and malloc's tcache off, nobody when
 * started as root).  What it cannot: the heap and the addresses.  A value
 * that points into freed memory (pointer's FREED, FILE:CLOSED,
 * Sfio_t:CLOSED) hands the function what the allocator left there: its own
 * list pointers into the C library, which lies elsewhere in this program
 * than in trebuchet's executor (that maps more libraries), over bytes this
 * program's other allocations may differ in.  Read as a stream's flags and
 * lock, they can lead the call elsewhere: a case holding such a value may
 * end otherwise here.
 * Nor does it set trebuchet's CPU limit (the watchdog above) or give the call
 * a process group and session of its own.
 *
 * The values are built by trebuchet's own code, copied unchanged into
 * support/ (memory.c, pointer.c, registry.c, string.c, jansson_values.c);
 * this file is the one to read.
 */
#include <errno.h>
#include <stdint.h>

#include "repro_support.h"
#include <jansson.h>

extern const struct tb_datatype tb_type_json;

int main(int argc, char **argv)
{
	union tb_arg a[2];  /* one slot per parameter, as trebuchet's call shim reads them */
	int ret;
	int err;

	repro_enter(argv);
	repro_value(&a[0], &tb_type_json, "DEEP", "value1");
	repro_value(&a[1], &tb_type_json, "DEEP", "value2");

	repro_calling("json_equal(json_t:DEEP, json_t:DEEP)");
	errno = 0;
	ret = json_equal((const json_t *)a[0].ptr, (const json_t *)a[1].ptr);
	err = errno;
	repro_returned("json_equal", (long long)ret, err, 0);
}
