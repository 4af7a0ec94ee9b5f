/*
 * The SUMMARY line of an ASan report, again, last (sanitizer.h).  ASan calls
 * the report callback with the whole report's text once it is printed and
 * before it aborts, in the test process that made the error.  A report can
 * also die before its end (ASan's own CHECK failing while it describes a
 * block, as with a block freed before the fork server's first fork): then
 * the death callback writes the kind the report had begun with, and no
 * place.  write(2) alone: the process is about to die in the middle of
 * anything.
 */
#include <dlfcn.h>
#include <string.h>
#include <unistd.h>

#include "sanitizer.h"
#include "world.h"

#define SUMMARY "SUMMARY: "
#define UNFINISHED_HEAD "SUMMARY: AddressSanitizer: "
#define UNFINISHED_TAIL " (the report did not finish)\n"

static int (*report_present)(void);
static const char *(*report_description)(void);
static int summarized;

static void say(const char *s, size_t n)
{
	if (write(2, s, n) < 0)
		return;  /* nothing to be done about it in a dying process */
}

static void summary_last(const char *report)
{
	const char *s = strstr(report, SUMMARY), *end;

	if (!s)
		return;
	end = strchr(s, '\n');
	say(s, end ? (size_t)(end - s) + 1 : strlen(s));
	summarized = 1;
}

static void on_death(void)
{
	const char *kind;

	if (summarized || !report_present || !report_description || !report_present())
		return;
	kind = report_description();
	say(UNFINISHED_HEAD, strlen(UNFINISHED_HEAD));
	say(kind, strlen(kind));
	say(UNFINISHED_TAIL, strlen(UNFINISHED_TAIL));
}

void tb_sanitizer_init(void)
{
	void (*set_report)(void (*)(const char *));
	void (*set_death)(void (*)(void));

	if (strcmp(tb_world_sanitizer(), "address") || !tb_world_sanitizer_loaded())
		return;  /* UBSan's report is one line, kept whole (world.c) */
	set_report = (void (*)(void (*)(const char *)))dlsym(RTLD_DEFAULT,
		"__asan_set_error_report_callback");
	set_death = (void (*)(void (*)(void)))dlsym(RTLD_DEFAULT, "__sanitizer_set_death_callback");
	report_present = (int (*)(void))dlsym(RTLD_DEFAULT, "__asan_report_present");
	report_description = (const char *(*)(void))dlsym(RTLD_DEFAULT,
		"__asan_get_report_description");
	if (set_report)
		set_report(summary_last);
	if (set_death)
		set_death(on_death);
}
