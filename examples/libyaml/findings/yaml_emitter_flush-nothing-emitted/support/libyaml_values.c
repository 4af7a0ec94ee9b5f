/*
 * Datatypes of the libyaml target (libyaml.yaml), from yaml.h (0.2.5).
 * Parsers, emitters, events, tokens and documents are structs the caller
 * allocates and the library initializes; each datatype gives one in every
 * state yaml.h describes, built by the calls a caller would make, in a
 * guarded block so that a write past the struct faults.
 *
 *   yaml_parser    zeroed, initialized, with input, mid-parse, at the end,
 *                  in error, scanning, deleted
 *   yaml_emitter   zeroed, initialized, with output, stream started,
 *                  mid-document, output full, in error, closed, deleted
 *   yaml_event     empty, each kind made by its initializer, one parsed,
 *                  deleted
 *   yaml_token     empty, one scanned, deleted
 *   yaml_document  empty, initialized, with nodes, loaded, the stream's
 *                  end (no root), deleted
 *   yaml_input     a document and its length (set_input_string's pair)
 *   yaml_scalar    a scalar value and its length (an int, -1: strlen)
 *   yaml_directives  a %YAML directive and a %TAG list (start, end)
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <yaml.h>

#include "datatype.h"

#define DOC "key: [1, two, {three: 3}]\n---\n- &a x\n- *a\n"

static void *block(size_t size)
{
	return tb_guarded_block(size);
}

static int garbage(union tb_arg *out, size_t size)
{
	out->ptr = tb_garbage_block(size);
	return out->ptr ? 0 : tb_setup_fail("tb_garbage_block failed");
}

/* ---- yaml_parser ---- */

static yaml_parser_t *new_parser(void)
{
	yaml_parser_t *p = block(sizeof *p);

	if (!p || !yaml_parser_initialize(p))
		return NULL;
	return p;
}

static yaml_parser_t *parser_on(const char *text)
{
	yaml_parser_t *p = new_parser();

	if (p)
		yaml_parser_set_input_string(p, (const unsigned char *)text, strlen(text));
	return p;
}

/* parses n events (all of them when n < 0); NULL when the parser errs */
static yaml_parser_t *parsed(const char *text, int n)
{
	yaml_parser_t *p = parser_on(text);
	yaml_event_t ev;

	while (p && n--) {
		if (!yaml_parser_parse(p, &ev))
			return NULL;
		if (ev.type == YAML_STREAM_END_EVENT) {
			yaml_event_delete(&ev);
			break;
		}
		yaml_event_delete(&ev);
	}
	return p;
}

static int parser(union tb_arg *out, yaml_parser_t *p, const char *what)
{
	out->ptr = p;
	return p ? 0 : tb_setup_fail("%s failed", what);
}

static int setup_parser_zeroed(union tb_arg *out)
{
	return parser(out, block(sizeof(yaml_parser_t)), "tb_guarded_block");
}

static int setup_parser_initialized(union tb_arg *out)
{
	return parser(out, new_parser(), "yaml_parser_initialize");
}

static int setup_parser_with_input(union tb_arg *out)
{
	return parser(out, parser_on(DOC), "yaml_parser_set_input_string");
}

static int setup_parser_mid_parse(union tb_arg *out)
{
	return parser(out, parsed(DOC, 4), "yaml_parser_parse (4 events)");
}

static int setup_parser_at_end(union tb_arg *out)
{
	yaml_parser_t *p = parsed(DOC, -1);

	if (p && !p->stream_end_produced)
		return tb_setup_fail("no STREAM-END event");
	return parser(out, p, "yaml_parser_parse to the end");
}

static int setup_parser_in_error(union tb_arg *out)
{
	yaml_parser_t *p = parser_on("key: [1, 2\n  - : :\n");
	yaml_event_t ev;

	if (!p)
		return tb_setup_fail("yaml_parser_initialize failed");
	for (int i = 0; i < 64; i++) {
		if (!yaml_parser_parse(p, &ev))
			return p->error != YAML_NO_ERROR ? parser(out, p, "")
				: tb_setup_fail("parse failed with no error");
		yaml_event_delete(&ev);
	}
	return tb_setup_fail("the malformed document parsed");
}

/* yaml.h: scan must not be alternated with parse or load */
static int setup_parser_scanning(union tb_arg *out)
{
	yaml_parser_t *p = parser_on(DOC);
	yaml_token_t tok;

	for (int i = 0; p && i < 3; i++) {
		if (!yaml_parser_scan(p, &tok))
			return tb_setup_fail("yaml_parser_scan failed");
		yaml_token_delete(&tok);
	}
	return parser(out, p, "yaml_parser_initialize");
}

static int setup_parser_deleted(union tb_arg *out)
{
	yaml_parser_t *p = parser_on(DOC);

	if (p)
		yaml_parser_delete(p);
	return parser(out, p, "yaml_parser_initialize");
}

static int setup_parser_garbage(union tb_arg *out)
{
	return garbage(out, sizeof(yaml_parser_t));
}

static const struct tb_value parser_values[] = {
	{ .name = "ZEROED", .setup = setup_parser_zeroed,
	  .desc = "a zero-filled yaml_parser_t: \"an empty parser object\", not initialized" },
	{ .name = "INITIALIZED", .setup = setup_parser_initialized,
	  .desc = "yaml_parser_initialize, no input set" },
	{ .name = "WITH_INPUT", .setup = setup_parser_with_input,
	  .desc = "initialized, input set to a two-document string" },
	{ .name = "MID_PARSE", .setup = setup_parser_mid_parse,
	  .desc = "with input, 4 events parsed" },
	{ .name = "AT_END", .setup = setup_parser_at_end,
	  .desc = "with input, parsed to its STREAM-END event" },
	{ .name = "IN_ERROR", .setup = setup_parser_in_error,
	  .desc = "fed a malformed document, yaml_parser_parse returned 0" },
	{ .name = "SCANNING", .setup = setup_parser_scanning,
	  .desc = "with input, 3 tokens scanned by yaml_parser_scan" },
	{ .name = "DELETED", .setup = setup_parser_deleted,
	  .desc = "initialized with input, then yaml_parser_delete" },
	{ .name = "GARBAGE", .setup = setup_parser_garbage, .misuse = 1,
	  .desc = "random bytes the size of a yaml_parser_t" },
	{ 0 },
};

/* the inherited VALID and READ_ONLY pages are bytes, no parser */
const struct tb_datatype tb_type_yaml_parser = {
	.name = "yaml_parser",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", NULL },
	.ctype = "yaml_parser_t *",
	.values = parser_values,
};

/* ---- yaml_emitter ---- */

static unsigned char *out_buf;
static size_t out_written;

static yaml_emitter_t *new_emitter(size_t room)
{
	yaml_emitter_t *e = block(sizeof *e);

	if (!e || !yaml_emitter_initialize(e))
		return NULL;
	if (room) {
		out_buf = block(room);
		if (!out_buf)
			return NULL;
		yaml_emitter_set_output_string(e, out_buf, room, &out_written);
	}
	return e;
}

/* emits the events of `kinds` in order: S stream start, D document start,
 * M mapping start, K scalar, m mapping end, d document end, s stream end */
static yaml_emitter_t *emitted(size_t room, const char *kinds, int want)
{
	yaml_emitter_t *e = new_emitter(room);
	yaml_event_t ev;
	int ok = 1;

	for (const char *k = kinds; e && *k; k++) {
		switch (*k) {
		case 'S': yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING); break;
		case 'D': yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1); break;
		case 'M': yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_ANY_MAPPING_STYLE); break;
		case 'K': yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)"key", -1, 1, 1,
						       YAML_ANY_SCALAR_STYLE); break;
		case 'm': yaml_mapping_end_event_initialize(&ev); break;
		case 'd': yaml_document_end_event_initialize(&ev, 1); break;
		default: yaml_stream_end_event_initialize(&ev); break;
		}
		ok = yaml_emitter_emit(e, &ev);
		if (!ok)
			break;
	}
	return e && ok == want ? e : NULL;
}

static int emitter(union tb_arg *out, yaml_emitter_t *e, const char *what)
{
	out->ptr = e;
	return e ? 0 : tb_setup_fail("%s failed", what);
}

static int setup_emitter_zeroed(union tb_arg *out)
{
	return emitter(out, block(sizeof(yaml_emitter_t)), "tb_guarded_block");
}

static int setup_emitter_initialized(union tb_arg *out)
{
	return emitter(out, new_emitter(0), "yaml_emitter_initialize");
}

static int setup_emitter_with_output(union tb_arg *out)
{
	return emitter(out, new_emitter(4096), "yaml_emitter_set_output_string");
}

static int setup_emitter_stream_started(union tb_arg *out)
{
	return emitter(out, emitted(4096, "S", 1), "emitting STREAM-START");
}

static int setup_emitter_mid_document(union tb_arg *out)
{
	return emitter(out, emitted(4096, "SDMK", 1), "emitting a mapping's first key");
}

/* a 4-byte output buffer: the document's end flushes more than fits */
static int setup_emitter_output_full(union tb_arg *out)
{
	yaml_emitter_t *e = emitted(4, "SDMKKmd", 0);

	if (e && e->error != YAML_WRITER_ERROR)
		return tb_setup_fail("no YAML_WRITER_ERROR");
	return emitter(out, e, "emitting into 4 bytes");
}

/* a MAPPING-END with no mapping open: "expected SCALAR, SEQUENCE-START ..." */
static int setup_emitter_in_error(union tb_arg *out)
{
	yaml_emitter_t *e = emitted(4096, "SDm", 0);

	if (e && e->error != YAML_EMITTER_ERROR)
		return tb_setup_fail("no YAML_EMITTER_ERROR");
	return emitter(out, e, "emitting a stray MAPPING-END");
}

static int setup_emitter_closed(union tb_arg *out)
{
	return emitter(out, emitted(4096, "SDKds", 1), "emitting a whole stream");
}

/* yaml.h: yaml_emitter_open "should be used before yaml_emitter_dump" */
static int setup_emitter_opened(union tb_arg *out)
{
	yaml_emitter_t *e = new_emitter(4096);

	if (e && !yaml_emitter_open(e))
		return tb_setup_fail("yaml_emitter_open failed");
	return emitter(out, e, "yaml_emitter_initialize");
}

static yaml_document_t *with_nodes(void);

/* opened, then a document dumped: yaml_emitter_close is due */
static int setup_emitter_dumped(union tb_arg *out)
{
	yaml_emitter_t *e = new_emitter(4096);
	yaml_document_t *d = with_nodes();

	if (!e || !d || !yaml_emitter_open(e) || !yaml_emitter_dump(e, d))
		return tb_setup_fail("yaml_emitter_open and yaml_emitter_dump failed");
	return emitter(out, e, "");
}

static int setup_emitter_deleted(union tb_arg *out)
{
	yaml_emitter_t *e = new_emitter(4096);

	if (e)
		yaml_emitter_delete(e);
	return emitter(out, e, "yaml_emitter_initialize");
}

static int setup_emitter_garbage(union tb_arg *out)
{
	return garbage(out, sizeof(yaml_emitter_t));
}

static const struct tb_value emitter_values[] = {
	{ .name = "ZEROED", .setup = setup_emitter_zeroed,
	  .desc = "a zero-filled yaml_emitter_t: \"an empty emitter object\", not initialized" },
	{ .name = "INITIALIZED", .setup = setup_emitter_initialized,
	  .desc = "yaml_emitter_initialize, no output set" },
	{ .name = "WITH_OUTPUT", .setup = setup_emitter_with_output,
	  .desc = "initialized, output set to a 4096-byte string" },
	{ .name = "STREAM_STARTED", .setup = setup_emitter_stream_started,
	  .desc = "with output, STREAM-START emitted" },
	{ .name = "MID_DOCUMENT", .setup = setup_emitter_mid_document,
	  .desc = "with output, STREAM-START, DOCUMENT-START, MAPPING-START and a key emitted" },
	{ .name = "OUTPUT_FULL", .setup = setup_emitter_output_full,
	  .desc = "output a 4-byte string; a document's end failed with YAML_WRITER_ERROR" },
	{ .name = "IN_ERROR", .setup = setup_emitter_in_error,
	  .desc = "a MAPPING-END emitted where a node was due: YAML_EMITTER_ERROR" },
	{ .name = "CLOSED", .setup = setup_emitter_closed,
	  .desc = "a whole stream emitted, STREAM-END included" },
	{ .name = "OPENED", .setup = setup_emitter_opened,
	  .desc = "with output, yaml_emitter_open" },
	{ .name = "DUMPED", .setup = setup_emitter_dumped,
	  .desc = "with output, opened, then a document of 4 nodes dumped" },
	{ .name = "DELETED", .setup = setup_emitter_deleted,
	  .desc = "initialized with output, then yaml_emitter_delete" },
	{ .name = "GARBAGE", .setup = setup_emitter_garbage, .misuse = 1,
	  .desc = "random bytes the size of a yaml_emitter_t" },
	{ 0 },
};

const struct tb_datatype tb_type_yaml_emitter = {
	.name = "yaml_emitter",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", NULL },
	.ctype = "yaml_emitter_t *",
	.values = emitter_values,
};

/* ---- yaml_event ---- */

static yaml_event_t *new_event(void)
{
	return block(sizeof(yaml_event_t));
}

static int event(union tb_arg *out, yaml_event_t *ev, int ok, const char *what)
{
	out->ptr = ev;
	return ev && ok ? 0 : tb_setup_fail("%s failed", what);
}

static int setup_event_empty(union tb_arg *out)
{
	return event(out, new_event(), 1, "tb_guarded_block");
}

#define EVENT_SETUP(fn, call) \
	static int fn(union tb_arg *out) \
	{ \
		yaml_event_t *ev = new_event(); \
		return event(out, ev, ev && call, #call); \
	}

EVENT_SETUP(setup_event_stream_start, yaml_stream_start_event_initialize(ev, YAML_UTF8_ENCODING))
EVENT_SETUP(setup_event_stream_end, yaml_stream_end_event_initialize(ev))
EVENT_SETUP(setup_event_document_start, yaml_document_start_event_initialize(ev, NULL, NULL, NULL, 0))
EVENT_SETUP(setup_event_document_end, yaml_document_end_event_initialize(ev, 0))
EVENT_SETUP(setup_event_alias, yaml_alias_event_initialize(ev, (yaml_char_t *)"anchor"))
EVENT_SETUP(setup_event_scalar, yaml_scalar_event_initialize(ev, (yaml_char_t *)"a", (yaml_char_t *)"tag:yaml.org,2002:str",
							 (yaml_char_t *)"value", 5, 0, 0, YAML_DOUBLE_QUOTED_SCALAR_STYLE))
EVENT_SETUP(setup_event_sequence_start, yaml_sequence_start_event_initialize(ev, NULL, NULL, 1, YAML_FLOW_SEQUENCE_STYLE))
EVENT_SETUP(setup_event_mapping_start, yaml_mapping_start_event_initialize(ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE))
EVENT_SETUP(setup_event_mapping_end, yaml_mapping_end_event_initialize(ev))

/* the fourth event of DOC, as yaml_parser_parse gives it: the scalar "key" */
static int setup_event_parsed(union tb_arg *out)
{
	yaml_parser_t *p = parser_on(DOC);
	yaml_event_t *ev = new_event();
	int ok = p && ev;

	for (int i = 0; ok && i < 4; i++) {
		if (i)
			yaml_event_delete(ev);
		ok = yaml_parser_parse(p, ev);
	}
	return event(out, ev, ok && ev->type == YAML_SCALAR_EVENT, "yaml_parser_parse (a scalar)");
}

static int setup_event_deleted(union tb_arg *out)
{
	yaml_event_t *ev = new_event();
	int ok = ev && yaml_scalar_event_initialize(ev, NULL, NULL, (yaml_char_t *)"v", 1, 1, 1,
						     YAML_ANY_SCALAR_STYLE);

	if (ok)
		yaml_event_delete(ev);
	return event(out, ev, ok, "yaml_scalar_event_initialize");
}

static int setup_event_garbage(union tb_arg *out)
{
	return garbage(out, sizeof(yaml_event_t));
}

static const struct tb_value event_values[] = {
	{ .name = "EMPTY", .setup = setup_event_empty,
	  .desc = "a zero-filled yaml_event_t: \"an empty event object\"" },
	{ .name = "STREAM_START", .setup = setup_event_stream_start, .desc = "yaml_stream_start_event_initialize, UTF-8" },
	{ .name = "STREAM_END", .setup = setup_event_stream_end, .desc = "yaml_stream_end_event_initialize" },
	{ .name = "DOCUMENT_START", .setup = setup_event_document_start,
	  .desc = "yaml_document_start_event_initialize, no directives, explicit" },
	{ .name = "DOCUMENT_END", .setup = setup_event_document_end, .desc = "yaml_document_end_event_initialize, explicit" },
	{ .name = "ALIAS", .setup = setup_event_alias, .desc = "yaml_alias_event_initialize, anchor \"anchor\"" },
	{ .name = "SCALAR", .setup = setup_event_scalar,
	  .desc = "yaml_scalar_event_initialize: anchor, str tag, \"value\", double-quoted" },
	{ .name = "SEQUENCE_START", .setup = setup_event_sequence_start,
	  .desc = "yaml_sequence_start_event_initialize, implicit, flow" },
	{ .name = "MAPPING_START", .setup = setup_event_mapping_start,
	  .desc = "yaml_mapping_start_event_initialize, implicit, block" },
	{ .name = "MAPPING_END", .setup = setup_event_mapping_end, .desc = "yaml_mapping_end_event_initialize" },
	{ .name = "PARSED", .setup = setup_event_parsed, .desc = "a scalar event from yaml_parser_parse" },
	{ .name = "DELETED", .setup = setup_event_deleted, .desc = "a scalar event, then yaml_event_delete" },
	{ .name = "GARBAGE", .setup = setup_event_garbage, .misuse = 1,
	  .desc = "random bytes the size of a yaml_event_t" },
	{ 0 },
};

const struct tb_datatype tb_type_yaml_event = {
	.name = "yaml_event",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", NULL },
	.ctype = "yaml_event_t *",
	.values = event_values,
};

/* ---- yaml_token ---- */

static int setup_token_empty(union tb_arg *out)
{
	out->ptr = block(sizeof(yaml_token_t));
	return out->ptr ? 0 : tb_setup_fail("tb_guarded_block failed");
}

static yaml_token_t *scanned(int n)
{
	yaml_parser_t *p = parser_on(DOC);
	yaml_token_t *t = block(sizeof *t);

	for (int i = 0; p && t && i < n; i++) {
		if (i)
			yaml_token_delete(t);
		if (!yaml_parser_scan(p, t))
			return NULL;
	}
	return p ? t : NULL;
}

/* STREAM-START, BLOCK-MAPPING-START, KEY, then the scalar "key" */
static int setup_token_scanned(union tb_arg *out)
{
	yaml_token_t *t = scanned(4);

	out->ptr = t;
	if (!t || t->type != YAML_SCALAR_TOKEN)
		return tb_setup_fail("yaml_parser_scan gave no scalar");
	return 0;
}

static int setup_token_deleted(union tb_arg *out)
{
	yaml_token_t *t = scanned(4);

	if (!t)
		return tb_setup_fail("yaml_parser_scan failed");
	yaml_token_delete(t);
	out->ptr = t;
	return 0;
}

static int setup_token_garbage(union tb_arg *out)
{
	return garbage(out, sizeof(yaml_token_t));
}

static const struct tb_value token_values[] = {
	{ .name = "EMPTY", .setup = setup_token_empty, .desc = "a zero-filled yaml_token_t: \"an empty token object\"" },
	{ .name = "SCANNED", .setup = setup_token_scanned, .desc = "a scalar token from yaml_parser_scan" },
	{ .name = "DELETED", .setup = setup_token_deleted, .desc = "a scanned scalar token, then yaml_token_delete" },
	{ .name = "GARBAGE", .setup = setup_token_garbage, .misuse = 1,
	  .desc = "random bytes the size of a yaml_token_t" },
	{ 0 },
};

const struct tb_datatype tb_type_yaml_token = {
	.name = "yaml_token",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", NULL },
	.ctype = "yaml_token_t *",
	.values = token_values,
};

/* ---- yaml_document ---- */

static yaml_document_t *new_document(void)
{
	yaml_document_t *d = block(sizeof *d);

	if (!d || !yaml_document_initialize(d, NULL, NULL, NULL, 1, 1))
		return NULL;
	return d;
}

static int document(union tb_arg *out, yaml_document_t *d, const char *what)
{
	out->ptr = d;
	return d ? 0 : tb_setup_fail("%s failed", what);
}

static int setup_document_empty(union tb_arg *out)
{
	return document(out, block(sizeof(yaml_document_t)), "tb_guarded_block");
}

static int setup_document_initialized(union tb_arg *out)
{
	return document(out, new_document(), "yaml_document_initialize");
}

/* node 1 a mapping, 2 a scalar key, 3 a sequence, 4 a scalar item:
 * {key: [item]} */
static yaml_document_t *with_nodes(void)
{
	yaml_document_t *d = new_document();
	int map, key, seq, item;

	if (!d)
		return NULL;
	map = yaml_document_add_mapping(d, NULL, YAML_BLOCK_MAPPING_STYLE);
	key = yaml_document_add_scalar(d, NULL, (yaml_char_t *)"key", -1, YAML_PLAIN_SCALAR_STYLE);
	seq = yaml_document_add_sequence(d, NULL, YAML_FLOW_SEQUENCE_STYLE);
	item = yaml_document_add_scalar(d, NULL, (yaml_char_t *)"item", 4, YAML_PLAIN_SCALAR_STYLE);
	if (map != 1 || key != 2 || seq != 3 || item != 4
	    || !yaml_document_append_sequence_item(d, seq, item)
	    || !yaml_document_append_mapping_pair(d, map, key, seq))
		return NULL;
	return d;
}

static int setup_document_with_nodes(union tb_arg *out)
{
	return document(out, with_nodes(), "building {key: [item]}");
}

static yaml_document_t *loaded(int n)
{
	yaml_parser_t *p = parser_on(DOC);
	yaml_document_t *d = block(sizeof *d);

	for (int i = 0; p && d && i < n; i++) {
		if (i)
			yaml_document_delete(d);
		if (!yaml_parser_load(p, d))
			return NULL;
	}
	return p ? d : NULL;
}

static int setup_document_loaded(union tb_arg *out)
{
	yaml_document_t *d = loaded(1);

	if (d && !yaml_document_get_root_node(d))
		return tb_setup_fail("the loaded document has no root");
	return document(out, d, "yaml_parser_load");
}

/* the third load of a two-document stream: no root node, the stream's end */
static int setup_document_stream_end(union tb_arg *out)
{
	yaml_document_t *d = loaded(3);

	if (d && yaml_document_get_root_node(d))
		return tb_setup_fail("the third document has a root");
	return document(out, d, "yaml_parser_load (3 times)");
}

static int setup_document_deleted(union tb_arg *out)
{
	yaml_document_t *d = with_nodes();

	if (d)
		yaml_document_delete(d);
	return document(out, d, "building {key: [item]}");
}

static int setup_document_garbage(union tb_arg *out)
{
	return garbage(out, sizeof(yaml_document_t));
}

static const struct tb_value document_values[] = {
	{ .name = "EMPTY", .setup = setup_document_empty,
	  .desc = "a zero-filled yaml_document_t: \"an empty document object\", not initialized" },
	{ .name = "INITIALIZED", .setup = setup_document_initialized,
	  .desc = "yaml_document_initialize, no directives, no nodes" },
	{ .name = "WITH_NODES", .setup = setup_document_with_nodes,
	  .desc = "initialized, then {key: [item]}: 1 mapping, 2 scalar, 3 sequence, 4 scalar" },
	{ .name = "LOADED", .setup = setup_document_loaded,
	  .desc = "the first document yaml_parser_load gave" },
	{ .name = "STREAM_END", .setup = setup_document_stream_end,
	  .desc = "yaml_parser_load past the last document: no root node" },
	{ .name = "DELETED", .setup = setup_document_deleted,
	  .desc = "with nodes, then yaml_document_delete" },
	{ .name = "GARBAGE", .setup = setup_document_garbage, .misuse = 1,
	  .desc = "random bytes the size of a yaml_document_t" },
	{ 0 },
};

const struct tb_datatype tb_type_yaml_document = {
	.name = "yaml_document",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", NULL },
	.ctype = "yaml_document_t *",
	.values = document_values,
};

/* ---- yaml_input: set_input_string's input and size ---- */

/* text copied to the end of a guarded block, with n as its size */
static int bytes(union tb_arg *out, const char *s, size_t len, unsigned long long n)
{
	char *p = block(len);

	if (!p)
		return tb_setup_fail("tb_guarded_block failed");
	memcpy(p, s, len);
	out[0].ptr = p;
	out[1].u = n;
	return 0;
}

static int text(union tb_arg *out, const char *s, unsigned long long n)
{
	return bytes(out, s, strlen(s), n);
}

#define UTF16LE "\xff\xfek\0e\0y\0:\0 \0v\0\n\0"
#define BAD "key: [1, 2\n  - : :\n"

static int setup_input_document(union tb_arg *out) { return text(out, DOC, strlen(DOC)); }
static int setup_input_empty(union tb_arg *out) { return text(out, "", 0); }
static int setup_input_malformed(union tb_arg *out) { return text(out, BAD, strlen(BAD)); }
static int setup_input_bad_utf8(union tb_arg *out) { return text(out, "k: \xc3\x28\xff\n", 7); }
static int setup_input_utf16(union tb_arg *out) { return bytes(out, UTF16LE, sizeof UTF16LE - 1, sizeof UTF16LE - 1); }
static int setup_input_past_end(union tb_arg *out) { return text(out, DOC, strlen(DOC) + 1); }
static int setup_input_size_max(union tb_arg *out) { return text(out, DOC, SIZE_MAX); }

static int setup_input_null(union tb_arg *out, size_t n)
{
	out[0].ptr = NULL;
	out[1].u = n;
	return 0;
}

static int setup_input_null_zero(union tb_arg *out) { return setup_input_null(out, 0); }
static int setup_input_null_len(union tb_arg *out) { return setup_input_null(out, 16); }

static const struct tb_value input_values[] = {
	{ .name = "DOCUMENT", .setup = setup_input_document, .desc = "two YAML documents, their length" },
	{ .name = "EMPTY", .setup = setup_input_empty, .desc = "0 bytes before a guard page, size 0" },
	{ .name = "MALFORMED", .setup = setup_input_malformed, .desc = "an unclosed flow sequence, its length" },
	{ .name = "BAD_UTF8", .setup = setup_input_bad_utf8, .desc = "invalid UTF-8 bytes, their length" },
	{ .name = "UTF16", .setup = setup_input_utf16, .desc = "a UTF-16LE document with its BOM, its length" },
	{ .name = "PAST_END", .setup = setup_input_past_end,
	  .desc = "a document, its length + 1: one byte into the guard page" },
	{ .name = "SIZE_MAX", .setup = setup_input_size_max, .desc = "a document, size SIZE_MAX" },
	{ .name = "NULL_ZERO", .setup = setup_input_null_zero, .desc = "NULL, size 0" },
	{ .name = "NULL_LEN", .setup = setup_input_null_len, .desc = "NULL, size 16" },
	{ 0 },
};

const struct tb_datatype tb_type_yaml_input = {
	.name = "yaml_input",
	.ctype = "const unsigned char *, size_t",
	.span = 2,
	.values = input_values,
};

/* ---- yaml_scalar: a value and its int length ---- */

static int scalar(union tb_arg *out, const char *s, long long n)
{
	char *p = block(strlen(s));

	if (!p)
		return tb_setup_fail("tb_guarded_block failed");
	memcpy(p, s, strlen(s));
	out[0].ptr = p;
	out[1].i = n;
	return 0;
}

/* NUL-terminated copies, for the length -1 */
static int scalar_nul(union tb_arg *out, const char *s, long long n)
{
	char *p = block(strlen(s) + 1);

	if (!p)
		return tb_setup_fail("tb_guarded_block failed");
	memcpy(p, s, strlen(s) + 1);
	out[0].ptr = p;
	out[1].i = n;
	return 0;
}

static int setup_scalar_text(union tb_arg *out) { return scalar(out, "value", 5); }
static int setup_scalar_empty(union tb_arg *out) { return scalar(out, "", 0); }
static int setup_scalar_multiline(union tb_arg *out) { return scalar(out, "a: b\n- c\n\t'\"#", 13); }
static int setup_scalar_bad_utf8(union tb_arg *out) { return scalar(out, "\xc3\x28\xff", 3); }
static int setup_scalar_strlen(union tb_arg *out) { return scalar_nul(out, "value", -1); }
static int setup_scalar_past_end(union tb_arg *out) { return scalar(out, "value", 6); }
static int setup_scalar_int_max(union tb_arg *out) { return scalar(out, "value", INT_MAX); }
static int setup_scalar_int_min(union tb_arg *out) { return scalar_nul(out, "value", INT_MIN); }

static int setup_scalar_null(union tb_arg *out, int n)
{
	out[0].ptr = NULL;
	out[1].i = n;
	return 0;
}

static int setup_scalar_null_zero(union tb_arg *out) { return setup_scalar_null(out, 0); }
static int setup_scalar_null_len(union tb_arg *out) { return setup_scalar_null(out, 5); }

static const struct tb_value scalar_values[] = {
	{ .name = "TEXT", .setup = setup_scalar_text, .desc = "\"value\", length 5, no NUL, before a guard page" },
	{ .name = "EMPTY", .setup = setup_scalar_empty, .desc = "no bytes, length 0" },
	{ .name = "SPECIAL", .setup = setup_scalar_multiline,
	  .desc = "YAML indicators, a tab and line breaks, their length" },
	{ .name = "BAD_UTF8", .setup = setup_scalar_bad_utf8, .desc = "3 bytes of invalid UTF-8, length 3" },
	{ .name = "STRLEN", .setup = setup_scalar_strlen, .desc = "\"value\" and its NUL, length -1" },
	{ .name = "PAST_END", .setup = setup_scalar_past_end, .desc = "\"value\", length 6: one byte into the guard page" },
	{ .name = "INT_MAX", .setup = setup_scalar_int_max, .desc = "\"value\", length INT_MAX" },
	{ .name = "INT_MIN", .setup = setup_scalar_int_min, .desc = "\"value\" and its NUL, length INT_MIN" },
	{ .name = "NULL_ZERO", .setup = setup_scalar_null_zero, .desc = "NULL, length 0" },
	{ .name = "NULL_LEN", .setup = setup_scalar_null_len, .desc = "NULL, length 5" },
	{ 0 },
};

const struct tb_datatype tb_type_yaml_scalar = {
	.name = "yaml_scalar",
	.ctype = "const yaml_char_t *, int",
	.span = 2,
	.values = scalar_values,
};

/* ---- yaml_directives: version_directive, tag_directives_start, _end ---- */

static yaml_version_directive_t *version(int major, int minor)
{
	yaml_version_directive_t *v = block(sizeof *v);

	if (v) {
		v->major = major;
		v->minor = minor;
	}
	return v;
}

/* n tag directives in a guarded array */
static yaml_tag_directive_t *tags(const char *handle, const char *prefix, int n)
{
	yaml_tag_directive_t *t = block(n * sizeof *t);

	for (int i = 0; t && i < n; i++) {
		t[i].handle = (yaml_char_t *)handle;
		t[i].prefix = (yaml_char_t *)prefix;
	}
	return t;
}

static int directives(union tb_arg *out, yaml_version_directive_t *v, int want_v,
		      yaml_tag_directive_t *start, yaml_tag_directive_t *end)
{
	if (want_v && !v)
		return tb_setup_fail("tb_guarded_block failed");
	out[0].ptr = v;
	out[1].ptr = start;
	out[2].ptr = end;
	return 0;
}

#define PREFIX "tag:example.com,2000:"

static int setup_dir_none(union tb_arg *out) { return directives(out, NULL, 0, NULL, NULL); }
static int setup_dir_version(union tb_arg *out) { return directives(out, version(1, 1), 1, NULL, NULL); }
static int setup_dir_version_2(union tb_arg *out) { return directives(out, version(2, 0), 1, NULL, NULL); }

static int setup_dir_tag(union tb_arg *out)
{
	yaml_tag_directive_t *t = tags("!e!", PREFIX, 1);

	return t ? directives(out, version(1, 1), 1, t, t + 1) : tb_setup_fail("tb_guarded_block failed");
}

static int setup_dir_empty_list(union tb_arg *out)
{
	yaml_tag_directive_t *t = tags("!e!", PREFIX, 1);

	return t ? directives(out, NULL, 0, t, t) : tb_setup_fail("tb_guarded_block failed");
}

static int setup_dir_bad_handle(union tb_arg *out)
{
	yaml_tag_directive_t *t = tags("e", PREFIX, 1);

	return t ? directives(out, NULL, 0, t, t + 1) : tb_setup_fail("tb_guarded_block failed");
}

static int setup_dir_empty_prefix(union tb_arg *out)
{
	yaml_tag_directive_t *t = tags("!e!", "", 1);

	return t ? directives(out, NULL, 0, t, t + 1) : tb_setup_fail("tb_guarded_block failed");
}

static int setup_dir_duplicate(union tb_arg *out)
{
	yaml_tag_directive_t *t = tags("!e!", PREFIX, 2);

	return t ? directives(out, NULL, 0, t, t + 2) : tb_setup_fail("tb_guarded_block failed");
}

static int setup_dir_reversed(union tb_arg *out)
{
	yaml_tag_directive_t *t = tags("!e!", PREFIX, 2);

	return t ? directives(out, NULL, 0, t + 1, t) : tb_setup_fail("tb_guarded_block failed");
}

static int setup_dir_end_null(union tb_arg *out)
{
	yaml_tag_directive_t *t = tags("!e!", PREFIX, 1);

	return t ? directives(out, NULL, 0, t, NULL) : tb_setup_fail("tb_guarded_block failed");
}

static const struct tb_value directive_values[] = {
	{ .name = "NONE", .setup = setup_dir_none, .desc = "no %YAML directive, no %TAG list (NULL, NULL, NULL)" },
	{ .name = "VERSION", .setup = setup_dir_version, .desc = "%YAML 1.1, no %TAG list" },
	{ .name = "VERSION_2", .setup = setup_dir_version_2, .desc = "%YAML 2.0, no %TAG list" },
	{ .name = "TAG", .setup = setup_dir_tag, .desc = "%YAML 1.1 and one %TAG !e! tag:example.com,2000:" },
	{ .name = "EMPTY_LIST", .setup = setup_dir_empty_list, .desc = "a %TAG list whose start is its end" },
	{ .name = "BAD_HANDLE", .setup = setup_dir_bad_handle, .desc = "one %TAG whose handle \"e\" has no '!'" },
	{ .name = "EMPTY_PREFIX", .setup = setup_dir_empty_prefix, .desc = "one %TAG !e! with an empty prefix" },
	{ .name = "DUPLICATE", .setup = setup_dir_duplicate, .desc = "%TAG !e! twice" },
	{ .name = "REVERSED", .setup = setup_dir_reversed, .desc = "a %TAG list whose end is before its start" },
	{ .name = "END_NULL", .setup = setup_dir_end_null, .desc = "a %TAG list start, its end NULL" },
	{ 0 },
};

const struct tb_datatype tb_type_yaml_directives = {
	.name = "yaml_directives",
	.ctype = "yaml_version_directive_t *, yaml_tag_directive_t *, yaml_tag_directive_t *",
	.span = 3,
	.values = directive_values,
};

/* ---- yaml_node_id: int's values, and the ids of the WITH_NODES and
 * LOADED documents' nodes (1 is a mapping in both, 3 a sequence) ---- */

static const struct tb_value node_id_values[] = {
	{ .name = "KEY_ID", .constant.i = 2, .desc = "2: a scalar (\"key\") in WITH_NODES and LOADED" },
	{ .name = "SEQUENCE_ID", .constant.i = 3, .desc = "3: a sequence in WITH_NODES and LOADED" },
	{ .name = "ITEM_ID", .constant.i = 4, .desc = "4: a scalar in WITH_NODES and LOADED" },
	{ 0 },
};

const struct tb_datatype tb_type_yaml_node_id = {
	.name = "yaml_node_id",
	.parent = &tb_type_int,
	.ctype = "int",
	.values = node_id_values,
};
