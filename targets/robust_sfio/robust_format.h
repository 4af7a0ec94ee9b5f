/*
 * Checking a format string against the arguments that come with it, before
 * SFIO's printf or scanf engine runs (robust_format.c).  Each conversion's
 * argument is fetched from a copy of the va_list, exactly as the engine will
 * fetch it (on x86-64, a kept printf format of integer-class arguments reads
 * just its pointers from their slots), and a pointer argument is checked for
 * what the conversion does with it: %s reads a string, %n and every scanf
 * conversion write.
 */
#ifndef ROBUST_FORMAT_H
#define ROBUST_FORMAT_H

#include <stdarg.h>
#include <stddef.h>

#pragma GCC visibility push(hidden)  /* the library's own, not its interface */

/* The arguments of a printf format are safe to print; else errno is set
 * (EFAULT, or EINVAL for a format this library cannot check). */
int rs_printf_ok(const char *format, va_list args);

/* The format to hand scanf: format itself, or a copy in which each %s and
 * %[ without a width got the width its destination can hold.  NULL with
 * errno set when a destination cannot be written or the format cannot be
 * checked.  A returned copy other than format is freed with free(). */
char *rs_scanf_format(const char *format, va_list args);

#pragma GCC visibility pop

#endif
