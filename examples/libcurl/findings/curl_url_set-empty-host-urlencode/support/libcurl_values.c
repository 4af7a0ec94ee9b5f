/*
 * Datatypes of the libcurl survey target (libcurl.yaml): the URL API and the
 * string helpers, each from what libcurl 7.88.1's manual pages describe:
 *
 *   CURLU         pointer's values, then URL handles: empty, with a URL,
 *                 duplicated, built part by part, cleaned up
 *   url_part      CURLUPART_URL .. CURLUPART_ZONEID, and int's other numbers
 *   url_flags     each CURLU_* bit, none, all and an unknown one
 *   url_text      string's values, then URLs and URL parts
 *   CURL          pointer's values, then easy handles: new, with a URL set, cleaned up
 *   escape_text   a string and its int length (curl_easy_escape, curl_easy_unescape)
 *   curl_string   pointer's values, then strings libcurl allocated (for curl_free)
 *   curl_slist    pointer's values, then lists of one and two strings, freed
 *   date_text     string's values, then dates in the formats curl_getdate(3) lists
 *   curl_mime     pointer's values, then mime structures, empty and with a part
 *   curl_mimepart pointer's values, then parts, fresh and named with data
 *   mime_data     data and its size for curl_mime_data, CURL_ZERO_TERMINATED included
 */
#include <curl/curl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "datatype.h"

/* a string copied to the end of a guarded block, its NUL the last byte */
static char *guarded_string(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = tb_guarded_block(n);

	if (p)
		memcpy(p, s, n);
	return p;
}

static int ptr_or_fail(union tb_arg *out, void *p, const char *what)
{
	out->ptr = p;
	return p ? 0 : tb_setup_fail("%s failed", what);
}

static int setup_garbage(union tb_arg *out)
{
	return ptr_or_fail(out, tb_garbage_block(4096), "tb_garbage_block");
}

#define FULL_URL "https://user:secret@example.com:8080/a/b/../c?q=1&r=2#frag"

/* ---- CURLU ---- */

static CURLU *url_with(const char *text)
{
	CURLU *u = curl_url();

	if (u && curl_url_set(u, CURLUPART_URL, text, 0) != CURLUE_OK)
		return NULL;
	return u;
}

static int setup_u_empty(union tb_arg *out) { return ptr_or_fail(out, curl_url(), "curl_url()"); }
static int setup_u_url(union tb_arg *out) { return ptr_or_fail(out, url_with(FULL_URL), "curl_url_set(URL)"); }
static int setup_u_ipv6(union tb_arg *out)
{
	return ptr_or_fail(out, url_with("http://[fe80::1%25eth0]:81/x"), "curl_url_set(IPv6 URL)");
}

static int setup_u_encoded(union tb_arg *out)
{
	return ptr_or_fail(out, url_with("http://example.com/a%00b?q=%01"), "curl_url_set(URL with %00 and %01)");
}

static int setup_u_dup(union tb_arg *out)
{
	CURLU *u = url_with(FULL_URL);

	return ptr_or_fail(out, u ? curl_url_dup(u) : NULL, "curl_url_dup");
}

static int setup_u_parts(union tb_arg *out)
{
	CURLU *u = curl_url();

	if (!u || curl_url_set(u, CURLUPART_SCHEME, "ftp", 0) || curl_url_set(u, CURLUPART_HOST, "example.org", 0)
	    || curl_url_set(u, CURLUPART_PATH, "/pub", 0))
		return tb_setup_fail("curl_url_set of a scheme, host and path failed");
	out->ptr = u;
	return 0;
}

static int setup_u_cleaned(union tb_arg *out)
{
	CURLU *u = url_with(FULL_URL);

	if (!u)
		return tb_setup_fail("curl_url_set(URL) failed");
	curl_url_cleanup(u);
	out->u = (uintptr_t)u;
	return 0;
}

static const struct tb_value curlu_values[] = {
	{ .name = "EMPTY", .setup = setup_u_empty, .desc = "curl_url(): no part set" },
	{ .name = "WITH_URL", .setup = setup_u_url, .desc = "curl_url_set(URL, \"" FULL_URL "\")" },
	{ .name = "WITH_IPV6", .setup = setup_u_ipv6, .desc = "curl_url_set(URL, \"http://[fe80::1%25eth0]:81/x\"): a zone id" },
	{ .name = "ENCODED_CONTROLS", .setup = setup_u_encoded,
	  .desc = "curl_url_set(URL, \"http://example.com/a%00b?q=%01\"): control bytes, URL encoded" },
	{ .name = "DUPLICATE", .setup = setup_u_dup, .desc = "curl_url_dup of WITH_URL" },
	{ .name = "PARTS_ONLY", .setup = setup_u_parts, .desc = "scheme ftp, host example.org, path /pub set one by one" },
	{ .name = "CLEANED_UP", .setup = setup_u_cleaned, .desc = "WITH_URL, then curl_url_cleanup", .misuse = 1 },
	{ .name = "GARBAGE", .setup = setup_garbage, .desc = "a page of random bytes", .misuse = 1 },
	{ 0 },
};

const struct tb_datatype tb_type_curlu = {
	.name = "CURLU",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", NULL },  /* no handle */
	.ctype = "CURLU *",
	.values = curlu_values,
};

/* ---- url_part ---- */

static const struct tb_value part_values[] = {
	{ .name = "URL", .constant.u = CURLUPART_URL, .desc = "CURLUPART_URL (0)" },
	{ .name = "SCHEME", .constant.u = CURLUPART_SCHEME, .desc = "CURLUPART_SCHEME (1)" },
	{ .name = "USER", .constant.u = CURLUPART_USER, .desc = "CURLUPART_USER" },
	{ .name = "PASSWORD", .constant.u = CURLUPART_PASSWORD, .desc = "CURLUPART_PASSWORD" },
	{ .name = "OPTIONS", .constant.u = CURLUPART_OPTIONS, .desc = "CURLUPART_OPTIONS" },
	{ .name = "HOST", .constant.u = CURLUPART_HOST, .desc = "CURLUPART_HOST" },
	{ .name = "PORT", .constant.u = CURLUPART_PORT, .desc = "CURLUPART_PORT" },
	{ .name = "PATH", .constant.u = CURLUPART_PATH, .desc = "CURLUPART_PATH" },
	{ .name = "QUERY", .constant.u = CURLUPART_QUERY, .desc = "CURLUPART_QUERY" },
	{ .name = "FRAGMENT", .constant.u = CURLUPART_FRAGMENT, .desc = "CURLUPART_FRAGMENT" },
	{ .name = "ZONEID", .constant.u = CURLUPART_ZONEID, .desc = "CURLUPART_ZONEID (10)" },
	{ .name = "PAST_ZONEID", .constant.u = CURLUPART_ZONEID + 1, .desc = "11, one past the last part" },
	{ 0 },
};

const struct tb_datatype tb_type_url_part = {
	.name = "url_part",
	.parent = &tb_type_int,
	/* 0 and 1 are CURLUPART_URL and CURLUPART_SCHEME: one value, one name */
	.skip = (const char *const[]){ "ZERO", "ONE", NULL },
	.ctype = "int",
	.values = part_values,
};

/* ---- url_flags ---- */

static const struct tb_value flag_values[] = {
	{ .name = "NONE", .constant.u = 0, .desc = "0" },
	{ .name = "DEFAULT_PORT", .constant.u = CURLU_DEFAULT_PORT, .desc = "CURLU_DEFAULT_PORT" },
	{ .name = "NO_DEFAULT_PORT", .constant.u = CURLU_NO_DEFAULT_PORT, .desc = "CURLU_NO_DEFAULT_PORT" },
	{ .name = "DEFAULT_SCHEME", .constant.u = CURLU_DEFAULT_SCHEME, .desc = "CURLU_DEFAULT_SCHEME" },
	{ .name = "NON_SUPPORT_SCHEME", .constant.u = CURLU_NON_SUPPORT_SCHEME, .desc = "CURLU_NON_SUPPORT_SCHEME" },
	{ .name = "PATH_AS_IS", .constant.u = CURLU_PATH_AS_IS, .desc = "CURLU_PATH_AS_IS" },
	{ .name = "DISALLOW_USER", .constant.u = CURLU_DISALLOW_USER, .desc = "CURLU_DISALLOW_USER" },
	{ .name = "URLDECODE", .constant.u = CURLU_URLDECODE, .desc = "CURLU_URLDECODE" },
	{ .name = "URLENCODE", .constant.u = CURLU_URLENCODE, .desc = "CURLU_URLENCODE" },
	{ .name = "APPENDQUERY", .constant.u = CURLU_APPENDQUERY, .desc = "CURLU_APPENDQUERY" },
	{ .name = "GUESS_SCHEME", .constant.u = CURLU_GUESS_SCHEME, .desc = "CURLU_GUESS_SCHEME" },
	{ .name = "NO_AUTHORITY", .constant.u = CURLU_NO_AUTHORITY, .desc = "CURLU_NO_AUTHORITY" },
	{ .name = "ALLOW_SPACE", .constant.u = CURLU_ALLOW_SPACE, .desc = "CURLU_ALLOW_SPACE" },
	{ .name = "PUNYCODE", .constant.u = CURLU_PUNYCODE, .desc = "CURLU_PUNYCODE" },
	{ .name = "ALL_BITS", .constant.u = UINT_MAX, .desc = "every bit set, unknown ones included" },
	{ .name = "UNKNOWN_BIT", .constant.u = 1u << 20, .desc = "1 << 20, a bit no flag uses" },
	{ 0 },
};

const struct tb_datatype tb_type_url_flags = {
	.name = "url_flags",
	.ctype = "unsigned int",
	.values = flag_values,
};

/* ---- url_text ---- */

static int text(union tb_arg *out, const char *s)
{
	return ptr_or_fail(out, guarded_string(s), "guarded_string");
}

static int setup_t_full(union tb_arg *out) { return text(out, FULL_URL); }
static int setup_t_relative(union tb_arg *out) { return text(out, "../d/./e?x=y#z"); }
static int setup_t_no_scheme(union tb_arg *out) { return text(out, "example.com/path"); }
static int setup_t_unknown_scheme(union tb_arg *out) { return text(out, "xyzzy://host.example/p"); }
static int setup_t_ipv6(union tb_arg *out) { return text(out, "http://[fe80::1%25eth0]:81/x"); }
static int setup_t_file(union tb_arg *out) { return text(out, "file:///etc/hostname"); }
static int setup_t_host(union tb_arg *out) { return text(out, "example.com"); }
static int setup_t_port(union tb_arg *out) { return text(out, "8080"); }
static int setup_t_bad_port(union tb_arg *out) { return text(out, "99999"); }
static int setup_t_spaces(union tb_arg *out) { return text(out, "http://exa mple.com/a b?c d"); }
static int setup_t_percent(union tb_arg *out) { return text(out, "%41%zz%00%"); }

/* "must be shorter than 8000000 bytes" (curl_url_set(3), RETURN VALUE) */
static int setup_t_too_long(union tb_arg *out)
{
	size_t n = 8000000 + 16;
	char *p = tb_guarded_block(n + 1);

	if (!p)
		return tb_setup_fail("no guarded block of %zu bytes", n + 1);
	memset(p, 'a', n);
	memcpy(p, "http://", 7);
	out->ptr = p;
	return 0;
}

static const struct tb_value url_text_values[] = {
	{ .name = "FULL_URL", .setup = setup_t_full, .desc = "\"" FULL_URL "\"" },
	{ .name = "RELATIVE", .setup = setup_t_relative, .desc = "\"../d/./e?x=y#z\"" },
	{ .name = "NO_SCHEME", .setup = setup_t_no_scheme, .desc = "\"example.com/path\"" },
	{ .name = "UNKNOWN_SCHEME", .setup = setup_t_unknown_scheme, .desc = "\"xyzzy://host.example/p\"" },
	{ .name = "IPV6_ZONE", .setup = setup_t_ipv6, .desc = "\"http://[fe80::1%25eth0]:81/x\"" },
	{ .name = "FILE_URL", .setup = setup_t_file, .desc = "\"file:///etc/hostname\"" },
	{ .name = "HOST_NAME", .setup = setup_t_host, .desc = "\"example.com\"" },
	{ .name = "PORT_NUMBER", .setup = setup_t_port, .desc = "\"8080\"" },
	{ .name = "BAD_PORT", .setup = setup_t_bad_port, .desc = "\"99999\": past 65535" },
	{ .name = "SPACES", .setup = setup_t_spaces, .desc = "\"http://exa mple.com/a b?c d\"" },
	{ .name = "PERCENT", .setup = setup_t_percent, .desc = "\"%41%zz%00%\": good, bad and NUL escapes" },
	{ .name = "TOO_LONG_URL", .setup = setup_t_too_long, .desc = "\"http://aaa...\", 8000016 bytes" },
	{ 0 },
};

const struct tb_datatype tb_type_url_text = {
	.name = "url_text",
	.parent = &tb_type_string,
	.ctype = "const char *",
	.values = url_text_values,
};

/* ---- CURL ---- */

static int setup_e_new(union tb_arg *out) { return ptr_or_fail(out, curl_easy_init(), "curl_easy_init()"); }

static int setup_e_url(union tb_arg *out)
{
	CURL *e = curl_easy_init();

	if (!e || curl_easy_setopt(e, CURLOPT_URL, FULL_URL) != CURLE_OK)
		return tb_setup_fail("curl_easy_setopt(CURLOPT_URL) failed");
	out->ptr = e;
	return 0;
}

static int setup_e_cleaned(union tb_arg *out)
{
	CURL *e = curl_easy_init();

	if (!e)
		return tb_setup_fail("curl_easy_init() failed");
	curl_easy_cleanup(e);
	out->u = (uintptr_t)e;
	return 0;
}

static const struct tb_value curl_values[] = {
	{ .name = "EASY", .setup = setup_e_new, .desc = "curl_easy_init()" },
	{ .name = "EASY_WITH_URL", .setup = setup_e_url, .desc = "curl_easy_init(), CURLOPT_URL set" },
	{ .name = "CLEANED_UP", .setup = setup_e_cleaned, .desc = "curl_easy_init(), then curl_easy_cleanup", .misuse = 1 },
	{ .name = "GARBAGE", .setup = setup_garbage, .desc = "a page of random bytes", .misuse = 1 },
	{ 0 },
};

const struct tb_datatype tb_type_curl = {
	.name = "CURL",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", NULL },
	.ctype = "CURL *",
	.values = curl_values,
};

/* ---- escape_text: a string and its int length ---- */

static int text_len(union tb_arg *out, const char *s, long long len)
{
	char *p = guarded_string(s);

	if (!p)
		return tb_setup_fail("guarded_string failed");
	out[0].ptr = p;
	out[1].i = len;
	return 0;
}

#define PLAIN "hello world/caf\xc3\xa9?a=b&c=%41"

static int setup_x_text(union tb_arg *out) { return text_len(out, PLAIN, sizeof PLAIN - 1); }
static int setup_x_strlen(union tb_arg *out) { return text_len(out, PLAIN, 0); }
static int setup_x_prefix(union tb_arg *out) { return text_len(out, PLAIN, 5); }
static int setup_x_empty(union tb_arg *out) { return text_len(out, "", 0); }
static int setup_x_escapes(union tb_arg *out) { return text_len(out, "%41%zz%00%4", 11); }
static int setup_x_negative(union tb_arg *out) { return text_len(out, PLAIN, -1); }
static int setup_x_past_end(union tb_arg *out) { return text_len(out, PLAIN, sizeof PLAIN + 1); }
static int setup_x_int_max(union tb_arg *out) { return text_len(out, PLAIN, INT_MAX); }

static int setup_x_null(union tb_arg *out)
{
	out[0].ptr = NULL;
	out[1].i = 0;
	return 0;
}

/* past "CURL_MAX_INPUT_LENGTH (8 MB)" however read: 8000000 bytes
 * (lib/urldata.h) or 8 MiB */
static int setup_x_too_long(union tb_arg *out)
{
	size_t n = 9000000;
	char *p = tb_guarded_block(n + 1);

	if (!p)
		return tb_setup_fail("no guarded block of %zu bytes", n + 1);
	memset(p, 'a', n);
	out[0].ptr = p;
	out[1].i = (long long)n;
	return 0;
}

static const struct tb_value escape_values[] = {
	{ .name = "TEXT", .setup = setup_x_text, .desc = "\"" PLAIN "\", its length" },
	{ .name = "STRLEN", .setup = setup_x_strlen, .desc = "the same, length 0: strlen() is used" },
	{ .name = "PREFIX", .setup = setup_x_prefix, .desc = "the same, length 5" },
	{ .name = "EMPTY", .setup = setup_x_empty, .desc = "\"\", length 0" },
	{ .name = "ESCAPES", .setup = setup_x_escapes, .desc = "\"%41%zz%00%4\", length 11" },
	{ .name = "TOO_LONG", .setup = setup_x_too_long, .desc = "9000000 'a's, that length: past CURL_MAX_INPUT_LENGTH (8 MB)" },
	{ .name = "NEGATIVE", .setup = setup_x_negative, .desc = "TEXT, length -1" },
	{ .name = "PAST_END", .setup = setup_x_past_end, .desc = "TEXT, its length + 2: past its NUL, into the guard page" },
	{ .name = "INT_MAX", .setup = setup_x_int_max, .desc = "TEXT, length INT_MAX" },
	{ .name = "NULL_ZERO", .setup = setup_x_null, .desc = "NULL, length 0" },
	{ 0 },
};

const struct tb_datatype tb_type_escape_text = {
	.name = "escape_text",
	.ctype = "const char *, int",
	.span = 2,
	.values = escape_values,
};

/* ---- curl_string: memory libcurl allocated ---- */

static int setup_s_escaped(union tb_arg *out)
{
	return ptr_or_fail(out, curl_easy_escape(NULL, "a b", 0), "curl_easy_escape");
}

static int setup_s_url_part(union tb_arg *out)
{
	CURLU *u = url_with(FULL_URL);
	char *host = NULL;

	if (!u || curl_url_get(u, CURLUPART_HOST, &host, 0))
		return tb_setup_fail("curl_url_get(HOST) failed");
	out->ptr = host;
	return 0;
}

static int setup_s_released(union tb_arg *out)
{
	char *s = curl_easy_escape(NULL, "a b", 0);

	if (!s)
		return tb_setup_fail("curl_easy_escape failed");
	curl_free(s);
	out->u = (uintptr_t)s;
	return 0;
}

static const struct tb_value curl_string_values[] = {
	{ .name = "ESCAPED", .setup = setup_s_escaped, .desc = "curl_easy_escape(NULL, \"a b\", 0)" },
	{ .name = "URL_PART", .setup = setup_s_url_part, .desc = "curl_url_get(CURLUPART_HOST) of a URL" },
	{ .name = "RELEASED", .setup = setup_s_released, .desc = "ESCAPED, then curl_free", .misuse = 1 },
	{ 0 },
};

const struct tb_datatype tb_type_curl_string = {
	.name = "curl_string",
	.parent = &tb_type_pointer,
	/* memory libcurl did not allocate */
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", "MISALIGNED", NULL },
	.ctype = "void *",
	.values = curl_string_values,
};

/* ---- curl_slist ---- */

static int setup_l_one(union tb_arg *out)
{
	return ptr_or_fail(out, curl_slist_append(NULL, "Accept: */*"), "curl_slist_append");
}

static int setup_l_two(union tb_arg *out)
{
	struct curl_slist *l = curl_slist_append(NULL, "Accept: */*");

	return ptr_or_fail(out, l ? curl_slist_append(l, "X-Two: 2") : NULL, "curl_slist_append");
}

static int setup_l_freed(union tb_arg *out)
{
	struct curl_slist *l = curl_slist_append(NULL, "Accept: */*");

	if (!l)
		return tb_setup_fail("curl_slist_append failed");
	curl_slist_free_all(l);
	out->u = (uintptr_t)l;
	return 0;
}

static const struct tb_value slist_values[] = {
	{ .name = "ONE_ITEM", .setup = setup_l_one, .desc = "curl_slist_append(NULL, \"Accept: */*\")" },
	{ .name = "TWO_ITEMS", .setup = setup_l_two, .desc = "ONE_ITEM, then \"X-Two: 2\" appended" },
	{ .name = "FREED_LIST", .setup = setup_l_freed, .desc = "ONE_ITEM, then curl_slist_free_all", .misuse = 1 },
	{ .name = "GARBAGE", .setup = setup_garbage, .desc = "a page of random bytes", .misuse = 1 },
	{ 0 },
};

const struct tb_datatype tb_type_curl_slist = {
	.name = "curl_slist",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", NULL },
	.ctype = "struct curl_slist *",
	.values = slist_values,
};

/* ---- date_text: curl_getdate(3), PARSING DATES AND TIMES ---- */

static int setup_d_rfc1123(union tb_arg *out) { return text(out, "Sun, 06 Nov 1994 08:49:37 GMT"); }
static int setup_d_rfc850(union tb_arg *out) { return text(out, "Sunday, 06-Nov-94 08:49:37 GMT"); }
static int setup_d_asctime(union tb_arg *out) { return text(out, "Sun Nov  6 08:49:37 1994"); }
static int setup_d_number(union tb_arg *out) { return text(out, "19941106"); }
static int setup_d_zone(union tb_arg *out) { return text(out, "06 Nov 1994 08:49:37 +0100"); }
static int setup_d_feb30(union tb_arg *out) { return text(out, "30 Feb 2020 00:00:00 GMT"); }
static int setup_d_year_1500(union tb_arg *out) { return text(out, "06 Nov 1500 08:49:37 GMT"); }
static int setup_d_not_a_date(union tb_arg *out) { return text(out, "not a date at all"); }
static int setup_d_far(union tb_arg *out) { return text(out, "06 Nov 99999999999 08:49:37 GMT"); }

static const struct tb_value date_values[] = {
	{ .name = "RFC1123", .setup = setup_d_rfc1123, .desc = "\"Sun, 06 Nov 1994 08:49:37 GMT\"" },
	{ .name = "RFC850", .setup = setup_d_rfc850, .desc = "\"Sunday, 06-Nov-94 08:49:37 GMT\"" },
	{ .name = "ASCTIME", .setup = setup_d_asctime, .desc = "\"Sun Nov  6 08:49:37 1994\"" },
	{ .name = "YYYYMMDD", .setup = setup_d_number, .desc = "\"19941106\"" },
	{ .name = "WITH_ZONE", .setup = setup_d_zone, .desc = "\"06 Nov 1994 08:49:37 +0100\"" },
	{ .name = "FEB_30", .setup = setup_d_feb30, .desc = "\"30 Feb 2020 00:00:00 GMT\": no such day" },
	{ .name = "YEAR_1500", .setup = setup_d_year_1500, .desc = "\"06 Nov 1500 08:49:37 GMT\": before 1583" },
	{ .name = "NOT_A_DATE", .setup = setup_d_not_a_date, .desc = "\"not a date at all\"" },
	{ .name = "FAR_YEAR", .setup = setup_d_far, .desc = "\"06 Nov 99999999999 08:49:37 GMT\"" },
	{ 0 },
};

const struct tb_datatype tb_type_date_text = {
	.name = "date_text",
	.parent = &tb_type_string,
	.ctype = "const char *",
	.values = date_values,
};

/* ---- curl_mime, curl_mimepart ---- */

static curl_mime *mime(void)
{
	CURL *e = curl_easy_init();

	return e ? curl_mime_init(e) : NULL;
}

static int setup_m_empty(union tb_arg *out) { return ptr_or_fail(out, mime(), "curl_mime_init"); }

static int setup_m_part(union tb_arg *out)
{
	curl_mime *m = mime();
	curl_mimepart *p = m ? curl_mime_addpart(m) : NULL;

	if (!p || curl_mime_name(p, "field") || curl_mime_data(p, "value", CURL_ZERO_TERMINATED))
		return tb_setup_fail("curl_mime_addpart, curl_mime_name or curl_mime_data failed");
	out->ptr = m;
	return 0;
}

static int setup_m_freed(union tb_arg *out)
{
	curl_mime *m = mime();

	if (!m)
		return tb_setup_fail("curl_mime_init failed");
	curl_mime_free(m);
	out->u = (uintptr_t)m;
	return 0;
}

static const struct tb_value mime_values[] = {
	{ .name = "MIME", .setup = setup_m_empty, .desc = "curl_mime_init(curl_easy_init())" },
	{ .name = "WITH_PART", .setup = setup_m_part, .desc = "MIME with a part named \"field\", data \"value\"" },
	{ .name = "FREED_MIME", .setup = setup_m_freed, .desc = "MIME, then curl_mime_free", .misuse = 1 },
	{ .name = "GARBAGE", .setup = setup_garbage, .desc = "a page of random bytes", .misuse = 1 },
	{ 0 },
};

const struct tb_datatype tb_type_curl_mime = {
	.name = "curl_mime",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", NULL },
	.ctype = "curl_mime *",
	.values = mime_values,
};

static int setup_p_new(union tb_arg *out)
{
	curl_mime *m = mime();

	return ptr_or_fail(out, m ? curl_mime_addpart(m) : NULL, "curl_mime_addpart");
}

static int setup_p_filled(union tb_arg *out)
{
	curl_mime *m = mime();
	curl_mimepart *p = m ? curl_mime_addpart(m) : NULL;

	if (!p || curl_mime_name(p, "field") || curl_mime_data(p, "value", CURL_ZERO_TERMINATED))
		return tb_setup_fail("curl_mime_name or curl_mime_data failed");
	out->ptr = p;
	return 0;
}

static const struct tb_value part_handle_values[] = {
	{ .name = "PART", .setup = setup_p_new, .desc = "curl_mime_addpart of a new mime" },
	{ .name = "FILLED_PART", .setup = setup_p_filled, .desc = "PART named \"field\", data \"value\"" },
	{ .name = "GARBAGE", .setup = setup_garbage, .desc = "a page of random bytes", .misuse = 1 },
	{ 0 },
};

const struct tb_datatype tb_type_curl_mimepart = {
	.name = "curl_mimepart",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", NULL },
	.ctype = "curl_mimepart *",
	.values = part_handle_values,
};

/* ---- mime_data: data and datasize ---- */

static int data_size(union tb_arg *out, const char *s, size_t size)
{
	char *p = s ? guarded_string(s) : NULL;

	if (s && !p)
		return tb_setup_fail("guarded_string failed");
	out[0].ptr = p;
	out[1].u = size;
	return 0;
}

static int setup_md_text(union tb_arg *out) { return data_size(out, "value", 5); }
static int setup_md_zt(union tb_arg *out) { return data_size(out, "value", CURL_ZERO_TERMINATED); }
static int setup_md_empty(union tb_arg *out) { return data_size(out, "", 0); }
static int setup_md_null(union tb_arg *out) { return data_size(out, NULL, 0); }
static int setup_md_null_zt(union tb_arg *out) { return data_size(out, NULL, CURL_ZERO_TERMINATED); }
static int setup_md_past_end(union tb_arg *out) { return data_size(out, "value", 8); }
static int setup_md_huge(union tb_arg *out) { return data_size(out, "value", SIZE_MAX - 1); }

static const struct tb_value mime_data_values[] = {
	{ .name = "DATA", .setup = setup_md_text, .desc = "\"value\", size 5" },
	{ .name = "ZERO_TERMINATED", .setup = setup_md_zt, .desc = "\"value\", CURL_ZERO_TERMINATED" },
	{ .name = "EMPTY", .setup = setup_md_empty, .desc = "\"\", size 0" },
	{ .name = "NULL_ZERO", .setup = setup_md_null, .desc = "NULL, size 0: unassigns" },
	{ .name = "NULL_ZERO_TERMINATED", .setup = setup_md_null_zt, .desc = "NULL, CURL_ZERO_TERMINATED: unassigns" },
	{ .name = "PAST_END", .setup = setup_md_past_end, .desc = "\"value\", size 8: into the guard page" },
	{ .name = "HUGE", .setup = setup_md_huge, .desc = "\"value\", size SIZE_MAX - 1" },
	{ 0 },
};

const struct tb_datatype tb_type_mime_data = {
	.name = "mime_data",
	.ctype = "const char *, size_t",
	.span = 2,
	.values = mime_data_values,
};
