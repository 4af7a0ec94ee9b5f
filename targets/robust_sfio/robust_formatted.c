/*
 * Hardened formatted I/O.  The v-functions check their va_list and go on
 * to SFIO's; the variadic printf functions make the same checks on their
 * own arguments and call SFIO's v-function, and the variadic scanf ones are
 * the v-functions on their own arguments, as in SFIO.
 */
#include <errno.h>
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

/* The checked calls behind the printf functions, in line in both the
 * v-function and the variadic one: sfprintf and sfsprintf check their own
 * arguments once and call the real v-function, rather than the wrapper. */
static inline __attribute__((always_inline)) int checked_vprintf(Sfio_t *f, const char *format,
								  va_list args)
{
	if (!rs_stream_ok(f, SF_WRITE) || !rs_printf_ok(format, args))
		return -1;
	return RS_CALL(sfvprintf, f, format, args);
}

/* s holds n bytes, the last of them for the NUL. */
static inline __attribute__((always_inline)) int checked_vsprintf(char *s, int n,
								   const char *format, va_list args)
{
	if (n < 0)
		RS_REFUSE(EINVAL, -1);
	if (!rs_buffer_ok(s, (size_t)n, 1) || !rs_printf_ok(format, args))
		return -1;
	return RS_CALL(sfvsprintf, s, n, format, args);
}

static __attribute__((noinline)) int outer_vprintf(Sfio_t *f, const char *format, va_list args)
{
	return checked_vprintf(f, format, args);
}

/* SFIO's sfvsprintf prints through sfvprintf, which arrives here nested:
 * the test of the depth comes first, so that forward is a tail call. */
int sfvprintf(Sfio_t *f, const char *format, va_list args)
{
	RS_FORWARD_IF_NESTED(sfvprintf, f, format, args);
	return outer_vprintf(f, format, args);
}

/* What sfprintf does with its list: inside a real SFIO call, SFIO's
 * sfvprintf unchecked, as every nested call; else the checked call. */
static inline __attribute__((always_inline)) int list_vprintf(Sfio_t *f, const char *format,
							       va_list args)
{
	return RS_NESTED() ? rs_real.sfvprintf(f, format, args) : checked_vprintf(f, format, args);
}

int sfprintf(Sfio_t *f, const char *format, ...)
{
	return VARIADIC(list_vprintf, f, format);
}

int sfvsprintf(char *s, int n, const char *format, va_list args)
{
	RS_FORWARD_IF_NESTED(sfvsprintf, s, n, format, args);
	return checked_vsprintf(s, n, format, args);
}

/* ... and sfsprintf, likewise. */
static inline __attribute__((always_inline)) int list_vsprintf(char *s, int n,
								const char *format, va_list args)
{
	return RS_NESTED() ? rs_real.sfvsprintf(s, n, format, args)
			   : checked_vsprintf(s, n, format, args);
}

int sfsprintf(char *s, int n, const char *format, ...)
{
	return VARIADIC(list_vsprintf, s, n, format);
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
