/*
 * The target plugin interface.  A plugin is a shared object built from a
 * target's spec: one generated call shim per function, and optionally the
 * target's own datatypes.  The executor dlopen()s it before it forks its
 * fork server, so every test process already has it mapped.
 */
#ifndef TREBUCHET_PLUGIN_H
#define TREBUCHET_PLUGIN_H

#include "datatype.h"

/* What a shim records, straight after the call and before anything else
 * can touch errno (LTP's TEST() discipline). */
struct tb_call {
	long long ret;       /* the return value; pointers as integers, a
				floating one as a double's bits (tb_double_bits) */
	int err;             /* errno after the call (set to 0 before it) */
	int error_reported;  /* 1 if the error convention says "error" */
};

struct tb_function {
	const char *name;                /* unique within the target */
	const char *signature;           /* the C prototype, for reports */
	const char *const *params;       /* datatype names, NULL terminated */
	void (*call)(const union tb_arg *args, struct tb_call *out);
	/* Per parameter, or NULL: 0, or the size in bytes of a parameter whose
	 * spec accepts a narrowing conversion (`convert: true`); its constant
	 * values equal in that many low bytes are one value, run once. */
	const unsigned char *narrow;
	/* For a convention read past the return value (an out-parameter, the
	 * handle, feof): 1 when the call reported an error; run by harness/judge.c
	 * after the call returned.  NULL: .call sets error_reported itself. */
	int (*judge)(const union tb_arg *args, const struct tb_call *call);
	/* 1: the function returns a floating type, kept in tb_call.ret as the
	 * bits of a double, so that 1.5 stays 1.5 and NaN stays NaN */
	int floating_return;
	/* 1: it returns a 64-bit unsigned integer: .ret's bits read unsigned, so
	 * that SIZE_MAX is 18446744073709551615, not -1 */
	int unsigned_return;
};

/* A double's bits in a tb_call's .ret, and back: the bits themselves, not
 * a conversion to an integer. */
static inline long long tb_double_bits(double d)
{
	union { double d; long long bits; } u = { .d = d };

	return u.bits;
}

static inline double tb_bits_double(long long bits)
{
	union { long long bits; double d; } u = { .bits = bits };

	return u.d;
}

#define TB_PLUGIN_ABI 7

struct tb_plugin {
	int abi;
	const char *target;
	const char *extends;                        /* the base target's name, or NULL */
	const char *(*version)(void);               /* the library's version */
	const char *spec_digest;                    /* of the spec's functions (src/trebuchet/spec/load.py) */
	const struct tb_function *functions;        /* { 0 } terminated */
	const struct tb_datatype *const *datatypes; /* the target's own; may be NULL */
};

/* Every plugin defines exactly this symbol. */
extern const struct tb_plugin tb_plugin;

#endif
