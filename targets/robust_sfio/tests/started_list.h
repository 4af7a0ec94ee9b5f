/*
 * A caller that hands SFIO's sfvsprintf a list it has already started on,
 * so that the library's checks must find the arguments where the list now
 * stands (on x86-64, past the slots its gp_offset says were taken).  Shared
 * by the Check suite and the equivalence programs; needs sfvsprintf
 * declared before it is included.
 */
#ifndef STARTED_LIST_H
#define STARTED_LIST_H

#include <stdarg.h>

/* sfvsprintf on the arguments after the first, an int this function takes. */
static int vsprintf_after_first(char *buf, int n, const char *format, ...)
{
	va_list args;
	int got;

	va_start(args, format);
	(void)va_arg(args, int);
	got = sfvsprintf(buf, n, format, args);
	va_end(args);
	return got;
}

#endif
