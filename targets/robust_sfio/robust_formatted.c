/*
 * Hardened formatted I/O.  The v-functions check their va_list and go on
 * to SFIO's; the variadic ones are the v-functions on their own arguments,
 * as in SFIO.
 */
#include <stdarg.h>
#include <stdlib.h>

#include "robust_fail.h"
#include "robust_format.h"
#include "robust_real.h"
#include "robust_sfio.h"

/* A variadic function's body: its v-function on the same arguments, then
 * the list of the rest (the last named parameter is always `format`). */
#define VARIADIC(vfunction, ...) ({ \
	va_list args_; \
	int n_; \
	va_start(args_, format); \
	n_ = vfunction(__VA_ARGS__, args_); \
	va_end(args_); \
	n_; })

int sfvprintf(Sfio_t *f, const char *format, va_list args)
{
	RS_FORWARD_IF_NESTED(sfvprintf, f, format, args);
	if (!rs_stream_ok(f, SF_WRITE) || !rs_printf_ok(format, args))
		return -1;
	return RS_CALL(sfvprintf, f, format, args);
}

int sfprintf(Sfio_t *f, const char *format, ...)
{
	return VARIADIC(sfvprintf, f, format);
}

/* s holds n bytes, the last of them for the NUL. */
int sfvsprintf(char *s, int n, const char *format, va_list args)
{
	RS_FORWARD_IF_NESTED(sfvsprintf, s, n, format, args);
	if (n < 0)
		RS_REFUSE(EINVAL, -1);
	if (!rs_buffer_ok(s, (size_t)n, 1) || !rs_printf_ok(format, args))
		return -1;
	return RS_CALL(sfvsprintf, s, n, format, args);
}

int sfsprintf(char *s, int n, const char *format, ...)
{
	return VARIADIC(sfvsprintf, s, n, format);
}

/* The scanf functions run on a format whose unbounded strings got widths. */
#define SCAN_WITH_BOUNDED_FORMAT(call) ({ \
	char *bounded_ = rs_scanf_format(format, args); \
	int n_ = -1; \
	if (bounded_) { \
		n_ = (call); \
		if (bounded_ != format) \
			free(bounded_); \
	} \
	n_; })

int sfvscanf(Sfio_t *f, const char *format, va_list args)
{
	RS_FORWARD_IF_NESTED(sfvscanf, f, format, args);
	if (!rs_stream_ok(f, SF_READ))
		return -1;
	return SCAN_WITH_BOUNDED_FORMAT(RS_CALL(sfvscanf, f, bounded_, args));
}

int sfscanf(Sfio_t *f, const char *format, ...)
{
	return VARIADIC(sfvscanf, f, format);
}

int sfvsscanf(const char *s, const char *format, va_list args)
{
	RS_FORWARD_IF_NESTED(sfvsscanf, s, format, args);
	if (!rs_string_ok(s))
		return -1;
	return SCAN_WITH_BOUNDED_FORMAT(RS_CALL(sfvsscanf, s, bounded_, args));
}

int sfsscanf(const char *s, const char *format, ...)
{
	return VARIADIC(sfvsscanf, s, format);
}
