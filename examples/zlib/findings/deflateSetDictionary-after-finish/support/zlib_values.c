/*
 * Datatypes of the zlib survey target (zlib.yaml), from zlib.h (Debian's
 * 1.2.13) and docs/datatypes.md:
 *
 *   deflate_stream  pointer's values, then z_streams in each state zlib.h
 *                   describes for compression: initialised, mid-stream,
 *                   finished, ended, without output room, never initialised
 *   inflate_stream  the same for decompression, plus in error and waiting
 *                   for a dictionary
 *   flush           int's values, then the flush values zlib.h names
 *   level, strategy int's values, then the levels and strategies zlib.h names
 *   zsource         a source buffer and its length (`const Bytef *, uLong`)
 *   zdest           a destination and its length (`Bytef *, uLongf *`)
 *   gzFile          pointer's values, then gzip files read, written, at end
 *                   of file, in error, closed
 *
 * Every stream and its buffers end at a guard page, so an overrun faults.
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <zlib.h>

#include "datatype.h"

#define TEXT_LEN 4000        /* bytes of tb_scratch_text fed to a stream */
#define OUT_LEN 65536        /* room for any of it, compressed or not */

/* a z_stream at the end of a guarded block: zalloc, zfree, opaque Z_NULL */
static z_stream *new_stream(void)
{
	return tb_guarded_block(sizeof(z_stream));
}

static unsigned char *copy_of(const void *src, size_t n)
{
	unsigned char *p = tb_guarded_block(n);

	if (p)
		memcpy(p, src, n);
	return p;
}

/* what the application supplies before a call: input, and room for output */
static int feed(z_stream *s, const void *in, size_t in_len, size_t out_len)
{
	s->next_in = copy_of(in, in_len);
	s->avail_in = (uInt)in_len;
	s->next_out = tb_guarded_block(out_len);
	s->avail_out = (uInt)out_len;
	return s->next_in && s->next_out ? 0 : -1;
}

static int stream(union tb_arg *out, z_stream *s)
{
	out->ptr = s;
	return 0;
}

/* ---- deflate_stream ---- */

/* a stream as an application may leave its output fields: no room
 * (zlib.h:356-357 "no progress is possible"), next_out Z_NULL (zlib.h:354-355
 * "inconsistent"), or avail_out twice the room next_out has */
enum output { NO_ROOM, NULL_OUT, OUT_PAST_END };

static int with_output(union tb_arg *out, z_stream *s, enum output how)
{
	if (!s)
		return -1;
	if (how == NO_ROOM)
		s->avail_out = 0;
	else if (how == NULL_OUT)
		s->next_out = Z_NULL;
	else if (!(s->next_out = tb_guarded_block(64)))
		return -1;
	else
		s->avail_out = 128;
	return stream(out, s);
}


static z_stream *deflating(void)
{
	z_stream *s = new_stream();

	if (!s || deflateInit(s, Z_DEFAULT_COMPRESSION) != Z_OK)
		return NULL;
	if (feed(s, tb_scratch_text, TEXT_LEN, OUT_LEN))
		return NULL;
	return s;
}

static int setup_d_new(union tb_arg *out)
{
	z_stream *s = deflating();

	return s ? stream(out, s) : tb_setup_fail("deflateInit failed");
}

/* part of the input compressed, with more given: a deflate() call made */
static int setup_d_mid(union tb_arg *out)
{
	z_stream *s = deflating();

	if (!s || deflate(s, Z_NO_FLUSH) != Z_OK || s->total_in == 0)
		return tb_setup_fail("deflate(Z_NO_FLUSH) did not progress");
	if (feed(s, tb_scratch_text + TEXT_LEN, 1000, OUT_LEN))
		return -1;
	return stream(out, s);
}

static int setup_d_finished(union tb_arg *out)
{
	z_stream *s = deflating();

	if (!s || deflate(s, Z_FINISH) != Z_STREAM_END)
		return tb_setup_fail("deflate(Z_FINISH) did not end the stream");
	if (feed(s, tb_scratch_text, 100, OUT_LEN))
		return -1;
	return stream(out, s);
}

static int setup_d_ended(union tb_arg *out)
{
	z_stream *s = deflating();

	if (!s || deflateEnd(s) != Z_OK)
		return tb_setup_fail("deflateEnd failed");
	return stream(out, s);
}

static int setup_d_no_room(union tb_arg *out) { return with_output(out, deflating(), NO_ROOM); }
static int setup_d_null_out(union tb_arg *out) { return with_output(out, deflating(), NULL_OUT); }
static int setup_d_out_past_end(union tb_arg *out) { return with_output(out, deflating(), OUT_PAST_END); }

static int setup_garbage(union tb_arg *out)
{
	return (out->ptr = tb_garbage_block(sizeof(z_stream))) ? 0 : -1;
}

static const struct tb_value deflate_values[] = {
	{ .name = "NEW", .setup = setup_d_new,
	  .desc = "deflateInit(level -1), 4000 bytes of text in, 64 KiB out" },
	{ .name = "MID_STREAM", .setup = setup_d_mid,
	  .desc = "NEW after deflate(Z_NO_FLUSH), 1000 bytes more in" },
	{ .name = "FINISHED", .setup = setup_d_finished,
	  .desc = "deflate(Z_FINISH) returned Z_STREAM_END; 100 bytes more in" },
	{ .name = "ENDED", .setup = setup_d_ended, .desc = "NEW, then deflateEnd: state Z_NULL" },
	{ .name = "NO_ROOM", .setup = setup_d_no_room, .desc = "NEW with avail_out 0" },
	{ .name = "NULL_OUT", .setup = setup_d_null_out, .desc = "NEW with next_out Z_NULL" },
	{ .name = "OUT_PAST_END", .setup = setup_d_out_past_end,
	  .desc = "NEW with 64 bytes of output room, avail_out 128" },
	{ .name = "GARBAGE", .setup = setup_garbage, .misuse = 1,
	  .desc = "a z_stream's size of random bytes before a guard page" },
	{ 0 },
};

/* VALID stays: 4,096 zero bytes are a z_stream whose zalloc, zfree and
 * opaque are Z_NULL, what deflateInit and inflateInit take (zlib.h:148) */
const struct tb_datatype tb_type_deflate_stream = {
	.name = "deflate_stream",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", NULL },  /* random bytes */
	.ctype = "z_streamp",
	.values = deflate_values,
};

/* ---- inflate_stream ---- */

/* TEXT_LEN bytes of text, compressed in the zlib format */
static unsigned char packed[8192];
static uLong packed_len;

static int pack(void)
{
	packed_len = sizeof(packed);
	if (compress((Bytef *)packed, &packed_len, (const Bytef *)tb_scratch_text, TEXT_LEN) != Z_OK)
		return tb_setup_fail("compress failed");
	return 0;
}

static z_stream *inflating(void)
{
	z_stream *s = new_stream();

	if (!s || pack() || inflateInit(s) != Z_OK)
		return NULL;
	if (feed(s, packed, packed_len, OUT_LEN))
		return NULL;
	return s;
}

static int setup_i_new(union tb_arg *out)
{
	z_stream *s = inflating();

	return s ? stream(out, s) : tb_setup_fail("inflateInit failed");
}

/* 100 bytes of output made, room for 100 more */
static int setup_i_mid(union tb_arg *out)
{
	z_stream *s = inflating();

	if (!s)
		return -1;
	s->avail_out = 100;
	if (inflate(s, Z_NO_FLUSH) != Z_OK || s->avail_out != 0)
		return tb_setup_fail("inflate did not stop mid-stream");
	s->next_out = tb_guarded_block(100);
	s->avail_out = 100;
	return s->next_out ? stream(out, s) : -1;
}

static int setup_i_finished(union tb_arg *out)
{
	z_stream *s = inflating();

	if (!s || inflate(s, Z_FINISH) != Z_STREAM_END)
		return tb_setup_fail("inflate did not end the stream");
	if (feed(s, packed, packed_len, OUT_LEN))
		return -1;
	return stream(out, s);
}

/* the compressed bytes with their header's check bits broken */
static int setup_i_in_error(union tb_arg *out)
{
	z_stream *s = inflating();

	if (!s)
		return -1;
	s->next_in[1] ^= 0x01;
	if (inflate(s, Z_NO_FLUSH) != Z_DATA_ERROR)
		return tb_setup_fail("inflate did not report Z_DATA_ERROR");
	return stream(out, s);
}

/* compressed with a preset dictionary: inflate asked for it */
static int setup_i_need_dict(union tb_arg *out)
{
	static const char dict[] = "0123456789abcdefghijklmnopqrstuvwxyz";
	unsigned char buf[8192];
	z_stream d = { 0 };
	z_stream *s = new_stream();
	size_t n;

	if (!s || deflateInit(&d, 6) != Z_OK
	    || deflateSetDictionary(&d, (const Bytef *)dict, sizeof(dict) - 1) != Z_OK)
		return tb_setup_fail("deflate with a dictionary failed");
	d.next_in = (Bytef *)tb_scratch_text;
	d.avail_in = TEXT_LEN;
	d.next_out = buf;
	d.avail_out = sizeof(buf);
	if (deflate(&d, Z_FINISH) != Z_STREAM_END)
		return tb_setup_fail("deflate with a dictionary did not end");
	n = sizeof(buf) - d.avail_out;
	if (inflateInit(s) != Z_OK || feed(s, buf, n, OUT_LEN))
		return -1;
	if (inflate(s, Z_NO_FLUSH) != Z_NEED_DICT)
		return tb_setup_fail("inflate did not return Z_NEED_DICT");
	return stream(out, s);
}

static int setup_i_ended(union tb_arg *out)
{
	z_stream *s = inflating();

	if (!s || inflateEnd(s) != Z_OK)
		return tb_setup_fail("inflateEnd failed");
	return stream(out, s);
}

static int setup_i_no_room(union tb_arg *out) { return with_output(out, inflating(), NO_ROOM); }
static int setup_i_null_out(union tb_arg *out) { return with_output(out, inflating(), NULL_OUT); }
static int setup_i_out_past_end(union tb_arg *out) { return with_output(out, inflating(), OUT_PAST_END); }

static const struct tb_value inflate_values[] = {
	{ .name = "NEW", .setup = setup_i_new,
	  .desc = "inflateInit, 4000 bytes of text compressed in, 64 KiB out" },
	{ .name = "MID_STREAM", .setup = setup_i_mid,
	  .desc = "NEW after inflate gave 100 bytes; 100 bytes more room" },
	{ .name = "FINISHED", .setup = setup_i_finished,
	  .desc = "inflate(Z_FINISH) returned Z_STREAM_END; the same input again" },
	{ .name = "IN_ERROR", .setup = setup_i_in_error,
	  .desc = "inflate returned Z_DATA_ERROR (a broken header check)" },
	{ .name = "NEED_DICT", .setup = setup_i_need_dict,
	  .desc = "inflate returned Z_NEED_DICT (compressed with a dictionary)" },
	{ .name = "ENDED", .setup = setup_i_ended, .desc = "NEW, then inflateEnd: state Z_NULL" },
	{ .name = "NO_ROOM", .setup = setup_i_no_room, .desc = "NEW with avail_out 0" },
	{ .name = "NULL_OUT", .setup = setup_i_null_out, .desc = "NEW with next_out Z_NULL" },
	{ .name = "OUT_PAST_END", .setup = setup_i_out_past_end,
	  .desc = "NEW with 64 bytes of output room, avail_out 128" },
	{ .name = "GARBAGE", .setup = setup_garbage, .misuse = 1,
	  .desc = "a z_stream's size of random bytes before a guard page" },
	{ 0 },
};

const struct tb_datatype tb_type_inflate_stream = {
	.name = "inflate_stream",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", NULL },
	.ctype = "z_streamp",
	.values = inflate_values,
};

/* ---- flush, level, strategy: the numbers zlib.h names ---- */

static const struct tb_value flush_values[] = {
	{ .name = "SYNC_FLUSH", .constant.i = Z_SYNC_FLUSH, .desc = "Z_SYNC_FLUSH (2)" },
	{ .name = "FULL_FLUSH", .constant.i = Z_FULL_FLUSH, .desc = "Z_FULL_FLUSH (3)" },
	{ .name = "FINISH", .constant.i = Z_FINISH, .desc = "Z_FINISH (4)" },
	{ .name = "BLOCK", .constant.i = Z_BLOCK, .desc = "Z_BLOCK (5)" },
	{ .name = "TREES", .constant.i = Z_TREES, .desc = "Z_TREES (6)" },
	{ 0 },
};

const struct tb_datatype tb_type_flush = {
	.name = "flush", .parent = &tb_type_int, .ctype = "int", .values = flush_values,
};

static const struct tb_value level_values[] = {
	{ .name = "BEST", .constant.i = Z_BEST_COMPRESSION, .desc = "Z_BEST_COMPRESSION (9)" },
	{ .name = "TEN", .constant.i = 10, .desc = "10, one past the levels" },
	{ 0 },
};

const struct tb_datatype tb_type_level = {
	.name = "level", .parent = &tb_type_int, .ctype = "int", .values = level_values,
};

static const struct tb_value strategy_values[] = {
	{ .name = "HUFFMAN_ONLY", .constant.i = Z_HUFFMAN_ONLY, .desc = "Z_HUFFMAN_ONLY (2)" },
	{ .name = "RLE", .constant.i = Z_RLE, .desc = "Z_RLE (3)" },
	{ .name = "FIXED", .constant.i = Z_FIXED, .desc = "Z_FIXED (4)" },
	{ .name = "FIVE", .constant.i = 5, .desc = "5, one past the strategies" },
	{ 0 },
};

const struct tb_datatype tb_type_strategy = {
	.name = "strategy", .parent = &tb_type_int, .ctype = "int", .values = strategy_values,
};

/* ---- zsource: const Bytef *source, uLong sourceLen ---- */

static int source(union tb_arg *out, const void *bytes, size_t n, unsigned long len)
{
	out[0].ptr = copy_of(bytes, n);
	out[1].u = len;
	return out[0].ptr ? 0 : -1;
}

static int setup_s_text(union tb_arg *out) { return source(out, tb_scratch_text, TEXT_LEN, TEXT_LEN); }
static int setup_s_empty(union tb_arg *out) { return source(out, "", 0, 0); }
static int setup_s_past_end(union tb_arg *out) { return source(out, tb_scratch_text, 64, 65); }
static int setup_s_huge(union tb_arg *out) { return source(out, tb_scratch_text, 64, ULONG_MAX); }

static int setup_s_compressed(union tb_arg *out)
{
	return pack() ? -1 : source(out, packed, packed_len, packed_len);
}

static int setup_s_truncated(union tb_arg *out)
{
	return pack() ? -1 : source(out, packed, packed_len / 2, packed_len / 2);
}

static int setup_s_corrupt(union tb_arg *out)
{
	if (pack() || source(out, packed, packed_len, packed_len))
		return -1;
	((unsigned char *)out[0].ptr)[packed_len / 2] ^= 0xff;
	return 0;
}

static int setup_s_null(union tb_arg *out, unsigned long len)
{
	out[0].ptr = NULL;
	out[1].u = len;
	return 0;
}

static int setup_s_null_zero(union tb_arg *out) { return setup_s_null(out, 0); }
static int setup_s_null_len(union tb_arg *out) { return setup_s_null(out, 64); }

static const struct tb_value source_values[] = {
	{ .name = "TEXT", .setup = setup_s_text, .desc = "4000 bytes of text, length 4000" },
	{ .name = "EMPTY", .setup = setup_s_empty, .desc = "0 bytes before a guard page, length 0" },
	{ .name = "COMPRESSED", .setup = setup_s_compressed,
	  .desc = "TEXT compressed by compress(), its length" },
	{ .name = "TRUNCATED", .setup = setup_s_truncated,
	  .desc = "the first half of COMPRESSED, its length" },
	{ .name = "CORRUPT", .setup = setup_s_corrupt,
	  .desc = "COMPRESSED with its middle byte inverted" },
	{ .name = "PAST_END", .setup = setup_s_past_end,
	  .desc = "64 bytes, length 65: one byte into the guard page" },
	{ .name = "HUGE_LEN", .setup = setup_s_huge, .desc = "64 bytes, length ULONG_MAX" },
	{ .name = "NULL_ZERO", .setup = setup_s_null_zero, .desc = "NULL, length 0" },
	{ .name = "NULL_LEN", .setup = setup_s_null_len, .desc = "NULL, length 64" },
	{ 0 },
};

const struct tb_datatype tb_type_zsource = {
	.name = "zsource",
	.ctype = "const Bytef *, uLong",
	.span = 2,
	.values = source_values,
};

/* ---- zdest: Bytef *dest, uLongf *destLen ---- */

static int dest(union tb_arg *out, size_t room, unsigned long len)
{
	uLongf *lenp = tb_guarded_block(sizeof(uLongf));

	out[0].ptr = room == (size_t)-1 ? NULL : tb_guarded_block(room);
	out[1].ptr = lenp;
	if (!lenp || (room != (size_t)-1 && !out[0].ptr))
		return -1;
	*lenp = len;
	return 0;
}

static int setup_d_roomy(union tb_arg *out) { return dest(out, OUT_LEN, OUT_LEN); }
static int setup_d_small(union tb_arg *out) { return dest(out, 16, 16); }
static int setup_d_zero(union tb_arg *out) { return dest(out, 0, 0); }
static int setup_d_past_end(union tb_arg *out) { return dest(out, 16, OUT_LEN); }
static int setup_d_null(union tb_arg *out) { return dest(out, (size_t)-1, OUT_LEN); }

static int setup_d_null_len(union tb_arg *out)
{
	out[0].ptr = tb_guarded_block(OUT_LEN);
	out[1].ptr = NULL;
	return out[0].ptr ? 0 : -1;
}

static const struct tb_value dest_values[] = {
	{ .name = "ROOMY", .setup = setup_d_roomy, .desc = "64 KiB, *destLen 65536" },
	{ .name = "SMALL", .setup = setup_d_small, .desc = "16 bytes, *destLen 16" },
	{ .name = "ZERO", .setup = setup_d_zero, .desc = "0 bytes before a guard page, *destLen 0" },
	{ .name = "PAST_END", .setup = setup_d_past_end, .desc = "16 bytes, *destLen 65536" },
	{ .name = "NULL_DEST", .setup = setup_d_null, .desc = "dest NULL, *destLen 65536" },
	{ .name = "NULL_LEN", .setup = setup_d_null_len, .desc = "64 KiB, destLen NULL" },
	{ 0 },
};

const struct tb_datatype tb_type_zdest = {
	.name = "zdest",
	.ctype = "Bytef *, uLongf *",
	.span = 2,
	.values = dest_values,
};

/* ---- gzFile ---- */

static int gz(union tb_arg *out, gzFile f, const char *what)
{
	out->ptr = f;
	return f ? 0 : tb_setup_fail("%s returned NULL", what);
}

/* a gzip file holding TEXT_LEN bytes of text */
static int write_gz(const char *name)
{
	gzFile f = gzopen(name, "wb");

	if (!f || gzwrite(f, tb_scratch_text, TEXT_LEN) != TEXT_LEN || gzclose(f) != Z_OK)
		return tb_setup_fail("writing %s failed", name);
	return 0;
}

static int setup_g_read(union tb_arg *out)
{
	return write_gz("gz-read.gz") ? -1 : gz(out, gzopen("gz-read.gz", "rb"), "gzopen rb");
}

/* not gzip: gzread copies it (zlib.h:1329) */
static int setup_g_read_plain(union tb_arg *out)
{
	if (tb_scratch_file("gz-plain.txt", 0644))
		return -1;
	return gz(out, gzopen("gz-plain.txt", "rb"), "gzopen rb");
}

static int setup_g_write(union tb_arg *out)
{
	return gz(out, gzopen("gz-write.gz", "wb"), "gzopen wb");
}

static int setup_g_append(union tb_arg *out)
{
	return write_gz("gz-append.gz") ? -1 : gz(out, gzopen("gz-append.gz", "ab"), "gzopen ab");
}

static int setup_g_at_eof(union tb_arg *out)
{
	char buf[TEXT_LEN + 16];
	gzFile f;

	if (write_gz("gz-eof.gz") || !(f = gzopen("gz-eof.gz", "rb")))
		return -1;
	if (gzread(f, buf, sizeof(buf)) != TEXT_LEN || !gzeof(f))
		return tb_setup_fail("gzread did not reach end of file");
	return gz(out, f, "gzopen rb");
}

/* a gzip header, then bytes that are no deflate data: gzread fails */
static int setup_g_in_error(union tb_arg *out)
{
	static const unsigned char bad[] = {
		0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	};
	char buf[64];
	int err;
	gzFile f = gzopen("gz-bad.gz", "wbT");   /* transparent: the bytes as they are */

	if (!f || gzwrite(f, bad, sizeof(bad)) != sizeof(bad) || gzclose(f) != Z_OK)
		return tb_setup_fail("writing gz-bad.gz failed");
	if (!(f = gzopen("gz-bad.gz", "rb")))
		return -1;
	if (gzread(f, buf, sizeof(buf)) != -1 || (gzerror(f, &err), err != Z_DATA_ERROR))
		return tb_setup_fail("gzread did not report Z_DATA_ERROR");
	return gz(out, f, "gzopen rb");
}

static int setup_g_closed(union tb_arg *out)
{
	gzFile f;

	if (write_gz("gz-closed.gz") || !(f = gzopen("gz-closed.gz", "rb")))
		return -1;
	out->u = (uintptr_t)f;
	gzclose(f);
	return 0;
}

static int setup_g_garbage(union tb_arg *out)
{
	return (out->ptr = tb_garbage_block(1024)) ? 0 : -1;
}

/* No cleanups: the process ends after the call, and gzclose may be it. */
static const struct tb_value gz_values[] = {
	{ .name = "READ", .setup = setup_g_read, .desc = "gzopen(\"rb\") of a gzip file of 4000 bytes of text" },
	{ .name = "READ_PLAIN", .setup = setup_g_read_plain,
	  .desc = "gzopen(\"rb\") of a plain text file: read as it is" },
	{ .name = "WRITE", .setup = setup_g_write, .desc = "gzopen(\"wb\") of a new file" },
	{ .name = "APPEND", .setup = setup_g_append, .desc = "gzopen(\"ab\") of a gzip file" },
	{ .name = "AT_EOF", .setup = setup_g_at_eof, .desc = "READ after gzread to end of file" },
	{ .name = "IN_ERROR", .setup = setup_g_in_error,
	  .desc = "READ of broken deflate data after gzread returned -1 (Z_DATA_ERROR)" },
	{ .name = "CLOSED", .setup = setup_g_closed, .misuse = 1, .desc = "READ, then gzclose" },
	{ .name = "GARBAGE", .setup = setup_g_garbage, .misuse = 1,
	  .desc = "1 KiB of random bytes before a guard page" },
	{ 0 },
};

const struct tb_datatype tb_type_gzfile = {
	.name = "gzFile",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", NULL },  /* no gzFile */
	.ctype = "gzFile",
	.values = gz_values,
};
