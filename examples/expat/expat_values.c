/*
 * Datatypes of the expat trial target (expat.yaml), written from
 * docs/datatypes.md:
 *
 *   XML_Parser  pointer's values, then parsers in each state expat documents
 *   xml_text    a document and its length in bytes (`const char *s, int len`
 *               of XML_Parse), consistent and not
 */
#include <expat.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "datatype.h"

/* ---- XML_Parser ---- */

static int parser(union tb_arg *out, XML_Parser p)
{
	out->ptr = p;
	return p ? 0 : -1;
}

static XML_Parser fed(const char *text, int final, enum XML_Status want)
{
	XML_Parser p = XML_ParserCreate(NULL);

	if (!p || XML_Parse(p, text, (int)strlen(text), final) != want)
		return NULL;
	return p;
}

static int setup_new(union tb_arg *out) { return parser(out, XML_ParserCreate(NULL)); }
static int setup_new_ns(union tb_arg *out) { return parser(out, XML_ParserCreateNS(NULL, '|')); }
static int setup_mid_document(union tb_arg *out) { return parser(out, fed("<a><b>", 0, XML_STATUS_OK)); }
static int setup_finished(union tb_arg *out) { return parser(out, fed("<a/>", 1, XML_STATUS_OK)); }

static int setup_in_error(union tb_arg *out)
{
	XML_Parser p = fed("<a></b>", 1, XML_STATUS_ERROR);

	if (p && XML_GetErrorCode(p) == XML_ERROR_NONE)
		return -1;
	return parser(out, p);
}

/* stopped, resumable, from inside a start-element handler */
static void XMLCALL stop_here(void *data, const XML_Char *name, const XML_Char **atts)
{
	XML_StopParser((XML_Parser)data, XML_TRUE);
}

static int setup_suspended(union tb_arg *out)
{
	XML_Parser p = XML_ParserCreate(NULL);
	XML_ParsingStatus status;

	if (!p)
		return -1;
	XML_SetUserData(p, p);
	XML_SetStartElementHandler(p, stop_here);
	if (XML_Parse(p, "<a><b/></a>", 11, 1) != XML_STATUS_SUSPENDED)
		return -1;
	XML_GetParsingStatus(p, &status);
	return status.parsing == XML_SUSPENDED ? parser(out, p) : -1;
}

static int setup_released(union tb_arg *out)
{
	XML_Parser p = XML_ParserCreate(NULL);

	if (!p)
		return -1;
	out->u = (uintptr_t)p;
	XML_ParserFree(p);
	return 0;
}

static int setup_garbage(union tb_arg *out)
{
	return (out->ptr = tb_garbage_block(1024)) ? 0 : -1;
}

/* No cleanups: the test process ends after the call, and XML_ParserFree
 * may be the call itself. */
static const struct tb_value parser_values[] = {
	{ .name = "NEW", .setup = setup_new, .desc = "XML_ParserCreate(NULL)" },
	{ .name = "NEW_NS", .setup = setup_new_ns, .desc = "XML_ParserCreateNS(NULL, '|')" },
	{ .name = "MID_DOCUMENT", .setup = setup_mid_document,
	  .desc = "fed \"<a><b>\", not final: elements open" },
	{ .name = "FINISHED", .setup = setup_finished, .desc = "fed \"<a/>\", final: parsing done" },
	{ .name = "IN_ERROR", .setup = setup_in_error,
	  .desc = "fed \"<a></b>\", final: a tag mismatch error" },
	{ .name = "SUSPENDED", .setup = setup_suspended,
	  .desc = "stopped (resumable) by XML_StopParser in a handler" },
	{ .name = "RELEASED", .setup = setup_released, .desc = "XML_ParserCreate, XML_ParserFree", .misuse = 1 },
	{ .name = "GARBAGE", .setup = setup_garbage, .desc = "1 KiB of random bytes before a guard page", .misuse = 1 },
	{ 0 },
};

const struct tb_datatype tb_type_xml_parser = {
	.name = "XML_Parser",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", NULL },  /* no parser */
	.ctype = "XML_Parser",
	.values = parser_values,
};

/* ---- xml_text: a buffer and its length, one value ---- */

/* text copied to the end of a guarded block, with len as the length */
static int text(union tb_arg *out, const char *s, long long len)
{
	size_t n = strlen(s);
	char *p = tb_guarded_block(n);

	if (!p)
		return -1;
	memcpy(p, s, n);
	out[0].ptr = p;
	out[1].i = len;
	return 0;
}

#define DOC "<doc a=\"1\">text<e/></doc>"

static int setup_document(union tb_arg *out) { return text(out, DOC, strlen(DOC)); }
static int setup_empty(union tb_arg *out) { return text(out, "", 0); }
static int setup_partial(union tb_arg *out) { return text(out, "<doc><e>", 8); }
static int setup_malformed(union tb_arg *out) { return text(out, "<a></b>", 7); }
static int setup_past_end(union tb_arg *out) { return text(out, DOC, strlen(DOC) + 1); }
static int setup_negative(union tb_arg *out) { return text(out, DOC, -1); }
static int setup_int_max(union tb_arg *out) { return text(out, DOC, INT_MAX); }

static int setup_null(union tb_arg *out, int len)
{
	out[0].ptr = NULL;
	out[1].i = len;
	return 0;
}

static int setup_null_zero(union tb_arg *out) { return setup_null(out, 0); }
static int setup_null_len(union tb_arg *out) { return setup_null(out, 16); }

static const struct tb_value text_values[] = {
	{ .name = "DOCUMENT", .setup = setup_document, .desc = "a whole document, its length" },
	{ .name = "EMPTY", .setup = setup_empty, .desc = "0 bytes before a guard page, length 0" },
	{ .name = "PARTIAL", .setup = setup_partial, .desc = "\"<doc><e>\", length 8" },
	{ .name = "MALFORMED", .setup = setup_malformed, .desc = "\"<a></b>\", length 7" },
	{ .name = "PAST_END", .setup = setup_past_end,
	  .desc = "a document, its length + 1: one byte into the guard page" },
	{ .name = "NEGATIVE", .setup = setup_negative, .desc = "a document, length -1" },
	{ .name = "INT_MAX", .setup = setup_int_max, .desc = "a document, length INT_MAX" },
	{ .name = "NULL_ZERO", .setup = setup_null_zero, .desc = "NULL, length 0" },
	{ .name = "NULL_LEN", .setup = setup_null_len, .desc = "NULL, length 16" },
	{ 0 },
};

const struct tb_datatype tb_type_xml_text = {
	.name = "xml_text",
	.ctype = "const char *, int",
	.span = 2,
	.values = text_values,
};
