/*
 * Hardened formatted I/O.  The variadic functions check their va_list and
 * go on to SFIO's v-functions, as SFIO's own do.
 */
#include <stdarg.h>
#include <stdlib.h>

#include "robust_fail.h"
#include "robust_format.h"
#include "robust_real.h"
#include "robust_sfio.h"

int sfvprintf(Sfio_t *f, const char *format, va_list args)
{
	if (RS_NESTED())
		return RS_CALL(sfvprintf, f, format, args);
	if (!rs_stream_ok(f, SF_WRITE) || !rs_printf_ok(format, args))
		return -1;
	return RS_CALL(sfvprintf, f, format, args);
}

int sfprintf(Sfio_t *f, const char *format, ...)
{
	va_list args;
	int n;

	va_start(args, format);
	n = sfvprintf(f, format, args);
	va_end(args);
	return n;
}

/* s holds n bytes, the last of them for the NUL. */
int sfvsprintf(char *s, int n, const char *format, va_list args)
{
	if (RS_NESTED())
		return RS_CALL(sfvsprintf, s, n, format, args);
	if (n < 0)
		RS_REFUSE(EINVAL, -1);
	if (!rs_buffer_ok(s, (size_t)n, 1) || !rs_printf_ok(format, args))
		return -1;
	return RS_CALL(sfvsprintf, s, n, format, args);
}

int sfsprintf(char *s, int n, const char *format, ...)
{
	va_list args;
	int result;

	va_start(args, format);
	result = sfvsprintf(s, n, format, args);
	va_end(args);
	return result;
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
	if (RS_NESTED())
		return RS_CALL(sfvscanf, f, format, args);
	if (!rs_stream_ok(f, SF_READ))
		return -1;
	return SCAN_WITH_BOUNDED_FORMAT(RS_CALL(sfvscanf, f, bounded_, args));
}

int sfscanf(Sfio_t *f, const char *format, ...)
{
	va_list args;
	int n;

	va_start(args, format);
	n = sfvscanf(f, format, args);
	va_end(args);
	return n;
}

int sfvsscanf(const char *s, const char *format, va_list args)
{
	if (RS_NESTED())
		return RS_CALL(sfvsscanf, s, format, args);
	if (!rs_string_ok(s))
		return -1;
	return SCAN_WITH_BOUNDED_FORMAT(RS_CALL(sfvsscanf, s, bounded_, args));
}

int sfsscanf(const char *s, const char *format, ...)
{
	va_list args;
	int n;

	va_start(args, format);
	n = sfvsscanf(s, format, args);
	va_end(args);
	return n;
}
