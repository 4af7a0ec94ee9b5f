/*
 * Reproducer: libarchive archive_write_fail, case 8 of trebuchet's cross product
 *
 *   archive_write_fail(archive_write:NEW)
 *
 *   a (struct archive *) = archive_write:NEW: archive_write_new()
 *
 * `trebuchet repro --target examples/libarchive/libarchive.yaml --function archive_write_fail --case 8`
 * ran it and saw: PASS, returned 32768, errno 0, error not reported.
 * That breaks the library's documented promise:
 *   answers a = NEW or FORMAT_SET or OPENED or AT_ENTRY or FAILED or
 *   CLOSED with an error (archive_write_free(3) archive_write_fail():
 *   always returns ARCHIVE_FATAL).
 * Built and run here, this program should end the same way:
 * it exits 0 after printing "archive_write_fail returned 32768, errno 0,
 * error not reported".
 *
 * Build and run it with a C compiler and libarchive.so.13 alone:
 *   make         builds ./repro
 *   make run     runs it, stopped after 10 seconds
 *   ./repro      the same, never stopped
 * Before the call it says on stderr "repro: calling ...": a crash or a hang
 * comes after that line.  When the call returns it prints on stdout what came
 * back (the return value as a number, errno, and whether archive_write_fail's error
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
 * support/ (memory.c, pointer.c, registry.c, libarchive_values.c); this
 * file is the one to read.
 */
#include <errno.h>
#include <stdint.h>

#include "repro_support.h"
#include <archive.h>
#include <archive_entry.h>

extern const struct tb_datatype tb_type_archive_write;

int main(int argc, char **argv)
{
	union tb_arg a[1];  /* one slot per parameter, as trebuchet's call shim reads them */
	int ret;
	int err;

	repro_enter(argv);
	repro_value(&a[0], &tb_type_archive_write, "NEW", "a");

	repro_calling("archive_write_fail(archive_write:NEW)");
	errno = 0;
	ret = archive_write_fail((struct archive *)a[0].ptr);
	err = errno;
	repro_returned("archive_write_fail", (long long)ret, err, ret == -30);
}
