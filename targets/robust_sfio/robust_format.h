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
#include <stdint.h>

#include "robust_check.h"

#pragma GCC visibility push(hidden)  /* the library's own, not its interface */

/* The checks a call of `format` needs, answered in line by rs_printf_ok,
 * for the two formats rs_printf_check most recently found sealed in this
 * epoch (so that their bytes are the ones they were parsed from,
 * robust_format.c) whose arguments are all of the integer class and whose
 * one pointer, if any, is a %s: a record loop prints through one or two.
 * Copies of the plans, not references into the cache, so they stay right
 * when a cache entry is replaced; a new epoch retires them.  Set on x86-64
 * only, where the plan reads the va_list's slots. */
struct rs_printf_fast {
	const char *format;     /* NULL: none */
	uint64_t epoch;         /* the epoch format was sealed in */
	int string;             /* the format takes a %s: its check below */
	unsigned char slot;     /* the string's argument, from 0 */
	signed char precision_slot;  /* %.*s: the int giving its precision; -1 none */
	long precision;         /* without .*: the written precision, -1 none */
};
extern struct rs_printf_fast rs_printf_fast[2];  /* the latest first */

/* The arguments of a printf format are safe to print; else errno is set
 * (EFAULT, or EINVAL for a format this library cannot check). */
int rs_printf_check(const char *format, va_list args);

#if defined(__x86_64__) && !defined(__ILP32__)
/* Argument k of an integer-class list, read where va_arg would find it (the
 * SysV x86-64 ABI): the first six general-purpose arguments saved at
 * reg_save_area, gp_offset bytes of them taken by the named parameters,
 * the rest in 8-byte slots at overflow_arg_area.  Only lists in which no
 * floating-point argument comes first are read so: those go elsewhere. */
static inline uintptr_t rs_argument(va_list args, unsigned k)
{
	unsigned offset = args->gp_offset + 8 * k;

	if (offset < 48)
		return *(const uintptr_t *)((const char *)args->reg_save_area + offset);
	return ((const uintptr_t *)args->overflow_arg_area)[(offset - 48) / 8];
}

/* rs_printf_check's answer, in line for a format rs_printf_fast holds when
 * its string (if any) lies in the range the argument hint names, with its
 * precision's bytes or its NUL; anything else asks in full. */
static inline __attribute__((always_inline)) int rs_printf_ok(const char *format,
							      va_list args)
{
	const struct rs_printf_fast *fast = &rs_printf_fast[0];
	const struct rs_range *r;
	uintptr_t s;
	long max;

	if (format != fast->format)
		fast = &rs_printf_fast[1];
	if (__builtin_expect(format != fast->format || fast->epoch != rs_memory_epoch, 0))
		return rs_printf_check(format, args);
	if (!fast->string)
		return 1;
	s = rs_argument(args, fast->slot);
	max = fast->precision_slot < 0 ? fast->precision
				       : (int)rs_argument(args, (unsigned)fast->precision_slot);
	r = rs_covering_hinted(s, 1, 0, &rs_argument_hint);
	if (r && (max < 0 ? __builtin_memchr((const char *)s, '\0', r->end - s) != NULL
			  : r->end - s >= (unsigned long)max))
		return 1;
	return rs_printf_check(format, args);
}
#else
#define rs_printf_ok rs_printf_check
#endif

/* The format to hand scanf: format itself, or a copy in which each %s and
 * %[ without a width got the width its destination can hold.  NULL with
 * errno set when a destination cannot be written or the format cannot be
 * checked.  A returned copy other than format is freed with free(). */
char *rs_scanf_format(const char *format, va_list args);

#pragma GCC visibility pop

#endif
