/*
 * Reproducer: libcurl curl_easy_escape, case 5 of trebuchet's cross product
 *
 *   curl_easy_escape(CURL:NULL, escape_text:TOO_LONG, span:SPAN)
 *
 *   handle (CURL *) = CURL:NULL: the null pointer
 *   string (const char *) = escape_text:TOO_LONG: 9000000 'a's, that length: past
 *       CURL_MAX_INPUT_LENGTH (8 MB)
 *   length (int) = span:SPAN: set with the parameter before, by its datatype
 *
 * `trebuchet repro --target examples/libcurl/libcurl.yaml --function curl_easy_escape --case 5`
 * ran it and saw: PASS, returned 140737292578832, errno 0, error not reported.
 * Built and run here, this program should end the same way:
 * it exits 0 after printing "curl_easy_escape returned 140737292578832,
 * errno 0, error not reported" (an address, which may differ).
 *
 * Build and run it with a C compiler and libcurl.so.4 alone:
 *   make         builds ./repro
 *   make run     runs it, stopped after 10 seconds
 *   ./repro      the same, never stopped
 * Before the call it says on stderr "repro: calling ...": a crash or a hang
 * comes after that line.  When the call returns it prints on stdout what came
 * back (the return value as a number, errno, and whether curl_easy_escape's error
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
 * support/ (int.c, memory.c, pointer.c, registry.c, span.c, string.c,
 * libcurl_values.c); this file is the one to read.
 */
#include <errno.h>
#include <stdint.h>

#include "repro_support.h"
#include <curl/curl.h>

extern const struct tb_datatype tb_type_curl;
extern const struct tb_datatype tb_type_escape_text;
extern const struct tb_datatype tb_type_span;

int main(int argc, char **argv)
{
	union tb_arg a[3];  /* one slot per parameter, as trebuchet's call shim reads them */
	char *ret;
	int err;

	repro_enter(argv);
	repro_value(&a[0], &tb_type_curl, "NULL", "handle");
	repro_value(&a[1], &tb_type_escape_text, "TOO_LONG", "string");
	repro_value(&a[2], &tb_type_span, "SPAN", "length");

	repro_calling("curl_easy_escape(CURL:NULL, escape_text:TOO_LONG, span:SPAN)");
	errno = 0;
	ret = curl_easy_escape((CURL *)a[0].ptr, (const char *)a[1].ptr, (int)a[2].i);
	err = errno;
	repro_returned("curl_easy_escape", (long long)(intptr_t)ret, err, ret == NULL);
}
