/*
 * Datatypes of the libxml2 target (libxml2.yaml), from libxml2 2.9.14's
 * API reference (the comments above each function in its sources, which
 * Debian's libxml2-doc renders).  Each object is in every state the
 * reference tells apart, built by the calls a caller would make.
 *
 *   xml_doc      new, new with a root, parsed, parsed with a DTD, freed
 *   xml_node     a parsed document's root, child, text, comment and
 *                attribute; a node of no document; freed
 *   xml_ns       a namespace declared in a parsed document; one of no node
 *   xml_buffer   new, holding text, freed
 *   xml_ctxt     new, used for a document, in error, freed
 *   xml_reader   new, on an element, on an attribute, at the end, in
 *                error, closed, freed
 *   xml_text     a document and its length (buffer, size), as one value
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlreader.h>

#include "datatype.h"

#define DOC "<?xml version=\"1.0\"?>\n" \
	"<!-- a comment -->\n" \
	"<r xmlns:p=\"urn:p\" a=\"1\"><p:c b=\"2\">text &amp; more</p:c><e/></r>\n"
#define DTD_DOC "<?xml version=\"1.0\"?>\n" \
	"<!DOCTYPE r [<!ENTITY ent \"entity text\"><!ATTLIST r d CDATA \"default\">]>\n" \
	"<r>&ent;<c/></r>\n"
#define BAD "<r><c></r>"

static xmlDocPtr parse(const char *text)
{
	return xmlReadMemory(text, (int)strlen(text), "doc.xml", NULL, XML_PARSE_NONET);
}

static int ptr(union tb_arg *out, void *p, const char *what)
{
	out->ptr = p;
	return p ? 0 : tb_setup_fail("%s returned NULL", what);
}

static int garbage(union tb_arg *out, size_t size)
{
	return ptr(out, tb_garbage_block(size), "tb_garbage_block");
}

static int freed(union tb_arg *out, void *p, void (*release)(void *), const char *what)
{
	if (!p)
		return tb_setup_fail("%s returned NULL", what);
	release(p);
	out->u = (uintptr_t)p;
	return 0;
}

/* ---- xml_doc ---- */

static int setup_doc_new(union tb_arg *out)
{
	return ptr(out, xmlNewDoc(BAD_CAST "1.0"), "xmlNewDoc");
}

static int setup_doc_with_root(union tb_arg *out)
{
	xmlDocPtr d = xmlNewDoc(BAD_CAST "1.0");
	xmlNodePtr n = d ? xmlNewDocNode(d, NULL, BAD_CAST "root", BAD_CAST "text") : NULL;

	if (!n)
		return tb_setup_fail("xmlNewDocNode returned NULL");
	xmlDocSetRootElement(d, n);
	return ptr(out, d, "xmlNewDoc");
}

static int setup_doc_parsed(union tb_arg *out) { return ptr(out, parse(DOC), "xmlReadMemory"); }
static int setup_doc_dtd(union tb_arg *out) { return ptr(out, parse(DTD_DOC), "xmlReadMemory (internal subset)"); }

static void free_doc(void *p) { xmlFreeDoc(p); }
static int setup_doc_freed(union tb_arg *out) { return freed(out, parse(DOC), free_doc, "xmlReadMemory"); }
static int setup_doc_garbage(union tb_arg *out) { return garbage(out, sizeof(xmlDoc)); }

static const struct tb_value doc_values[] = {
	{ .name = "NEW", .setup = setup_doc_new, .desc = "xmlNewDoc(\"1.0\"): no root element" },
	{ .name = "WITH_ROOT", .setup = setup_doc_with_root, .desc = "xmlNewDoc, then a root element set" },
	{ .name = "PARSED", .setup = setup_doc_parsed,
	  .desc = "xmlReadMemory: a comment, a root with a namespace, attributes, text" },
	{ .name = "WITH_DTD", .setup = setup_doc_dtd,
	  .desc = "xmlReadMemory: an internal subset with an entity and a default attribute" },
	{ .name = "RELEASED", .setup = setup_doc_freed, .misuse = 1, .desc = "parsed, then xmlFreeDoc" },
	{ .name = "GARBAGE", .setup = setup_doc_garbage, .misuse = 1, .desc = "random bytes the size of an xmlDoc" },
	{ 0 },
};

/* the inherited pages are bytes, no document */
const struct tb_datatype tb_type_xml_doc = {
	.name = "xml_doc",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", NULL },
	.ctype = "xmlDocPtr",
	.values = doc_values,
};

/* ---- xml_node ---- */

static xmlNodePtr root(void)
{
	xmlDocPtr d = parse(DOC);

	return d ? xmlDocGetRootElement(d) : NULL;
}

static int setup_node_root(union tb_arg *out) { return ptr(out, root(), "xmlDocGetRootElement"); }

static int setup_node_child(union tb_arg *out)
{
	xmlNodePtr r = root();

	return ptr(out, r ? r->children : NULL, "the root's first child");
}

static int setup_node_text(union tb_arg *out)
{
	xmlNodePtr r = root();
	xmlNodePtr t = r && r->children ? r->children->children : NULL;

	if (t && t->type != XML_TEXT_NODE)
		return tb_setup_fail("no text node");
	return ptr(out, t, "the child's text");
}

static int setup_node_comment(union tb_arg *out)
{
	xmlDocPtr d = parse(DOC);
	xmlNodePtr c = d ? d->children : NULL;

	if (c && c->type != XML_COMMENT_NODE)
		return tb_setup_fail("no comment node");
	return ptr(out, c, "the document's first child");
}

/* an xmlAttrPtr, as tree.c's functions take one where an xmlNodePtr is asked
 * (xmlAddChild: "If the new node is ATTRIBUTE ...") */
static int setup_node_attribute(union tb_arg *out)
{
	xmlNodePtr r = root();

	return ptr(out, r ? (xmlNodePtr)r->properties : NULL, "the root's attribute");
}

static int setup_node_unlinked(union tb_arg *out)
{
	return ptr(out, xmlNewNode(NULL, BAD_CAST "lone"), "xmlNewNode");
}

static void free_node(void *p) { xmlFreeNode(p); }

static int setup_node_freed(union tb_arg *out)
{
	return freed(out, xmlNewNode(NULL, BAD_CAST "lone"), free_node, "xmlNewNode");
}

static int setup_node_garbage(union tb_arg *out) { return garbage(out, sizeof(xmlNode)); }

static const struct tb_value node_values[] = {
	{ .name = "ROOT", .setup = setup_node_root, .desc = "a parsed document's root element" },
	{ .name = "CHILD", .setup = setup_node_child, .desc = "a child element, with a namespace and text" },
	{ .name = "TEXT", .setup = setup_node_text, .desc = "a text node" },
	{ .name = "COMMENT", .setup = setup_node_comment, .desc = "a comment, child of the document" },
	{ .name = "ATTRIBUTE", .setup = setup_node_attribute, .desc = "an attribute (xmlAttrPtr) of the root" },
	{ .name = "UNLINKED", .setup = setup_node_unlinked, .desc = "xmlNewNode: an element of no document" },
	{ .name = "RELEASED", .setup = setup_node_freed, .misuse = 1, .desc = "xmlNewNode, then xmlFreeNode" },
	{ .name = "GARBAGE", .setup = setup_node_garbage, .misuse = 1, .desc = "random bytes the size of an xmlNode" },
	{ 0 },
};

const struct tb_datatype tb_type_xml_node = {
	.name = "xml_node",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", NULL },
	.ctype = "xmlNodePtr",
	.values = node_values,
};

/* ---- xml_ns ---- */

static int setup_ns_declared(union tb_arg *out)
{
	xmlNodePtr r = root();

	return ptr(out, r ? r->nsDef : NULL, "the root's namespace declaration");
}

static int setup_ns_lone(union tb_arg *out)
{
	return ptr(out, xmlNewNs(NULL, BAD_CAST "urn:lone", BAD_CAST "l"), "xmlNewNs");
}

static int setup_ns_garbage(union tb_arg *out) { return garbage(out, sizeof(xmlNs)); }

static const struct tb_value ns_values[] = {
	{ .name = "DECLARED", .setup = setup_ns_declared, .desc = "xmlns:p=\"urn:p\" on a parsed root" },
	{ .name = "LONE", .setup = setup_ns_lone, .desc = "xmlNewNs(NULL, \"urn:lone\", \"l\"): on no node" },
	{ .name = "GARBAGE", .setup = setup_ns_garbage, .misuse = 1, .desc = "random bytes the size of an xmlNs" },
	{ 0 },
};

const struct tb_datatype tb_type_xml_ns = {
	.name = "xml_ns",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", NULL },
	.ctype = "xmlNsPtr",
	.values = ns_values,
};

/* ---- xml_buffer ---- */

static int setup_buffer_new(union tb_arg *out) { return ptr(out, xmlBufferCreate(), "xmlBufferCreate"); }

static int setup_buffer_text(union tb_arg *out)
{
	xmlBufferPtr b = xmlBufferCreate();

	if (b && xmlBufferAdd(b, BAD_CAST "some text", -1))
		return tb_setup_fail("xmlBufferAdd failed");
	return ptr(out, b, "xmlBufferCreate");
}

static void free_buffer(void *p) { xmlBufferFree(p); }
static int setup_buffer_freed(union tb_arg *out) { return freed(out, xmlBufferCreate(), free_buffer, "xmlBufferCreate"); }
static int setup_buffer_garbage(union tb_arg *out) { return garbage(out, sizeof(xmlBuffer)); }

static const struct tb_value buffer_values[] = {
	{ .name = "NEW", .setup = setup_buffer_new, .desc = "xmlBufferCreate: empty" },
	{ .name = "WITH_TEXT", .setup = setup_buffer_text, .desc = "xmlBufferCreate, then \"some text\" added" },
	{ .name = "RELEASED", .setup = setup_buffer_freed, .misuse = 1, .desc = "xmlBufferCreate, then xmlBufferFree" },
	{ .name = "GARBAGE", .setup = setup_buffer_garbage, .misuse = 1, .desc = "random bytes the size of an xmlBuffer" },
	{ 0 },
};

const struct tb_datatype tb_type_xml_buffer = {
	.name = "xml_buffer",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", NULL },
	.ctype = "xmlBufferPtr",
	.values = buffer_values,
};

/* ---- xml_ctxt ---- */

static int setup_ctxt_new(union tb_arg *out) { return ptr(out, xmlNewParserCtxt(), "xmlNewParserCtxt"); }

static xmlParserCtxtPtr used(const char *text, int want_doc)
{
	xmlParserCtxtPtr c = xmlNewParserCtxt();
	xmlDocPtr d;

	if (!c)
		return NULL;
	d = xmlCtxtReadMemory(c, text, (int)strlen(text), "doc.xml", NULL, XML_PARSE_NONET);
	return !d == !want_doc ? c : NULL;
}

static int setup_ctxt_used(union tb_arg *out) { return ptr(out, used(DOC, 1), "xmlCtxtReadMemory (a document)"); }
static int setup_ctxt_in_error(union tb_arg *out) { return ptr(out, used(BAD, 0), "xmlCtxtReadMemory (malformed)"); }

static void free_ctxt(void *p) { xmlFreeParserCtxt(p); }
static int setup_ctxt_freed(union tb_arg *out) { return freed(out, xmlNewParserCtxt(), free_ctxt, "xmlNewParserCtxt"); }
static int setup_ctxt_garbage(union tb_arg *out) { return garbage(out, sizeof(xmlParserCtxt)); }

static const struct tb_value ctxt_values[] = {
	{ .name = "NEW", .setup = setup_ctxt_new, .desc = "xmlNewParserCtxt" },
	{ .name = "USED", .setup = setup_ctxt_used, .desc = "xmlCtxtReadMemory parsed a document with it" },
	{ .name = "IN_ERROR", .setup = setup_ctxt_in_error,
	  .desc = "xmlCtxtReadMemory failed on a tag mismatch with it" },
	{ .name = "RELEASED", .setup = setup_ctxt_freed, .misuse = 1, .desc = "xmlNewParserCtxt, then xmlFreeParserCtxt" },
	{ .name = "GARBAGE", .setup = setup_ctxt_garbage, .misuse = 1,
	  .desc = "random bytes the size of an xmlParserCtxt" },
	{ 0 },
};

const struct tb_datatype tb_type_xml_ctxt = {
	.name = "xml_ctxt",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", NULL },
	.ctype = "xmlParserCtxtPtr",
	.values = ctxt_values,
};

/* ---- xml_reader ---- */

static xmlTextReaderPtr reader_on(const char *text)
{
	return xmlReaderForMemory(text, (int)strlen(text), "doc.xml", NULL, XML_PARSE_NONET);
}

/* a reader on text, read n times, each read answering want */
static xmlTextReaderPtr reader_read(const char *text, int n, int want)
{
	xmlTextReaderPtr r = reader_on(text);

	for (int i = 0; r && i < n; i++)
		if (xmlTextReaderRead(r) != want)
			return NULL;
	return r;
}

static int setup_reader_new(union tb_arg *out) { return ptr(out, reader_on(DOC), "xmlReaderForMemory"); }

/* the comment, then the root element */
static int setup_reader_on_element(union tb_arg *out)
{
	return ptr(out, reader_read(DOC, 2, 1), "xmlTextReaderRead (twice)");
}

static int setup_reader_on_attribute(union tb_arg *out)
{
	xmlTextReaderPtr r = reader_read(DOC, 2, 1);

	if (r && xmlTextReaderMoveToFirstAttribute(r) != 1)
		return tb_setup_fail("xmlTextReaderMoveToFirstAttribute failed");
	return ptr(out, r, "xmlTextReaderRead (twice)");
}

static int setup_reader_at_end(union tb_arg *out)
{
	xmlTextReaderPtr r = reader_on(DOC);
	int ret = 1;

	for (int i = 0; r && ret == 1 && i < 64; i++)
		ret = xmlTextReaderRead(r);
	return ptr(out, ret == 0 ? r : NULL, "xmlTextReaderRead to the end");
}

static int setup_reader_in_error(union tb_arg *out)
{
	xmlTextReaderPtr r = reader_on(BAD);
	int ret = 1;

	for (int i = 0; r && ret == 1 && i < 64; i++)
		ret = xmlTextReaderRead(r);
	return ptr(out, ret == -1 ? r : NULL, "xmlTextReaderRead to an error");
}

static int setup_reader_closed(union tb_arg *out)
{
	xmlTextReaderPtr r = reader_read(DOC, 2, 1);

	if (r && xmlTextReaderClose(r) != 0)
		return tb_setup_fail("xmlTextReaderClose failed");
	return ptr(out, r, "xmlTextReaderRead (twice)");
}

static void free_reader(void *p) { xmlFreeTextReader(p); }
static int setup_reader_freed(union tb_arg *out) { return freed(out, reader_on(DOC), free_reader, "xmlReaderForMemory"); }
static int setup_reader_garbage(union tb_arg *out) { return garbage(out, 1024); }

static const struct tb_value reader_values[] = {
	{ .name = "NEW", .setup = setup_reader_new, .desc = "xmlReaderForMemory, nothing read" },
	{ .name = "ON_ELEMENT", .setup = setup_reader_on_element, .desc = "read twice: on the root element" },
	{ .name = "ON_ATTRIBUTE", .setup = setup_reader_on_attribute,
	  .desc = "on the root, moved to its first attribute" },
	{ .name = "AT_END", .setup = setup_reader_at_end, .desc = "read until xmlTextReaderRead returned 0" },
	{ .name = "IN_ERROR", .setup = setup_reader_in_error,
	  .desc = "on a tag mismatch, read until xmlTextReaderRead returned -1" },
	{ .name = "CLOSED", .setup = setup_reader_closed, .desc = "on the root, then xmlTextReaderClose" },
	{ .name = "RELEASED", .setup = setup_reader_freed, .misuse = 1, .desc = "xmlReaderForMemory, then xmlFreeTextReader" },
	{ .name = "GARBAGE", .setup = setup_reader_garbage, .misuse = 1, .desc = "1 KiB of random bytes" },
	{ 0 },
};

const struct tb_datatype tb_type_xml_reader = {
	.name = "xml_reader",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", NULL },
	.ctype = "xmlTextReaderPtr",
	.values = reader_values,
};

/* ---- xml_text: (const char *buffer, int size) ---- */

/* s copied to the end of a guarded block, with n as its size */
static int text(union tb_arg *out, const char *s, long long n)
{
	size_t len = strlen(s);
	char *p = tb_guarded_block(len);

	if (!p)
		return tb_setup_fail("tb_guarded_block failed");
	memcpy(p, s, len);
	out[0].ptr = p;
	out[1].i = n;
	return 0;
}

static int setup_text_document(union tb_arg *out) { return text(out, DOC, strlen(DOC)); }
static int setup_text_dtd(union tb_arg *out) { return text(out, DTD_DOC, strlen(DTD_DOC)); }
static int setup_text_empty(union tb_arg *out) { return text(out, "", 0); }
static int setup_text_malformed(union tb_arg *out) { return text(out, BAD, strlen(BAD)); }
static int setup_text_truncated(union tb_arg *out) { return text(out, DOC, 40); }
static int setup_text_past_end(union tb_arg *out) { return text(out, DOC, strlen(DOC) + 1); }
static int setup_text_negative(union tb_arg *out) { return text(out, DOC, -1); }
static int setup_text_int_max(union tb_arg *out) { return text(out, DOC, INT_MAX); }

static int setup_text_null(union tb_arg *out, int n)
{
	out[0].ptr = NULL;
	out[1].i = n;
	return 0;
}

static int setup_text_null_zero(union tb_arg *out) { return setup_text_null(out, 0); }
static int setup_text_null_len(union tb_arg *out) { return setup_text_null(out, 16); }

static const struct tb_value text_values[] = {
	{ .name = "DOCUMENT", .setup = setup_text_document, .desc = "a document with a namespace, its length" },
	{ .name = "WITH_DTD", .setup = setup_text_dtd, .desc = "a document with an internal subset, its length" },
	{ .name = "EMPTY", .setup = setup_text_empty, .desc = "0 bytes before a guard page, size 0" },
	{ .name = "MALFORMED", .setup = setup_text_malformed, .desc = "\"<r><c></r>\", its length" },
	{ .name = "TRUNCATED", .setup = setup_text_truncated, .desc = "a document's first 40 bytes" },
	{ .name = "PAST_END", .setup = setup_text_past_end,
	  .desc = "a document, its length + 1: one byte into the guard page" },
	{ .name = "NEGATIVE", .setup = setup_text_negative, .desc = "a document, size -1" },
	{ .name = "INT_MAX", .setup = setup_text_int_max, .desc = "a document, size INT_MAX" },
	{ .name = "NULL_ZERO", .setup = setup_text_null_zero, .desc = "NULL, size 0" },
	{ .name = "NULL_LEN", .setup = setup_text_null_len, .desc = "NULL, size 16" },
	{ 0 },
};

const struct tb_datatype tb_type_xml_text = {
	.name = "xml_text",
	.ctype = "const char *, int",
	.span = 2,
	.values = text_values,
};

/* ---- xml_chars: a string xmlStrcat may reallocate ("the original @cur is
 * reallocated"), so one from xmlMalloc ---- */

static int setup_chars_short(union tb_arg *out) { return ptr(out, xmlStrdup(BAD_CAST "hello"), "xmlStrdup"); }
static int setup_chars_empty(union tb_arg *out) { return ptr(out, xmlStrdup(BAD_CAST ""), "xmlStrdup"); }

static void free_chars(void *p) { xmlFree(p); }
static int setup_chars_freed(union tb_arg *out) { return freed(out, xmlStrdup(BAD_CAST "hello"), free_chars, "xmlStrdup"); }

static const struct tb_value chars_values[] = {
	{ .name = "ALLOCATED", .setup = setup_chars_short, .desc = "xmlStrdup(\"hello\")" },
	{ .name = "ALLOCATED_EMPTY", .setup = setup_chars_empty, .desc = "xmlStrdup(\"\")" },
	{ .name = "RELEASED", .setup = setup_chars_freed, .misuse = 1, .desc = "xmlStrdup, then xmlFree" },
	{ 0 },
};

/* pages that no allocator gave cannot be reallocated */
const struct tb_datatype tb_type_xml_chars = {
	.name = "xml_chars",
	.parent = &tb_type_pointer,
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", "MISALIGNED", NULL },
	.ctype = "xmlChar *",
	.values = chars_values,
};
