/*
 * The format checks of robust_format.h.  The grammar is the C one SFIO
 * implements: %[flags][width][.precision][length]conversion, with * for a
 * width or precision taken from the arguments.  What cannot be checked is
 * refused with EINVAL: positional arguments (%n$), SFIO's extension
 * conversions (%!, %&, %(...)), wide characters, and widths that overflow.
 */
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "robust_check.h"
#include "robust_format.h"
#include "robust_memory.h"

/* The most a %s or %[ with no width may store: one system call's worth of
 * pages.  A longer token is cut at this length. */
#define SCAN_SPAN_MAX ((size_t)4 << 20)

#define CACHED_FORMATS 4   /* printf formats kept parsed */
#define CACHED_LENGTH 128  /* the longest kept, with its NUL */
#define CACHED_SPECS 16    /* the most conversions kept per format */

enum length { NONE, HH, H, L, LL, BIG_L, SIZE };

/* What a printf conversion takes from the arguments, decided once when the
 * format is parsed, so that a kept format's check is a walk of these. */
enum argument {
	ARG_NONE, ARG_INT, ARG_LONG_LONG, ARG_DOUBLE, ARG_LONG_DOUBLE, ARG_POINTER,
	ARG_STRING,  /* read to its NUL or its precision */
	ARG_STORE,   /* %n: an integer of the length's size written */
	ARG_INVALID, /* refused with EINVAL */
};

struct spec {
	const char *start;  /* the '%' */
	const char *end;    /* just past the conversion character */
	int suppress;       /* scanf's %*: no argument */
	long width;         /* -1: none given */
	long precision;     /* -1: none given */
	int width_star;     /* printf's *: the width is the next int argument */
	int precision_star; /* printf's .*: so is the precision */
	enum length length;
	char conversion;
	enum argument argument; /* printf's; set by printf_argument */
};

static int refuse(int err)
{
	errno = err;
	return 0;
}

/* A decimal number in a format; 0 on overflow past INT_MAX. */
static int number(const char **p, long *out)
{
	long n = 0;

	while (**p >= '0' && **p <= '9') {
		n = n * 10 + (**p - '0');
		if (n > INT_MAX)
			return refuse(EINVAL);
		(*p)++;
	}
	*out = n;
	return 1;
}

static const char *length_modifier(const char *p, enum length *length)
{
	*length = NONE;
	for (;; p++) {
		switch (*p) {
		case 'h': *length = *length == H ? HH : H; continue;
		case 'l': *length = *length == L ? LL : L; continue;
		case 'q': *length = LL; continue;
		case 'L': *length = BIG_L; continue;
		case 'j': case 'z': case 't': *length = SIZE; continue;
		}
		return p;
	}
}

/* Parses the conversion at p (just past '%'); a printf * is marked, for the
 * caller to fetch its int. */
static int parse(const char *p, struct spec *s, int scanning)
{
	memset(s, 0, sizeof(*s));
	s->start = p - 1;
	s->width = s->precision = -1;
	if (scanning && *p == '*') {
		s->suppress = 1;
		p++;
	}
	while (!scanning && *p && strchr("-+ #0'", *p))
		p++;
	if (!scanning && *p == '*') {
		s->width_star = 1;
		p++;
	} else if (*p >= '0' && *p <= '9') {
		if (!number(&p, &s->width))
			return 0;
		if (*p == '$')  /* positional */
			return refuse(EINVAL);
	}
	if (!scanning && *p == '.') {
		p++;
		if (*p == '*') {
			s->precision_star = 1;
			p++;
		} else if (!number(&p, &s->precision)) {
			return 0;
		}
	}
	p = length_modifier(p, &s->length);
	s->conversion = *p;
	if (!*p)
		return refuse(EINVAL);
	if (*p == '[' && scanning) {  /* the scanset runs to the next ']' */
		p++;
		if (*p == '^')
			p++;
		if (*p == ']')
			p++;
		p = strchr(p, ']');
		if (!p)
			return refuse(EINVAL);
	}
	s->end = p + 1;
	return 1;
}

static size_t integer_size(enum length length)
{
	switch (length) {
	case HH: return 1;
	case H: return sizeof(short);
	case NONE: return sizeof(int);
	default: return sizeof(long long);
	}
}

/* A %s argument: readable to its NUL, or for precision bytes if sooner. */
static int string_argument_ok(const char *s, long precision)
{
	/* NULL: SFIO prints "(null)" */
	return !s || rs_string_ok_hinted(s, precision < 0 ? SIZE_MAX : (size_t)precision,
					 &rs_argument_hint);
}

static enum argument printf_argument(const struct spec *s)
{
	switch (s->conversion) {
	case '%':
		return ARG_NONE;
	case 'd': case 'i': case 'o': case 'u': case 'x': case 'X': case 'c':
		return s->length == LL || s->length == SIZE || s->length == L ? ARG_LONG_LONG : ARG_INT;
	case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A':
		return s->length == BIG_L ? ARG_LONG_DOUBLE : ARG_DOUBLE;
	case 'p':
		return ARG_POINTER;
	case 's':
		return s->length == NONE ? ARG_STRING : ARG_INVALID;
	case 'n':
		return ARG_STORE;
	default:
		return ARG_INVALID;
	}
}

/* A printf conversion's arguments, a * width or precision first. */
static inline __attribute__((always_inline)) int printf_spec_ok(const struct spec *s, va_list *args)
{
	long precision = s->precision;

	if (s->width_star)
		(void)va_arg(*args, int);
	if (s->precision_star)
		precision = va_arg(*args, int);
	switch (s->argument) {
	case ARG_NONE:
		return 1;
	case ARG_INT:
		(void)va_arg(*args, int);
		return 1;
	case ARG_LONG_LONG:
		(void)va_arg(*args, long long);
		return 1;
	case ARG_DOUBLE:
		(void)va_arg(*args, double);
		return 1;
	case ARG_LONG_DOUBLE:
		(void)va_arg(*args, long double);
		return 1;
	case ARG_POINTER:
		(void)va_arg(*args, void *);
		return 1;
	case ARG_STRING:
		return string_argument_ok(va_arg(*args, const char *), precision);
	case ARG_STORE:
		return rs_buffer_ok(va_arg(*args, void *), integer_size(s->length), 1);
	default:
		return refuse(EINVAL);
	}
}

/* What a call of a kept format must check, where every argument it takes
 * is of the integer class (no floating point): its pointer arguments only,
 * by position, since an integer argument cannot make printf fault.  On
 * x86-64 such arguments are read straight from their slots in the va_list
 * (plan_ok); elsewhere, and for formats with floating-point arguments, the
 * conversions are walked with va_arg. */
struct check {
	unsigned char slot;           /* the pointer's argument, from 0 */
	signed char precision_slot;   /* %.*s: the int argument giving the precision; -1 none */
	unsigned char kind;           /* ARG_STRING or ARG_STORE */
	unsigned char size;           /* ARG_STORE: the bytes %n writes */
	long precision;               /* ARG_STRING without .*: -1, none written */
};

/* A printf format parsed once: its conversions, and whether it parsed to
 * its end (else errno says why, after the conversions before the fault). */
struct parsed {
	const char *format;
	size_t length;                 /* strlen(format) */
	unsigned count;                /* conversions in specs */
	int complete;                  /* parsed to the NUL; else refused with err */
	int err;
	uint64_t readable_epoch;       /* the epoch its bytes were last seen readable in */
	int sealed;                    /* its bytes cannot be written ... */
	uint64_t sealed_epoch;         /* ... as seen in this epoch */
	unsigned hits, seal_tries;     /* compared hits, and seals tried on them */
	int planned;                   /* complete, integer-class only: checks[] is all */
	unsigned checks;
	struct check check[CACHED_SPECS];
	struct spec specs[CACHED_SPECS];
	char text[CACHED_LENGTH];      /* the format's bytes and NUL, when cached */
};

/* The formats parsed most recently, replaced in turn: a program prints
 * through a few formats over and over, and parsing each anew (a strchr per
 * character of flags) cost more than the check of its arguments.  An entry
 * is used only for the same pointer, still remembered readable for the
 * format's length and NUL, holding the same bytes: the same bytes parse to
 * the same conversions, so the cache is exactly as safe as parsing.
 *
 * A format sealed (below) is not compared: its bytes lie in a read-only
 * segment of a loaded object (a string literal in .rodata) and could not
 * be written when it was sealed, and nothing can make them writable, move
 * them or unload them without a call that moves the mapping epoch on
 * (mprotect, mmap MAP_FIXED, munmap, mremap, dlclose), so while the epoch
 * is the one it was sealed in its bytes are the ones kept.  What is not
 * seen: a raw syscall(), a write through /proc/self/mem or ptrace, and the
 * object's file rewritten on disk under its mapping. */
static struct parsed cache[CACHED_FORMATS];
static unsigned next_cached;

/* Compiles a complete format's conversions into its checks, when every
 * argument they take is of the integer class. */
static void plan(struct parsed *p)
{
	unsigned i, slot = 0;

	p->planned = 0;
	p->checks = 0;
	for (i = 0; i < p->count; i++) {
		const struct spec *s = &p->specs[i];
		int precision_slot = -1;

		if (s->width_star)
			slot++;
		if (s->precision_star)
			precision_slot = (int)slot++;
		switch (s->argument) {
		case ARG_NONE:
			continue;
		case ARG_INT: case ARG_LONG_LONG: case ARG_POINTER:
			slot++;
			continue;
		case ARG_STRING: case ARG_STORE:
			p->check[p->checks++] = (struct check){
				.slot = (unsigned char)slot++,
				.precision_slot = (signed char)precision_slot,
				.kind = (unsigned char)s->argument,
				.size = (unsigned char)integer_size(s->length),
				.precision = s->precision,
			};
			continue;
		default:  /* floating point, or refused: walked */
			return;
		}
	}
	p->planned = 1;
}

static void parse_printf(const char *format, struct parsed *out)
{
	const char *p = format;

	out->format = format;
	out->count = 0;
	out->complete = 0;
	out->planned = 0;
	while ((p = strchr(p, '%'))) {
		if (out->count == CACHED_SPECS) {
			out->err = 0;  /* too many to keep: not cached, parsed as walked */
			return;
		}
		if (!parse(p + 1, &out->specs[out->count], 0)) {
			out->err = errno;
			return;
		}
		out->specs[out->count].argument = printf_argument(&out->specs[out->count]);
		p = out->specs[out->count++].end;
	}
	out->length = strlen(format);
	out->complete = 1;
	plan(out);
}

/* The kept format's bytes can still be read: they were seen readable in
 * this mapping epoch (which ends with any change that could take memory
 * away), or a remembered range says so now. */
static int format_readable(struct parsed *c)
{
	if (c->readable_epoch == rs_memory_epoch)
		return 1;
	if (!rs_memory_remembered(c->format, c->length + 1))
		return 0;
	c->readable_epoch = rs_memory_epoch;
	return 1;
}

static int segment_holds(struct dl_phdr_info *info, size_t size, void *data)
{
	const uintptr_t *span = data;  /* [span[0], span[1]) */
	int i;

	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && !(ph->p_flags & PF_W) && span[0] >= start &&
		    span[1] - start <= ph->p_memsz)
			return 1;
	}
	return 0;
}

/* The n bytes at p (n >= 1, at most two pages) lie in a segment a loaded
 * object maps without write access, and neither page can be written now
 * (a write check that fails: the kernel refuses process_vm_writev there). */
static int unwritable_in_object(const char *p, size_t n)
{
	uintptr_t span[2] = { (uintptr_t)p, (uintptr_t)p + n };

	return dl_iterate_phdr(segment_holds, span) && !rs_memory_ok(p, 1, 1) &&
	       !rs_memory_ok(p + n - 1, 1, 1);
}

static void seal(struct parsed *c)
{
	c->sealed = unwritable_in_object(c->format, c->length + 1);
	c->sealed_epoch = rs_memory_epoch;
}

/* A compared hit on an entry that was sealed in an earlier epoch seals it
 * again (one that failed to seal is not tried again), but at most once per
 * sixteen such hits: a program whose epoch
 * moves on every call pays two system calls per sixteen calls at most. */
static void reseal_now_and_then(struct parsed *c)
{
	if (!c->sealed || c->sealed_epoch == rs_memory_epoch || c->seal_tries * 16 > c->hits++)
		return;
	c->seal_tries++;
	seal(c);
}

static const struct parsed *cached(const char *format)
{
	unsigned i;

	if (!format)  /* never kept; an empty slot's format is NULL too */
		return NULL;

	for (i = 0; i < CACHED_FORMATS; i++) {
		struct parsed *c = &cache[i];

		if (c->format != format)
			continue;
		if (c->sealed && c->sealed_epoch == rs_memory_epoch)
			return c;
		if (format_readable(c) && !memcmp(format, c->text, c->length + 1)) {
			reseal_now_and_then(c);
			return c;
		}
	}
	return NULL;
}

static void keep(const struct parsed *p)
{
	struct parsed *slot;

	if (!p->complete || p->length >= CACHED_LENGTH)
		return;
	slot = &cache[next_cached++ % CACHED_FORMATS];
	*slot = *p;
	slot->readable_epoch = rs_memory_epoch;  /* rs_printf_ok checked it just now */
	memcpy(slot->text, p->format, p->length + 1);
	slot->hits = slot->seal_tries = 0;
	seal(slot);
}

/* The arguments from the conversion at p on, parsing as it goes: a format
 * with more conversions than a parsed one holds. */
static int printf_rest_ok(const char *p, va_list *args)
{
	struct spec s;

	while ((p = strchr(p, '%'))) {
		if (!parse(p + 1, &s, 0))
			return 0;
		s.argument = printf_argument(&s);
		if (!printf_spec_ok(&s, args))
			return 0;
		p = s.end;
	}
	return 1;
}

#if defined(__x86_64__) && !defined(__ILP32__)
/* The checks of a planned format: the same pointers, and the same
 * precisions, that the engine's va_arg will fetch. */
static inline __attribute__((always_inline)) int plan_ok(const struct parsed *c, va_list args)
{
	unsigned i;

	for (i = 0; i < c->checks; i++) {
		const struct check *k = &c->check[i];
		const void *p = (const void *)rs_argument(args, k->slot);

		if (k->kind == ARG_STORE) {
			if (!rs_buffer_ok(p, k->size, 1))
				return 0;
			continue;
		}
		if (!string_argument_ok(p, k->precision_slot < 0 ? k->precision
					   : (int)rs_argument(args, (unsigned)k->precision_slot)))
			return 0;
	}
	return 1;
}
#define PLANNED(c) ((c)->planned)

/* Empty, an entry holds an epoch never reached, so that no format (NULL
 * above all) matches it. */
struct rs_printf_fast rs_printf_fast[2] = { { .epoch = UINT64_MAX }, { .epoch = UINT64_MAX } };

/* A sealed, planned format of at most one pointer, a %s, becomes the
 * latest that rs_printf_ok answers in line; the one before stays second. */
static void make_fast(const struct parsed *c)
{
	const struct check *k = &c->check[0];

	if (!c->planned || !c->sealed || c->sealed_epoch != rs_memory_epoch || c->checks > 1 ||
	    (c->checks == 1 && k->kind != ARG_STRING))
		return;
	if (rs_printf_fast[0].format != c->format)
		rs_printf_fast[1] = rs_printf_fast[0];
	rs_printf_fast[0] = (struct rs_printf_fast){ .format = c->format, .epoch = c->sealed_epoch };
	if (c->checks == 1) {
		rs_printf_fast[0].string = 1;
		rs_printf_fast[0].slot = k->slot;
		rs_printf_fast[0].precision_slot = k->precision_slot;
		rs_printf_fast[0].precision = k->precision;
	}
}
#else
#define make_fast(c) ((void)(c))
#define plan_ok(c, args) 1
#define PLANNED(c) 0
#endif

/* The arguments walked with va_arg, conversion by conversion. */
static __attribute__((noinline)) int walk_ok(const struct parsed *c, va_list args)
{
	unsigned i;
	va_list ap;
	int ok = 1;

	va_copy(ap, args);
	for (i = 0; ok && i < c->count; i++)
		ok = printf_spec_ok(&c->specs[i], &ap);
	if (ok && !c->complete)
		ok = c->err ? refuse(c->err) : printf_rest_ok(c->specs[c->count - 1].end, &ap);
	va_end(ap);
	return ok;
}

static int arguments_ok(const struct parsed *c, va_list args)
{
	return PLANNED(c) ? plan_ok(c, args) : walk_ok(c, args);
}

/* The kept format, or the format checked, parsed and kept when it can be;
 * a kept one that qualifies becomes one rs_printf_ok answers in line. */
int rs_printf_check(const char *format, va_list args)
{
	const struct parsed *c = cached(format);
	struct parsed fresh;

	if (c) {
		make_fast(c);
		return arguments_ok(c, args);
	}
	if (!rs_string_ok(format))
		return 0;
	parse_printf(format, &fresh);
	keep(&fresh);
	return arguments_ok(&fresh, args);
}

/* What a scanf conversion writes: its size, 0 for none, -1 for "a width of
 * characters" (%s, %[: decided from the destination). */
static long scanf_store(const struct spec *s)
{
	switch (s->conversion) {
	case '%':
		return 0;
	case 'd': case 'i': case 'o': case 'u': case 'x': case 'X': case 'n':
		return (long)integer_size(s->length);
	case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A':
		return s->length == BIG_L ? (long)sizeof(long double)
		     : s->length == L ? (long)sizeof(double) : (long)sizeof(float);
	case 'p':
		return sizeof(void *);
	case 'c':
		return s->length != NONE ? -2 : s->width < 0 ? 1 : s->width;
	case 's': case '[':
		if (s->length != NONE)
			return -2;
		return s->width < 0 ? -1 : s->width + 1;
	default:
		return -2;
	}
}

/* Appends text to the rewritten format, growing it on the heap. */
static int append(char **out, size_t *len, size_t *cap, const char *text, size_t n)
{
	if (*len + n + 1 > *cap) {
		size_t want = (*len + n + 1) * 2;
		char *grown = realloc(*out, want);

		if (!grown)
			return refuse(ENOMEM);
		*out = grown;
		*cap = want;
	}
	memcpy(*out + *len, text, n);
	*len += n;
	(*out)[*len] = '\0';
	return 1;
}

char *rs_scanf_format(const char *format, va_list args)
{
	const char *p = format, *copied = format;
	char *out = NULL, width[24];
	size_t len = 0, cap = 0;
	struct spec s;
	va_list ap;
	int ok = 1;

	if (!rs_string_ok(format))
		return NULL;
	va_copy(ap, args);
	while (ok && (p = strchr(p, '%'))) {
		long store;
		void *dest;
		size_t span;

		ok = parse(p + 1, &s, 1);
		if (!ok)
			break;
		p = s.end;
		store = scanf_store(&s);
		if (store == -2) {
			ok = refuse(EINVAL);
			break;
		}
		if (s.suppress || store == 0)
			continue;
		dest = va_arg(ap, void *);
		if (store > 0) {
			ok = rs_buffer_ok(dest, (size_t)store, 1);
			continue;
		}
		/* %s or %[ with no width: as many characters as dest holds */
		span = rs_memory_span(dest, SCAN_SPAN_MAX, 1);
		if (span < 2) {
			ok = refuse(EFAULT);
			break;
		}
		snprintf(width, sizeof(width), "%zu", span - 1);
		ok = append(&out, &len, &cap, copied, (size_t)(s.start + 1 - copied)) &&
		     append(&out, &len, &cap, width, strlen(width));
		copied = s.start + 1;
	}
	va_end(ap);
	if (ok && out)
		ok = append(&out, &len, &cap, copied, strlen(copied));
	if (!ok) {
		free(out);
		return NULL;
	}
	return out ? out : (char *)format;
}
