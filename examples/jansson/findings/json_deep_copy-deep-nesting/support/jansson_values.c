/*
 * Datatypes of the jansson survey target (jansson.yaml), from jansson's
 * API reference (doc/apiref.rst, 2.14) and jansson.h:
 *
 *   json_t      pointer's values, then a JSON value of every type apiref.rst
 *               describes, in the states it describes: empty and filled
 *               containers, a string with a NUL inside, singletons, a value
 *               nested deeper than any parser limit (built by the API, which
 *               sets none), two arrays holding each other ("Circular
 *               References"), and a released value
 *   json_text   string's values, then JSON documents, well formed and not
 *   json_bytes  a JSON buffer and its length (json_loadb's buffer, buflen)
 */
#include <jansson.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "datatype.h"

/* ---- json_t ---- */

static int value(union tb_arg *out, json_t *j, const char *how)
{
	out->ptr = j;
	if (!j)
		return tb_setup_fail("%s returned NULL", how);
	return 0;
}

static int loaded(union tb_arg *out, const char *text)
{
	return value(out, json_loads(text, 0, NULL), "json_loads()");
}

static int setup_object_empty(union tb_arg *out) { return value(out, json_object(), "json_object()"); }
static int setup_object(union tb_arg *out) { return loaded(out, "{\"a\": 1, \"b\": [true, null], \"c\": \"x\"}"); }
static int setup_array_empty(union tb_arg *out) { return value(out, json_array(), "json_array()"); }
static int setup_array(union tb_arg *out) { return loaded(out, "[1, \"two\", 3.5, {\"k\": false}]"); }
static int setup_string(union tb_arg *out) { return value(out, json_string("hello"), "json_string()"); }
static int setup_string_nul(union tb_arg *out) { return value(out, json_stringn("a\0b", 3), "json_stringn()"); }
static int setup_integer(union tb_arg *out) { return value(out, json_integer(42), "json_integer()"); }
static int setup_real(union tb_arg *out) { return value(out, json_real(1.5), "json_real()"); }
static int setup_true(union tb_arg *out) { return value(out, json_true(), "json_true()"); }
static int setup_null(union tb_arg *out) { return value(out, json_null(), "json_null()"); }

/* The parser stops at 2048 levels (conformance.rst, "Depth of nested
 * values"); the API sets no limit, so a caller may build this. */
#define DEEP_LEVELS 200000

static int setup_deep(union tb_arg *out)
{
	json_t *top = json_array(), *inner = top;

	for (int i = 1; inner && i < DEEP_LEVELS; i++) {
		json_t *next = json_array();

		if (!next || json_array_append_new(inner, next))
			return tb_setup_fail("level %d could not be appended", i);
		inner = next;
	}
	return value(out, top, "json_array()");
}

/* apiref.rst, "Circular References": arr1 holds arr2 and arr2 holds arr1,
 * which jansson cannot check; its encoders detect it */
static int setup_circular(union tb_arg *out)
{
	json_t *a = json_array(), *b = json_array();

	if (!a || !b || json_array_append(a, b) || json_array_append(b, a))
		return tb_setup_fail("the two arrays could not be appended to each other");
	return value(out, a, "json_array()");
}

static int setup_released(union tb_arg *out)
{
	json_t *j = json_object();

	if (!j)
		return tb_setup_fail("json_object() returned NULL");
	out->u = (uintptr_t)j;
	json_decref(j);
	return 0;
}

static int setup_garbage(union tb_arg *out)
{
	return (out->ptr = tb_garbage_block(1024)) ? 0 : tb_setup_fail("no garbage block");
}

/* No cleanups: the test process ends after the call, and a *_new call
 * steals the reference it is given. */
static const struct tb_value json_values[] = {
	{ .name = "OBJECT_EMPTY", .setup = setup_object_empty, .desc = "json_object(): {}" },
	{ .name = "OBJECT", .setup = setup_object, .desc = "{\"a\": 1, \"b\": [true, null], \"c\": \"x\"}" },
	{ .name = "ARRAY_EMPTY", .setup = setup_array_empty, .desc = "json_array(): []" },
	{ .name = "ARRAY", .setup = setup_array, .desc = "[1, \"two\", 3.5, {\"k\": false}]" },
	{ .name = "STRING", .setup = setup_string, .desc = "json_string(\"hello\")" },
	{ .name = "STRING_NUL", .setup = setup_string_nul, .desc = "json_stringn(\"a\\0b\", 3): a NUL inside" },
	{ .name = "INTEGER", .setup = setup_integer, .desc = "json_integer(42)" },
	{ .name = "REAL", .setup = setup_real, .desc = "json_real(1.5)" },
	{ .name = "JSON_TRUE", .setup = setup_true, .desc = "json_true(), a singleton" },
	{ .name = "JSON_NULL", .setup = setup_null, .desc = "json_null(), a singleton" },
	{ .name = "DEEP", .setup = setup_deep, .desc = "arrays nested 200000 deep, built with json_array_append_new" },
	{ .name = "CIRCULAR", .setup = setup_circular, .desc = "two arrays appended to each other (apiref: Circular References)" },
	{ .name = "RELEASED", .setup = setup_released, .desc = "json_object(), then json_decref", .misuse = 1 },
	{ .name = "GARBAGE", .setup = setup_garbage, .desc = "1 KiB of random bytes before a guard page", .misuse = 1 },
	{ 0 },
};

const struct tb_datatype tb_type_json = {
	.name = "json_t",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", NULL },  /* bytes, no JSON value */
	.ctype = "json_t *",
	.values = json_values,
};

/* ---- json_text: a NUL-terminated JSON document ---- */

static int text(union tb_arg *out, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = tb_guarded_block(n);

	if (!p)
		return tb_setup_fail("no guarded block");
	memcpy(p, s, n);
	out->ptr = p;
	return 0;
}

/* 3000 '[': past the parser's documented 2048 levels */
static int setup_too_deep(union tb_arg *out)
{
	char s[3001];

	memset(s, '[', 3000);
	s[3000] = 0;
	return text(out, s);
}

#define DOCUMENT "{\"name\": \"x\", \"list\": [1, 2.5, true, null, {\"k\": \"\\u00e9\"}]}"

static int setup_document(union tb_arg *out) { return text(out, DOCUMENT); }
static int setup_scalar(union tb_arg *out) { return text(out, "42"); }
static int setup_malformed(union tb_arg *out) { return text(out, "{\"a\": [1, 2}"); }
static int setup_bad_utf8(union tb_arg *out) { return text(out, "[\"\xff\xfe\"]"); }
static int setup_duplicate(union tb_arg *out) { return text(out, "{\"a\": 1, \"a\": 2}"); }
static int setup_big_number(union tb_arg *out) { return text(out, "[123456789012345678901234567890]"); }

static const struct tb_value text_values[] = {
	{ .name = "DOCUMENT", .setup = setup_document, .desc = "an object holding an array of every type" },
	{ .name = "SCALAR", .setup = setup_scalar, .desc = "\"42\": no array or object (needs JSON_DECODE_ANY)" },
	{ .name = "MALFORMED", .setup = setup_malformed, .desc = "{\"a\": [1, 2}: a syntax error" },
	{ .name = "BAD_UTF8", .setup = setup_bad_utf8, .desc = "a string of bytes 0xff 0xfe: invalid UTF-8" },
	{ .name = "DUPLICATE_KEY", .setup = setup_duplicate, .desc = "{\"a\": 1, \"a\": 2}" },
	{ .name = "BIG_NUMBER", .setup = setup_big_number, .desc = "an integer of 30 digits: overflows json_int_t" },
	{ .name = "TOO_DEEP", .setup = setup_too_deep, .desc = "3000 '[': deeper than the parser's 2048" },
	{ 0 },
};

const struct tb_datatype tb_type_json_text = {
	.name = "json_text",
	.parent = &tb_type_string,
	.ctype = "const char *",
	.values = text_values,
};

/* ---- json_bytes: json_loadb's buffer and buflen, one value ---- */

/* s copied to the end of a guarded block (no NUL), with len as its length */
static int bytes(union tb_arg *out, const char *s, unsigned long long len)
{
	size_t n = strlen(s);
	char *p = tb_guarded_block(n);

	if (!p)
		return tb_setup_fail("no guarded block");
	memcpy(p, s, n);
	out[0].ptr = p;
	out[1].u = len;
	return 0;
}

static int setup_b_document(union tb_arg *out) { return bytes(out, DOCUMENT, strlen(DOCUMENT)); }
static int setup_b_empty(union tb_arg *out) { return bytes(out, "", 0); }
static int setup_b_truncated(union tb_arg *out) { return bytes(out, "[1, 2, 3]", 5); }
static int setup_b_malformed(union tb_arg *out) { return bytes(out, "{\"a\": [1, 2}", 12); }
static int setup_b_past_end(union tb_arg *out) { return bytes(out, DOCUMENT, strlen(DOCUMENT) + 1); }
static int setup_b_size_max(union tb_arg *out) { return bytes(out, DOCUMENT, SIZE_MAX); }

static int setup_b_null(union tb_arg *out, unsigned long long len)
{
	out[0].ptr = NULL;
	out[1].u = len;
	return 0;
}

static int setup_b_null_zero(union tb_arg *out) { return setup_b_null(out, 0); }
static int setup_b_null_len(union tb_arg *out) { return setup_b_null(out, 16); }

static const struct tb_value bytes_values[] = {
	{ .name = "DOCUMENT", .setup = setup_b_document, .desc = "a document, its length, no NUL after it" },
	{ .name = "EMPTY", .setup = setup_b_empty, .desc = "0 bytes before a guard page, length 0" },
	{ .name = "TRUNCATED", .setup = setup_b_truncated, .desc = "\"[1, 2, 3]\" with length 5: \"[1, 2\"" },
	{ .name = "MALFORMED", .setup = setup_b_malformed, .desc = "{\"a\": [1, 2}, its length" },
	{ .name = "PAST_END", .setup = setup_b_past_end, .desc = "a document, its length + 1: one byte into the guard page" },
	{ .name = "SIZE_MAX", .setup = setup_b_size_max, .desc = "a document, length SIZE_MAX" },
	{ .name = "NULL_ZERO", .setup = setup_b_null_zero, .desc = "NULL, length 0" },
	{ .name = "NULL_LEN", .setup = setup_b_null_len, .desc = "NULL, length 16" },
	{ 0 },
};

const struct tb_datatype tb_type_json_bytes = {
	.name = "json_bytes",
	.ctype = "const char *, size_t",
	.span = 2,
	.values = bytes_values,
};
