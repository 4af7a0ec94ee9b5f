/*
 * The datatype interface: how a kind of parameter names and builds its test
 * values.  A datatype is a static table (LTP style): a name, an optional
 * parent whose values it inherits, the C type it produces, and its own values
 * ending with an empty sentinel.  A value either has a setup() that builds it
 * inside the test process (and may fail: the case is then SETUP) or, for plain
 * numbers, a constant.  Everything here runs in the disposable test process,
 * whose working directory is its own scratch directory.
 */
#ifndef TREBUCHET_DATATYPE_H
#define TREBUCHET_DATATYPE_H

#include <stddef.h>

/* One argument slot.  The generated call shim casts the member that fits the
 * parameter's C type: pointers from .ptr, signed integers from .i, unsigned
 * from .u, floating point from .d. */
union tb_arg {
	void *ptr;
	long long i;
	unsigned long long u;
	double d;
};

/*
 * Dials (Ballista's "enum_dial"): where a datatype's values are orthogonal
 * choices (a stream is a mode x an existence x a position), it declares the
 * dials and their product makes its values.  A choice's part of the setup
 * is one number, .arg (open flags, permission bits, an enum of the
 * datatype's own); the datatype's build() gets the args of one choice per
 * dial, in dial order, and builds the value from them.  A product value is
 * named by its choices joined with dots, dials in order:
 * "READ_PLUS.R_USER.EXIST.EOF".  A plain value may name one point of the
 * product by .build and .args (FILE:READ is the stream a READ.EXIST.BEGINNING
 * choice builds), so required names stay values of their own.
 */
#define TB_MAX_DIALS 4

struct tb_choice {
	const char *name;   /* UPPER_SNAKE, unique within its dial */
	long arg;           /* this choice's part of the setup */
	const char *desc;
	int misuse;         /* every point holding it is misuse (below) */
};

struct tb_dial {
	const char *name;
	const struct tb_choice *choices;  /* { 0 } terminated */
};

typedef int (*tb_build_fn)(const long *args, union tb_arg *out);

struct tb_value {
	const char *name;   /* UPPER_SNAKE (dotted for a dial product), unique within the datatype */
	/* Builds the value into *out; returns 0, or -1 when it cannot be built
	 * here.  NULL (and no .build, no .text) means the value is .constant. */
	int (*setup)(union tb_arg *out);
	/* Releases what setup built, after the call returned.  Optional. */
	void (*cleanup)(union tb_arg *val);
	union tb_arg constant;
	/* A string the function reads: built as tb_guarded_text(text), a
	 * read-only copy that ends at a guard page, never the literal itself,
	 * which lies amid mapped memory where a read past its end goes unseen. */
	const char *text;
	const char *desc;
	/* A point of a dial product: built by build(args), as setup would. */
	tb_build_fn build;
	long args[TB_MAX_DIALS];
	/* 1: no C contract could accept the value (a wild, unmapped, freed or
	 * garbage pointer, a closed stream): a crash on it is the library's
	 * right, and findings set it apart (docs/contracts.md) */
	int misuse;
};

struct tb_datatype {
	const char *name;                  /* the name a spec's `datatype:` gives */
	const struct tb_datatype *parent;  /* its values come first, in order */
	const char *const *skip;           /* parent values that make no sense here */
	/* The C type a value is, one per parameter it fills ("void *, size_t"
	 * for a span of two): the spec's loader resolves it with the compiler
	 * and checks that each parameter's own C type can hold it. */
	const char *ctype;
	const struct tb_value *values;     /* own values, { 0 } terminated */
	/* How many consecutive parameters one value fills (0 means 1): setup
	 * writes out[0] .. out[span - 1], and the spec gives the parameters
	 * after the first the datatype `span`. */
	int span;
	/* Optional: dials whose product follows .values, { 0 } terminated, and
	 * what builds one point of it. */
	const struct tb_dial *dials;
	tb_build_fn build;
	/* Inherited values that are misuse here though not in the parent:
	 * READ_ONLY's random bytes are memory to a buffer but no string (no
	 * NUL) and no stream. */
	const char *const *misuse;
};

/*
 * Defines a base datatype and registers it: the executor finds every
 * datatype so defined through the linker section "tb_datatypes", so adding
 * one is adding its file.
 *
 *	TB_DATATYPE(tb_type_size) = { .name = "size", ... };
 *
 * A target's own datatypes are plain `const struct tb_datatype` objects
 * named under `datatypes:` in its spec instead.
 */
#define TB_DATATYPE(symbol)                                                   \
	extern const struct tb_datatype symbol;                               \
	static const struct tb_datatype *const tb_registered_##symbol         \
		__attribute__((used, section("tb_datatypes"))) = &symbol;     \
	const struct tb_datatype symbol

/* The flattened view of a datatype: inherited values, its own, then its
 * dials' product (Ballista's b_fd holds 601). */
#define TB_MAX_VALUES 1024
struct tb_value_list {
	const struct tb_datatype *type;
	int count;
	const struct tb_value *values[TB_MAX_VALUES];
};

/* Flattens type (parents first, skips applied) into list; -1 if too many. */
int tb_datatype_flatten(const struct tb_datatype *type, struct tb_value_list *list);

/* The base datatypes (every TB_DATATYPE linked in), sorted by name, NULL
 * terminated, and look-up by name among them and an optional extra
 * NULL-terminated list (a plugin's own datatypes). */
const struct tb_datatype *const *tb_base_datatypes(void);
const struct tb_datatype *tb_datatype_find(const char *name,
					   const struct tb_datatype *const *extra);

/* The number of points of type's own dials (1 when it has none: the empty
 * product), and the name of point i written into buf. */
long tb_dial_product(const struct tb_datatype *type);
void tb_dial_name(const struct tb_datatype *type, long i, char *buf, size_t len);

/* Whether value, one of type's flattened values, is misuse in type: its
 * own flag, or named by the misuse list of type or of an ancestor. */
int tb_value_misuse(const struct tb_datatype *type, const struct tb_value *value);

/* Builds a value: constant, setup() or build(args).  Returns 0 or -1;
 * on -1, tb_setup_reason() says why. */
int tb_value_build(const struct tb_value *value, union tb_arg *out);

/* Builds type's value of that name, as the executor would (a step of a
 * value made by calls: docs/datatypes.md, section 5).  0, or -1 with the
 * reason said. */
int tb_value_named(const struct tb_datatype *type, const char *name, union tb_arg *out);

/* Fills *copy with type, its own values followed by more ({ 0 }
 * terminated): a datatype whose spec adds values made by calls. */
void tb_datatype_with_values(struct tb_datatype *copy, const struct tb_datatype *type,
			     const struct tb_value *more);

/* Why a value could not be built.  A setup() or build() that fails says so
 * with tb_setup_fail("open %s", path) and returns its -1: the message (cut
 * at TB_SETUP_REASON - 1 bytes) and errno as it was at the call are stored
 * with the SETUP case.  One that returns -1 without it is stored with the
 * errno it left alone (a failed open's, mmap's).  Only the first word
 * counts: a helper's reason is not overwritten by its caller's. */
#define TB_SETUP_REASON 160
int tb_setup_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The reason of the last tb_value_build() that failed ("" when its setup
 * gave none), and its errno in *err. */
const char *tb_setup_reason(int *err);

/* ---- helpers shared by the datatype files ---- */

/* fopen's six valid modes as values R, W, A, R_PLUS, W_PLUS, A_PLUS: ours
 * (mode) and Ballista's (b_ptr_char_mode) both begin with them, held as
 * FIELD: ours `.text` (a guarded copy), Ballista's `.constant.ptr` (the
 * literal itself, as Ballista passed it). */
#define TB_FOPEN_MODES(FIELD) \
	{ .name = "R", FIELD = "r", .desc = "\"r\"" }, \
	{ .name = "W", FIELD = "w", .desc = "\"w\"" }, \
	{ .name = "A", FIELD = "a", .desc = "\"a\"" }, \
	{ .name = "R_PLUS", FIELD = "r+", .desc = "\"r+\"" }, \
	{ .name = "W_PLUS", FIELD = "w+", .desc = "\"w+\"" }, \
	{ .name = "A_PLUS", FIELD = "a+", .desc = "\"a+\"" }

/* A read-write block of size bytes that ends exactly at a PROT_NONE guard
 * page, so an overrun faults instead of corrupting.  NULL on failure. */
void *tb_guarded_block(size_t size);

/* Gives the pages of block, a tb_guarded_block(size), the protection prot
 * (PROT_READ, PROT_NONE: mmap's); its guard page stays PROT_NONE.  0 or
 * -1. */
int tb_guarded_protect(void *block, size_t size, int prot);

/* A copy of text, its NUL the last byte before a guard page, read-only as
 * a string literal is: reading one byte past the NUL faults.  NULL on
 * failure.  What a value's .text builds. */
void *tb_guarded_text(const char *text);

/* Creates (or truncates) file name in the scratch directory with the
 * standard text content and the given permission bits.  0 or -1. */
int tb_scratch_file(const char *name, unsigned mode);

/* The bytes every scratch file holds: lines of text, a little over two
 * pages, so reads of one page and more find data. */
extern const char tb_scratch_text[];
extern const size_t tb_scratch_text_len;

/* Fills buf with deterministic pseudo-random bytes (the same on every run). */
void tb_garbage_fill(void *buf, size_t len);

/* A guarded block of size such bytes: what a stray pointer to a struct
 * sees.  NULL on failure. */
void *tb_garbage_block(size_t size);

/* Base datatypes declared for the files that name them (as a parent, in a
 * test).  A new base datatype needs no line here: TB_DATATYPE registers it,
 * and a file that names it declares it extern itself. */
extern const struct tb_datatype tb_type_pointer, tb_type_buffer, tb_type_size,
	tb_type_int, tb_type_fd, tb_type_path, tb_type_mode, tb_type_whence,
	tb_type_offset, tb_type_file, tb_type_format, tb_type_string, tb_type_command,
	tb_type_int64, tb_type_double, tb_type_float, tb_type_callback;

#endif
