/*
 * Datatypes of the pcre2 survey target (pcre2.yaml), the 8-bit library
 * (PCRE2_CODE_UNIT_WIDTH 8, from the spec's cflags), from pcre2api(3):
 *
 *   pcre2_code        pointer's values, then compiled patterns (plain, with
 *                     groups, named groups, duplicate names, UTF, JIT-compiled,
 *                     a copy), a freed one, and random bytes (the junk
 *                     pointer pcre2api's "magic number" is there to catch)
 *   pcre2_match_data  pointer's values, then match data fresh, sized from a
 *                     pattern, too small, after a match, after a match with an
 *                     unset group, after no match, after a partial match, freed
 *   pcre2_compile_context, pcre2_match_context, pcre2_general_context
 *                     pointer's values, then contexts fresh and set, and freed
 *   pcre2_pattern, pcre2_subject
 *                     a string of code units and its length (PCRE2_SPTR,
 *                     PCRE2_SIZE), consistent and not, PCRE2_ZERO_TERMINATED
 */
#include <pcre2.h>
#include <stdint.h>
#include <string.h>

#include "datatype.h"

static int handle(union tb_arg *out, void *p, const char *how)
{
	out->ptr = p;
	if (!p)
		return tb_setup_fail("%s returned NULL", how);
	return 0;
}

static int garbage(union tb_arg *out)
{
	return (out->ptr = tb_garbage_block(1024)) ? 0 : tb_setup_fail("no garbage block");
}

/* ---- pcre2_code ---- */

#define GROUPS "(\\w+)@(\\w+)\\.(com|org)?"

static pcre2_code *compiled(const char *pattern, uint32_t options)
{
	int err;
	PCRE2_SIZE off;

	return pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, options, &err, &off, NULL);
}

static int code(union tb_arg *out, const char *pattern, uint32_t options)
{
	return handle(out, compiled(pattern, options), "pcre2_compile()");
}

static int setup_literal(union tb_arg *out) { return code(out, "hello", 0); }
static int setup_groups(union tb_arg *out) { return code(out, GROUPS, 0); }
static int setup_named(union tb_arg *out) { return code(out, "(?<user>\\w+)@(?<host>\\w+)", 0); }
static int setup_dupnames(union tb_arg *out) { return code(out, "(?J)(?<n>a)|(?<n>b)", 0); }
static int setup_utf(union tb_arg *out) { return code(out, "caf\\x{e9}+", PCRE2_UTF); }

static int setup_jit(union tb_arg *out)
{
	pcre2_code *c = compiled(GROUPS, 0);
	int rc;

	if (!c)
		return tb_setup_fail("pcre2_compile() returned NULL");
	rc = pcre2_jit_compile(c, PCRE2_JIT_COMPLETE);
	if (rc != 0)
		return tb_setup_fail("pcre2_jit_compile() returned %d", rc);
	return handle(out, c, "pcre2_jit_compile()");
}

static int setup_copy(union tb_arg *out)
{
	pcre2_code *c = compiled(GROUPS, 0);

	return handle(out, c ? pcre2_code_copy(c) : NULL, "pcre2_code_copy()");
}

static int setup_code_released(union tb_arg *out)
{
	pcre2_code *c = compiled(GROUPS, 0);

	if (!c)
		return tb_setup_fail("pcre2_compile() returned NULL");
	out->u = (uintptr_t)c;
	pcre2_code_free(c);
	return 0;
}

static const struct tb_value code_values[] = {
	{ .name = "LITERAL", .setup = setup_literal, .desc = "pcre2_compile(\"hello\")" },
	{ .name = "GROUPS", .setup = setup_groups, .desc = "(\\w+)@(\\w+)\\.(com|org)?: three groups, the last optional" },
	{ .name = "NAMED", .setup = setup_named, .desc = "(?<user>\\w+)@(?<host>\\w+)" },
	{ .name = "DUPNAMES", .setup = setup_dupnames, .desc = "(?J)(?<n>a)|(?<n>b): one name for two groups" },
	{ .name = "UTF", .setup = setup_utf, .desc = "caf\\x{e9}+ compiled with PCRE2_UTF" },
	{ .name = "JIT", .setup = setup_jit, .desc = "GROUPS, then pcre2_jit_compile(PCRE2_JIT_COMPLETE)" },
	{ .name = "COPY", .setup = setup_copy, .desc = "pcre2_code_copy() of GROUPS" },
	{ .name = "RELEASED", .setup = setup_code_released, .desc = "GROUPS, then pcre2_code_free", .misuse = 1 },
	/* no .misuse: pcre2api ("Error return values from pcre2_match()",
	 * PCRE2_ERROR_BADMAGIC) answers a junk pointer; functions that do not
	 * say so list it as undefined */
	{ .name = "GARBAGE", .setup = garbage, .desc = "1 KiB of random bytes before a guard page" },
	{ 0 },
};

const struct tb_datatype tb_type_pcre2_code = {
	.name = "pcre2_code",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.ctype = "pcre2_code *",
	.values = code_values,
};

/* ---- pcre2_match_data ---- */

/* subjects a match data block points into must outlive it: static */
static const char MAIL[] = "mail user@host.com today";
static const char NO_TLD[] = "user@host.";

static pcre2_match_data *matched(const char *pattern, const char *subject, uint32_t options, int want)
{
	pcre2_code *c = compiled(pattern, 0);
	pcre2_match_data *md = c ? pcre2_match_data_create_from_pattern(c, NULL) : NULL;
	int rc;

	if (!md)
		return NULL;
	rc = pcre2_match(c, (PCRE2_SPTR)subject, strlen(subject), 0, options, md, NULL);
	if (want > 0 ? rc < want : rc != want) {
		tb_setup_fail("pcre2_match() returned %d", rc);
		return NULL;
	}
	return md;
}

static int match_data(union tb_arg *out, pcre2_match_data *md)
{
	return handle(out, md, "the match data's setup");
}

static int setup_md_fresh(union tb_arg *out) { return match_data(out, pcre2_match_data_create(4, NULL)); }
static int setup_md_one_pair(union tb_arg *out) { return match_data(out, pcre2_match_data_create(1, NULL)); }

static int setup_md_from_pattern(union tb_arg *out)
{
	pcre2_code *c = compiled(GROUPS, 0);

	return match_data(out, c ? pcre2_match_data_create_from_pattern(c, NULL) : NULL);
}

static int setup_md_matched(union tb_arg *out) { return match_data(out, matched(GROUPS, MAIL, 0, 4)); }
static int setup_md_unset(union tb_arg *out) { return match_data(out, matched(GROUPS, NO_TLD, 0, 3)); }
static int setup_md_nomatch(union tb_arg *out) { return match_data(out, matched(GROUPS, "no address", 0, PCRE2_ERROR_NOMATCH)); }
static int setup_md_partial(union tb_arg *out) { return match_data(out, matched(GROUPS, "user@", PCRE2_PARTIAL_HARD, PCRE2_ERROR_PARTIAL)); }

static int setup_md_released(union tb_arg *out)
{
	pcre2_match_data *md = pcre2_match_data_create(4, NULL);

	if (!md)
		return tb_setup_fail("pcre2_match_data_create() returned NULL");
	out->u = (uintptr_t)md;
	pcre2_match_data_free(md);
	return 0;
}

static const struct tb_value md_values[] = {
	{ .name = "FRESH", .setup = setup_md_fresh, .desc = "pcre2_match_data_create(4, NULL), never used" },
	{ .name = "ONE_PAIR", .setup = setup_md_one_pair, .desc = "pcre2_match_data_create(1, NULL): room for the whole match only" },
	{ .name = "FROM_PATTERN", .setup = setup_md_from_pattern, .desc = "pcre2_match_data_create_from_pattern(GROUPS), never used" },
	{ .name = "MATCHED", .setup = setup_md_matched, .desc = "GROUPS matched on \"mail user@host.com today\": 3 groups set" },
	{ .name = "UNSET_GROUP", .setup = setup_md_unset, .desc = "GROUPS matched on \"user@host.\": group 3 unset" },
	{ .name = "NO_MATCH", .setup = setup_md_nomatch, .desc = "GROUPS failed on \"no address\" (PCRE2_ERROR_NOMATCH)" },
	{ .name = "PARTIAL", .setup = setup_md_partial, .desc = "GROUPS on \"user@\" with PCRE2_PARTIAL_HARD (PCRE2_ERROR_PARTIAL)" },
	{ .name = "RELEASED", .setup = setup_md_released, .desc = "pcre2_match_data_create, then pcre2_match_data_free", .misuse = 1 },
	{ .name = "GARBAGE", .setup = garbage, .desc = "1 KiB of random bytes before a guard page", .misuse = 1 },
	{ 0 },
};

const struct tb_datatype tb_type_pcre2_match_data = {
	.name = "pcre2_match_data",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", NULL },  /* bytes, no match data */
	.ctype = "pcre2_match_data *",
	.values = md_values,
};

/* ---- contexts ---- */

static int setup_cc_fresh(union tb_arg *out) { return handle(out, pcre2_compile_context_create(NULL), "pcre2_compile_context_create()"); }

static int setup_cc_crlf(union tb_arg *out)
{
	pcre2_compile_context *cc = pcre2_compile_context_create(NULL);

	if (!cc || pcre2_set_newline(cc, PCRE2_NEWLINE_CRLF))
		return tb_setup_fail("pcre2_set_newline(CRLF) failed");
	return handle(out, cc, "pcre2_compile_context_create()");
}

static int setup_cc_nest_2(union tb_arg *out)
{
	pcre2_compile_context *cc = pcre2_compile_context_create(NULL);

	if (!cc || pcre2_set_parens_nest_limit(cc, 2))
		return tb_setup_fail("pcre2_set_parens_nest_limit(2) failed");
	return handle(out, cc, "pcre2_compile_context_create()");
}

static int setup_cc_released(union tb_arg *out)
{
	pcre2_compile_context *cc = pcre2_compile_context_create(NULL);

	if (!cc)
		return tb_setup_fail("pcre2_compile_context_create() returned NULL");
	out->u = (uintptr_t)cc;
	pcre2_compile_context_free(cc);
	return 0;
}

static const struct tb_value cc_values[] = {
	{ .name = "FRESH", .setup = setup_cc_fresh, .desc = "pcre2_compile_context_create(NULL): defaults" },
	{ .name = "NEWLINE_CRLF", .setup = setup_cc_crlf, .desc = "a compile context set to PCRE2_NEWLINE_CRLF" },
	{ .name = "NEST_LIMIT_2", .setup = setup_cc_nest_2, .desc = "a compile context whose parens nest limit is 2" },
	{ .name = "RELEASED", .setup = setup_cc_released, .desc = "created, then pcre2_compile_context_free", .misuse = 1 },
	{ .name = "GARBAGE", .setup = garbage, .desc = "1 KiB of random bytes before a guard page", .misuse = 1 },
	{ 0 },
};

const struct tb_datatype tb_type_pcre2_compile_context = {
	.name = "pcre2_compile_context",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", NULL },
	.ctype = "pcre2_compile_context *",
	.values = cc_values,
};

static int setup_mc_fresh(union tb_arg *out) { return handle(out, pcre2_match_context_create(NULL), "pcre2_match_context_create()"); }

static int setup_mc_limit_1(union tb_arg *out)
{
	pcre2_match_context *mc = pcre2_match_context_create(NULL);

	if (!mc || pcre2_set_match_limit(mc, 1))
		return tb_setup_fail("pcre2_set_match_limit(1) failed");
	return handle(out, mc, "pcre2_match_context_create()");
}

static int setup_mc_released(union tb_arg *out)
{
	pcre2_match_context *mc = pcre2_match_context_create(NULL);

	if (!mc)
		return tb_setup_fail("pcre2_match_context_create() returned NULL");
	out->u = (uintptr_t)mc;
	pcre2_match_context_free(mc);
	return 0;
}

static const struct tb_value mc_values[] = {
	{ .name = "FRESH", .setup = setup_mc_fresh, .desc = "pcre2_match_context_create(NULL): defaults" },
	{ .name = "MATCH_LIMIT_1", .setup = setup_mc_limit_1, .desc = "a match context whose match limit is 1" },
	{ .name = "RELEASED", .setup = setup_mc_released, .desc = "created, then pcre2_match_context_free", .misuse = 1 },
	{ .name = "GARBAGE", .setup = garbage, .desc = "1 KiB of random bytes before a guard page", .misuse = 1 },
	{ 0 },
};

const struct tb_datatype tb_type_pcre2_match_context = {
	.name = "pcre2_match_context",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", NULL },
	.ctype = "pcre2_match_context *",
	.values = mc_values,
};

static int setup_gc_fresh(union tb_arg *out)
{
	return handle(out, pcre2_general_context_create(NULL, NULL, NULL), "pcre2_general_context_create()");
}

static int setup_gc_released(union tb_arg *out)
{
	pcre2_general_context *gc = pcre2_general_context_create(NULL, NULL, NULL);

	if (!gc)
		return tb_setup_fail("pcre2_general_context_create() returned NULL");
	out->u = (uintptr_t)gc;
	pcre2_general_context_free(gc);
	return 0;
}

static const struct tb_value gc_values[] = {
	{ .name = "FRESH", .setup = setup_gc_fresh, .desc = "pcre2_general_context_create(NULL, NULL, NULL): malloc and free" },
	{ .name = "RELEASED", .setup = setup_gc_released, .desc = "created, then pcre2_general_context_free", .misuse = 1 },
	{ .name = "GARBAGE", .setup = garbage, .desc = "1 KiB of random bytes before a guard page", .misuse = 1 },
	{ 0 },
};

const struct tb_datatype tb_type_pcre2_general_context = {
	.name = "pcre2_general_context",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", NULL },
	.ctype = "pcre2_general_context *",
	.values = gc_values,
};

/* ---- pcre2_pattern and pcre2_subject: code units and their length ---- */

/* s copied to the end of a guarded block (no NUL after it unless counted) */
static int units(union tb_arg *out, const char *s, size_t n, PCRE2_SIZE len)
{
	char *p = tb_guarded_block(n);

	if (!p)
		return tb_setup_fail("no guarded block");
	memcpy(p, s, n);
	out[0].ptr = p;
	out[1].u = len;
	return 0;
}

static int sized(union tb_arg *out, const char *s) { return units(out, s, strlen(s), strlen(s)); }
static int terminated(union tb_arg *out, const char *s) { return units(out, s, strlen(s) + 1, PCRE2_ZERO_TERMINATED); }

static int null_units(union tb_arg *out, PCRE2_SIZE len)
{
	out[0].ptr = NULL;
	out[1].u = len;
	return 0;
}

static int setup_null_zero(union tb_arg *out) { return null_units(out, 0); }
static int setup_null_len(union tb_arg *out) { return null_units(out, 16); }

/* 300 nested groups: past the default parens nest limit of 250 */
static int setup_p_too_deep(union tb_arg *out)
{
	char s[601];

	memset(s, '(', 300);
	memset(s + 300, ')', 300);
	s[600] = 0;
	return sized(out, s);
}

static int setup_p_groups(union tb_arg *out) { return sized(out, GROUPS); }
static int setup_p_terminated(union tb_arg *out) { return terminated(out, "a+b*"); }
static int setup_p_empty(union tb_arg *out) { return units(out, "", 0, 0); }
static int setup_p_syntax(union tb_arg *out) { return sized(out, "(a"); }
static int setup_p_bad_utf(union tb_arg *out) { return sized(out, "(*UTF)\xff\xfe"); }
static int setup_p_past_end(union tb_arg *out) { return units(out, "abc", 3, 4); }
static int setup_p_huge(union tb_arg *out) { return units(out, "abc", 3, PCRE2_ZERO_TERMINATED - 1); }

static const struct tb_value pattern_values[] = {
	{ .name = "GROUPS", .setup = setup_p_groups, .desc = GROUPS ", its length" },
	{ .name = "ZERO_TERMINATED", .setup = setup_p_terminated, .desc = "\"a+b*\", PCRE2_ZERO_TERMINATED" },
	{ .name = "EMPTY", .setup = setup_p_empty, .desc = "0 code units before a guard page, length 0" },
	{ .name = "SYNTAX_ERROR", .setup = setup_p_syntax, .desc = "\"(a\": a missing parenthesis" },
	{ .name = "TOO_DEEP", .setup = setup_p_too_deep, .desc = "300 nested (): past the parens nest limit (250)" },
	{ .name = "BAD_UTF", .setup = setup_p_bad_utf, .desc = "(*UTF) then bytes 0xff 0xfe: invalid UTF-8" },
	{ .name = "PAST_END", .setup = setup_p_past_end, .desc = "\"abc\", length 4: one unit into the guard page" },
	{ .name = "HUGE", .setup = setup_p_huge, .desc = "\"abc\", length PCRE2_ZERO_TERMINATED - 1" },
	{ .name = "NULL_ZERO", .setup = setup_null_zero, .desc = "NULL, length 0" },
	{ .name = "NULL_LEN", .setup = setup_null_len, .desc = "NULL, length 16" },
	{ 0 },
};

const struct tb_datatype tb_type_pcre2_pattern = {
	.name = "pcre2_pattern",
	.ctype = "PCRE2_SPTR, PCRE2_SIZE",
	.span = 2,
	.values = pattern_values,
};

static int setup_s_long(union tb_arg *out)
{
	static char s[65536 + 16];

	memset(s, 'a', 65536);
	strcpy(s + 65536, "@b.com");
	return sized(out, s);
}

static int setup_s_mail(union tb_arg *out) { return sized(out, MAIL); }
static int setup_s_terminated(union tb_arg *out) { return terminated(out, MAIL); }
static int setup_s_empty(union tb_arg *out) { return units(out, "", 0, 0); }
static int setup_s_prefix(union tb_arg *out) { return units(out, MAIL, strlen(MAIL), 9); }
static int setup_s_bad_utf(union tb_arg *out) { return sized(out, "caf\xc3 \xff\xfe"); }
static int setup_s_past_end(union tb_arg *out) { return units(out, MAIL, strlen(MAIL), strlen(MAIL) + 1); }
static int setup_s_huge(union tb_arg *out) { return units(out, MAIL, strlen(MAIL), PCRE2_ZERO_TERMINATED - 1); }

static const struct tb_value subject_values[] = {
	{ .name = "MAIL", .setup = setup_s_mail, .desc = "\"mail user@host.com today\", its length" },
	{ .name = "ZERO_TERMINATED", .setup = setup_s_terminated, .desc = "the same, PCRE2_ZERO_TERMINATED" },
	{ .name = "EMPTY", .setup = setup_s_empty, .desc = "0 code units before a guard page, length 0" },
	{ .name = "PREFIX", .setup = setup_s_prefix, .desc = "the same, length 9: \"mail user\"" },
	{ .name = "BAD_UTF", .setup = setup_s_bad_utf, .desc = "\"caf\\xc3 \\xff\\xfe\": invalid UTF-8" },
	{ .name = "LONG", .setup = setup_s_long, .desc = "65536 'a' then \"@b.com\"" },
	{ .name = "PAST_END", .setup = setup_s_past_end, .desc = "MAIL, its length + 1: one unit into the guard page" },
	{ .name = "HUGE", .setup = setup_s_huge, .desc = "MAIL, length PCRE2_ZERO_TERMINATED - 1" },
	{ .name = "NULL_ZERO", .setup = setup_null_zero, .desc = "NULL, length 0: an empty subject (pcre2api)" },
	{ .name = "NULL_LEN", .setup = setup_null_len, .desc = "NULL, length 16" },
	{ 0 },
};

const struct tb_datatype tb_type_pcre2_subject = {
	.name = "pcre2_subject",
	.ctype = "PCRE2_SPTR, PCRE2_SIZE",
	.span = 2,
	.values = subject_values,
};
