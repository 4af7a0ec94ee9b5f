/*
 * Reproducer: zlib gzungetc, case 9 of trebuchet's cross product
 *
 *   gzungetc(int:ZERO, gzFile:READ_PLAIN)
 *
 *   c (int) = int:ZERO: 0
 *   file (gzFile) = gzFile:READ_PLAIN: gzopen("rb") of a plain text file: read as it is
 *
 * `trebuchet repro --target examples/zlib/zlib.yaml --function gzungetc --case 9`
 * ran it and saw: ABORT, signal 11 (SIGSEGV).
 * Built and run here, this program should end the same way:
 * it dies of signal 11 (SIGSEGV).
 *
 * Build and run it with a C compiler and libz.so.1 alone:
 *   make         builds ./repro
 *   make run     runs it, stopped after 10 seconds
 *   ./repro      the same, never stopped
 * Before the call it says on stderr "repro: calling ...": a crash or a hang
 * comes after that line.  When the call returns it prints on stdout what came
 * back (the return value as a number, errno, and whether gzungetc's error
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
 * support/ (int.c, memory.c, pointer.c, registry.c, scratch_file.c,
 * zlib_values.c); this file is the one to read.
 */
#include <errno.h>
#include <stdint.h>

#include "repro_support.h"
#include <zlib.h>

extern const struct tb_datatype tb_type_gzfile;
extern const struct tb_datatype tb_type_int;

int main(int argc, char **argv)
{
	union tb_arg a[2];  /* one slot per parameter, as trebuchet's call shim reads them */
	int ret;
	int err;

	repro_enter(argv);
	repro_value(&a[0], &tb_type_int, "ZERO", "c");
	repro_value(&a[1], &tb_type_gzfile, "READ_PLAIN", "file");

	repro_calling("gzungetc(int:ZERO, gzFile:READ_PLAIN)");
	errno = 0;
	ret = gzungetc((int)a[0].i, (gzFile)a[1].ptr);
	err = errno;
	repro_returned("gzungetc", (long long)ret, err, ret < 0);
}
