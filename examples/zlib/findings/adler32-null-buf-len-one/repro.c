/*
 * Reproducer: zlib adler32, case 1 of trebuchet's cross product
 *
 *   adler32(size:ZERO, buffer:NULL, size:ONE)
 *
 *   adler (uLong) = size:ZERO: 0
 *   buf (const Bytef *) = buffer:NULL: the null pointer
 *   len (uInt) = size:ONE: 1
 *
 * `trebuchet repro --target examples/zlib/zlib.yaml --function adler32 --case 1`
 * ran it and saw: ABORT, signal 11 (SIGSEGV).
 * That breaks the library's documented promise:
 *   accepts buf = NULL (zlib.h:1689-1707: update a running Adler-32
 *   checksum with the bytes buf[0..len-1]; if buf is Z_NULL, this
 *   function returns the required initial value for the checksum).
 * Built and run here, this program should end the same way:
 * it dies of signal 11 (SIGSEGV).
 *
 * Build and run it with a C compiler and libz.so.1 alone:
 *   make         builds ./repro
 *   make run     runs it, stopped after 10 seconds
 *   ./repro      the same, never stopped
 * Before the call it says on stderr "repro: calling ...": a crash or a hang
 * comes after that line.  When the call returns it prints on stdout what came
 * back (the return value as a number, errno, and whether adler32's error
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
 * support/ (buffer.c, memory.c, pointer.c, registry.c, size.c); this file
 * is the one to read.
 */
#include <errno.h>
#include <stdint.h>

#include "repro_support.h"
#include <zlib.h>

extern const struct tb_datatype tb_type_buffer;
extern const struct tb_datatype tb_type_size;

int main(int argc, char **argv)
{
	union tb_arg a[3];  /* one slot per parameter, as trebuchet's call shim reads them */
	uLong ret;
	int err;

	repro_enter(argv);
	repro_value(&a[0], &tb_type_size, "ZERO", "adler");
	repro_value(&a[1], &tb_type_buffer, "NULL", "buf");
	repro_value(&a[2], &tb_type_size, "ONE", "len");

	repro_calling("adler32(size:ZERO, buffer:NULL, size:ONE)");
	errno = 0;
	ret = adler32((uLong)a[0].u, (const Bytef *)a[1].ptr, (uInt)a[2].u);
	err = errno;
	repro_returned_unsigned("adler32", (unsigned long long)ret, err, 0);
}
