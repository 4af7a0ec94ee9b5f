/*
 * Reproducer: libcurl curl_url_set, case 60888 of trebuchet's cross product
 *
 *   curl_url_set(CURLU:EMPTY, url_part:HOST, url_text:EMPTY, url_flags:URLENCODE)
 *
 *   handle (CURLU *) = CURLU:EMPTY: curl_url(): no part set
 *   what (CURLUPart) = url_part:HOST: CURLUPART_HOST
 *   part (const char *) = url_text:EMPTY: the empty string
 *   flags (unsigned int) = url_flags:URLENCODE: CURLU_URLENCODE
 *
 * `trebuchet repro --target examples/libcurl/libcurl.yaml --function curl_url_set --case 60888`
 * ran it and saw: ABORT, signal 11 (SIGSEGV).
 * That breaks the library's documented promise:
 *   returns on acceptable values (urlapi.h:130-136; curl_url_set(3),
 *   DESCRIPTION and RETURN VALUE: returns a CURLUcode error value,
 *   CURLUE_OK (0) if everything went fine; libcurl-errors(3), CURLUcode).
 * Built and run here, this program should end the same way:
 * it dies of signal 11 (SIGSEGV).
 *
 * Build and run it with a C compiler and libcurl.so.4 alone:
 *   make         builds ./repro
 *   make run     runs it, stopped after 10 seconds
 *   ./repro      the same, never stopped
 * Before the call it says on stderr "repro: calling ...": a crash or a hang
 * comes after that line.  When the call returns it prints on stdout what came
 * back (the return value as a number, errno, and whether curl_url_set's error
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
 * support/ (int.c, memory.c, pointer.c, registry.c, string.c,
 * libcurl_values.c); this file is the one to read.
 */
#include <errno.h>
#include <stdint.h>

#include "repro_support.h"
#include <curl/curl.h>

extern const struct tb_datatype tb_type_curlu;
extern const struct tb_datatype tb_type_url_flags;
extern const struct tb_datatype tb_type_url_part;
extern const struct tb_datatype tb_type_url_text;

int main(int argc, char **argv)
{
	union tb_arg a[4];  /* one slot per parameter, as trebuchet's call shim reads them */
	CURLUcode ret;
	int err;

	repro_enter(argv);
	repro_value(&a[0], &tb_type_curlu, "EMPTY", "handle");
	repro_value(&a[1], &tb_type_url_part, "HOST", "what");
	repro_value(&a[2], &tb_type_url_text, "EMPTY", "part");
	repro_value(&a[3], &tb_type_url_flags, "URLENCODE", "flags");

	repro_calling("curl_url_set(CURLU:EMPTY, url_part:HOST, url_text:EMPTY, url_flags:URLENCODE)");
	errno = 0;
	ret = curl_url_set((CURLU *)a[0].ptr, (CURLUPart)a[1].u, (const char *)a[2].ptr, (unsigned int)a[3].u);
	err = errno;
	repro_returned("curl_url_set", (long long)ret, err, ret != 0);
}
