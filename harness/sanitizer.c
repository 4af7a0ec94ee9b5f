/*
 * The SUMMARY line of an ASan report, again, last (sanitizer.h).  ASan calls
 * the report callback with the whole report's text once it is printed and
 * before it aborts, in the test process that made the error; write(2)
 * alone, since the process is about to die in the middle of anything.
 */
#include <dlfcn.h>
#include <string.h>
#include <unistd.h>

#include "sanitizer.h"
#include "world.h"

#define SUMMARY "SUMMARY: "

static void summary_last(const char *report)
{
	const char *s = strstr(report, SUMMARY), *end;

	if (!s)
		return;
	end = strchr(s, '\n');
	if (write(2, s, end ? (size_t)(end - s) + 1 : strlen(s)) < 0)
		return;  /* nothing to be done about it in a dying process */
}

void tb_sanitizer_init(void)
{
	void (*set_callback)(void (*)(const char *));

	if (!tb_world_sanitizer_loaded())
		return;
	set_callback = (void (*)(void (*)(const char *)))dlsym(RTLD_DEFAULT,
		"__asan_set_error_report_callback");
	if (set_callback)
		set_callback(summary_last);
}
