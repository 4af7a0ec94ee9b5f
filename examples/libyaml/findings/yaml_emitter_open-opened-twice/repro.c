/*
 * Reproducer: libyaml yaml_emitter_open, case 16 of trebuchet's cross product
 *
 *   yaml_emitter_open(yaml_emitter:OPENED)
 *
 *   emitter (yaml_emitter_t *) = yaml_emitter:OPENED: with output, yaml_emitter_open
 *
 * `trebuchet repro --target examples/libyaml/libyaml.yaml --function yaml_emitter_open --case 16`
 * ran it and saw: ABORT, signal 6 (SIGABRT).
 * That breaks the library's documented promise:
 *   returns on acceptable values (yaml.h:1924-1935: start a YAML stream;
 *   returns 1 if the function succeeded, 0 on error).
 * Built and run here, this program should end the same way:
 * it dies of signal 6 (SIGABRT).
 *
 * Build and run it with a C compiler and libyaml-0.so.2 alone:
 *   make         builds ./repro
 *   make run     runs it, stopped after 10 seconds
 *   ./repro      the same, never stopped
 * Before the call it says on stderr "repro: calling ...": a crash or a hang
 * comes after that line.  When the call returns it prints on stdout what came
 * back (the return value as a number, errno, and whether yaml_emitter_open's error
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
 * support/ (int.c, memory.c, pointer.c, registry.c, libyaml_values.c);
 * this file is the one to read.
 */
#include <errno.h>
#include <stdint.h>

#include "repro_support.h"
#include <yaml.h>

extern const struct tb_datatype tb_type_yaml_emitter;

int main(int argc, char **argv)
{
	union tb_arg a[1];  /* one slot per parameter, as trebuchet's call shim reads them */
	int ret;
	int err;

	repro_enter(argv);
	repro_value(&a[0], &tb_type_yaml_emitter, "OPENED", "emitter");

	repro_calling("yaml_emitter_open(yaml_emitter:OPENED)");
	errno = 0;
	ret = yaml_emitter_open((yaml_emitter_t *)a[0].ptr);
	err = errno;
	repro_returned("yaml_emitter_open", (long long)ret, err, ret == 0);
}
