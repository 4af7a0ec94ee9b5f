/*
 * Datatypes of the libarchive survey target (libarchive.yaml), from
 * archive.h, archive_entry.h and the manual pages archive_read(3),
 * archive_write(3), archive_entry(3):
 *
 *   archive_read   pointer's values, then read handles new, with formats and
 *                  filters enabled, open on a tar in memory, at an entry, at
 *                  the end of the archive, failed to open, closed, freed
 *   archive_write  pointer's values, then write handles new, with a format,
 *                  open on memory, after a header, failed, closed, freed
 *   archive_entry  pointer's values, then entries blank, filled, cleared, freed
 *   archive_bytes  an archive in memory and its size (archive_read_open_memory)
 *   data_buffer    a block and its size (archive_read_data, archive_write_data,
 *                  archive_write_open_memory)
 */
#include <archive.h>
#include <archive_entry.h>
#include <stdint.h>
#include <string.h>

#include "datatype.h"

#define CONTENT "hello world\n"

/* ---- a small tar, made with libarchive itself ---- */

static struct archive_entry *filled_entry(const char *path, mode_t type, la_int64_t size)
{
	struct archive_entry *e = archive_entry_new();

	if (!e)
		return NULL;
	archive_entry_set_pathname(e, path);
	archive_entry_set_filetype(e, type);
	archive_entry_set_perm(e, 0644);
	archive_entry_set_size(e, size);
	archive_entry_set_mtime(e, 1000000000, 0);
	return e;
}

/* a ustar archive of a file "hello.txt" (12 bytes) and a directory "dir/";
 * 0 and its size in *len, or -1 */
static int make_tar(char *buf, size_t cap, size_t *len)
{
	struct archive *w = archive_write_new();
	struct archive_entry *file = filled_entry("hello.txt", AE_IFREG, strlen(CONTENT));
	struct archive_entry *dir = filled_entry("dir/", AE_IFDIR, 0);

	if (!w || !file || !dir
	    || archive_write_set_format_ustar(w) != ARCHIVE_OK
	    || archive_write_add_filter_none(w) != ARCHIVE_OK
	    || archive_write_set_bytes_in_last_block(w, 1) != ARCHIVE_OK
	    || archive_write_open_memory(w, buf, cap, len) != ARCHIVE_OK
	    || archive_write_header(w, file) != ARCHIVE_OK
	    || archive_write_data(w, CONTENT, strlen(CONTENT)) != (la_ssize_t)strlen(CONTENT)
	    || archive_write_header(w, dir) != ARCHIVE_OK
	    || archive_write_close(w) != ARCHIVE_OK)
		return -1;
	archive_write_free(w);
	return 0;
}

static char tar_image[16384];
static size_t tar_len;

static int the_tar(void)
{
	if (!tar_len && make_tar(tar_image, sizeof tar_image, &tar_len))
		return tb_setup_fail("libarchive could not write the test tar");
	return 0;
}

/* ---- archive_read ---- */

static int read_value(union tb_arg *out, struct archive *a, const char *why)
{
	out->ptr = a;
	return a ? 0 : tb_setup_fail("%s", why);
}

static struct archive *supported(void)
{
	struct archive *a = archive_read_new();

	if (!a || archive_read_support_filter_all(a) != ARCHIVE_OK
	    || archive_read_support_format_all(a) != ARCHIVE_OK)
		return NULL;
	return a;
}

static struct archive *opened(void)
{
	struct archive *a = supported();

	if (!a || the_tar() || archive_read_open_memory(a, tar_image, tar_len) != ARCHIVE_OK)
		return NULL;
	return a;
}

static struct archive *at_entry(void)
{
	struct archive *a = opened();
	struct archive_entry *e;

	if (!a || archive_read_next_header(a, &e) != ARCHIVE_OK)
		return NULL;
	return a;
}

static int setup_read_new(union tb_arg *out)
{
	return read_value(out, archive_read_new(), "archive_read_new() returned NULL");
}

static int setup_read_supported(union tb_arg *out)
{
	return read_value(out, supported(), "archive_read_support_*_all failed");
}

static int setup_read_opened(union tb_arg *out)
{
	return read_value(out, opened(), "archive_read_open_memory failed on the test tar");
}

static int setup_read_at_entry(union tb_arg *out)
{
	return read_value(out, at_entry(), "no first entry in the test tar");
}

static int setup_read_at_eof(union tb_arg *out)
{
	struct archive *a = opened();
	struct archive_entry *e;
	int rc = ARCHIVE_OK;

	for (int i = 0; a && rc == ARCHIVE_OK && i < 4; i++)
		rc = archive_read_next_header(a, &e);
	return read_value(out, rc == ARCHIVE_EOF ? a : NULL, "the test tar did not end after two entries");
}

/* open on bytes no format reads: ARCHIVE_FATAL, the handle is in its fatal state */
static int setup_read_failed(union tb_arg *out)
{
	static char noise[2048];
	struct archive *a = supported();

	tb_garbage_fill(noise, sizeof noise);
	if (a && archive_read_open_memory(a, noise, sizeof noise) != ARCHIVE_FATAL)
		a = NULL;
	return read_value(out, a, "opening random bytes did not fail");
}

static int setup_read_closed(union tb_arg *out)
{
	struct archive *a = at_entry();

	if (a && archive_read_close(a) != ARCHIVE_OK)
		a = NULL;
	return read_value(out, a, "archive_read_close failed");
}

static int setup_read_freed(union tb_arg *out)
{
	struct archive *a = at_entry();

	if (!a || archive_read_free(a) != ARCHIVE_OK)
		return tb_setup_fail("archive_read_free failed");
	out->u = (uintptr_t)a;
	return 0;
}

static int setup_garbage(union tb_arg *out)
{
	return (out->ptr = tb_garbage_block(4096)) ? 0 : tb_setup_fail("no memory");
}

static const struct tb_value read_values[] = {
	{ .name = "NEW", .setup = setup_read_new, .desc = "archive_read_new()" },
	{ .name = "SUPPORTED", .setup = setup_read_supported,
	  .desc = "NEW, then archive_read_support_filter_all and _format_all" },
	{ .name = "OPENED", .setup = setup_read_opened, .desc = "SUPPORTED, open on a tar in memory" },
	{ .name = "AT_ENTRY", .setup = setup_read_at_entry,
	  .desc = "OPENED, at its first entry (hello.txt, 12 bytes, unread)" },
	{ .name = "AT_EOF", .setup = setup_read_at_eof, .desc = "OPENED, next_header returned ARCHIVE_EOF" },
	{ .name = "FAILED", .setup = setup_read_failed,
	  .desc = "SUPPORTED, open on 2 KiB of random bytes: ARCHIVE_FATAL" },
	{ .name = "CLOSED", .setup = setup_read_closed, .desc = "AT_ENTRY, then archive_read_close" },
	{ .name = "RELEASED", .setup = setup_read_freed, .desc = "AT_ENTRY, then archive_read_free", .misuse = 1 },
	{ .name = "GARBAGE", .setup = setup_garbage, .desc = "4 KiB of random bytes before a guard page", .misuse = 1 },
	{ 0 },
};

const struct tb_datatype tb_type_archive_read = {
	.name = "archive_read",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", NULL },  /* no archive */
	.ctype = "struct archive *",
	.values = read_values,
};

/* ---- archive_write ---- */

static char write_space[65536];
static size_t write_used;

static struct archive *write_with_format(void)
{
	struct archive *w = archive_write_new();

	if (!w || archive_write_set_format_pax_restricted(w) != ARCHIVE_OK
	    || archive_write_add_filter_none(w) != ARCHIVE_OK)
		return NULL;
	return w;
}

static struct archive *write_opened(void)
{
	struct archive *w = write_with_format();

	if (!w || archive_write_open_memory(w, write_space, sizeof write_space, &write_used) != ARCHIVE_OK)
		return NULL;
	return w;
}

static struct archive *write_at_entry(void)
{
	struct archive *w = write_opened();
	struct archive_entry *e = filled_entry("hello.txt", AE_IFREG, strlen(CONTENT));

	if (!w || !e || archive_write_header(w, e) != ARCHIVE_OK)
		return NULL;
	return w;
}

static int setup_write_new(union tb_arg *out)
{
	return read_value(out, archive_write_new(), "archive_write_new() returned NULL");
}

static int setup_write_format(union tb_arg *out)
{
	return read_value(out, write_with_format(), "archive_write_set_format_pax_restricted failed");
}

static int setup_write_opened(union tb_arg *out)
{
	return read_value(out, write_opened(), "archive_write_open_memory failed");
}

static int setup_write_at_entry(union tb_arg *out)
{
	return read_value(out, write_at_entry(), "archive_write_header failed");
}

/* archive_write_free(3): archive_write_fail marks the handle unusable.  The
 * page says it always returns ARCHIVE_FATAL; 3.6.2 returns its state's
 * number, ARCHIVE_STATE_FATAL (0x8000), so only success is refused here:
 * the spec's archive_write_fail tests the promise. */
static int setup_write_failed(union tb_arg *out)
{
	struct archive *w = write_at_entry();

	if (w && archive_write_fail(w) == ARCHIVE_OK)
		w = NULL;
	return read_value(out, w, "archive_write_fail answered ARCHIVE_OK");
}

static int setup_write_closed(union tb_arg *out)
{
	struct archive *w = write_at_entry();

	if (w && (archive_write_data(w, CONTENT, strlen(CONTENT)) < 0 || archive_write_close(w) != ARCHIVE_OK))
		w = NULL;
	return read_value(out, w, "archive_write_close failed");
}

static int setup_write_freed(union tb_arg *out)
{
	struct archive *w = write_opened();

	if (!w || archive_write_free(w) != ARCHIVE_OK)
		return tb_setup_fail("archive_write_free failed");
	out->u = (uintptr_t)w;
	return 0;
}

static const struct tb_value write_values[] = {
	{ .name = "NEW", .setup = setup_write_new, .desc = "archive_write_new()" },
	{ .name = "FORMAT_SET", .setup = setup_write_format,
	  .desc = "NEW, then set_format_pax_restricted and add_filter_none" },
	{ .name = "OPENED", .setup = setup_write_opened, .desc = "FORMAT_SET, open on 64 KiB of memory" },
	{ .name = "AT_ENTRY", .setup = setup_write_at_entry,
	  .desc = "OPENED, after the header of hello.txt (12 bytes due)" },
	{ .name = "FAILED", .setup = setup_write_failed, .desc = "AT_ENTRY, then archive_write_fail" },
	{ .name = "CLOSED", .setup = setup_write_closed, .desc = "AT_ENTRY, its data written, archive_write_close" },
	{ .name = "RELEASED", .setup = setup_write_freed, .desc = "OPENED, then archive_write_free", .misuse = 1 },
	{ .name = "GARBAGE", .setup = setup_garbage, .desc = "4 KiB of random bytes before a guard page", .misuse = 1 },
	{ 0 },
};

const struct tb_datatype tb_type_archive_write = {
	.name = "archive_write",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", NULL },  /* no archive */
	.ctype = "struct archive *",
	.values = write_values,
};

/* ---- archive_entry ---- */

static int entry_value(union tb_arg *out, struct archive_entry *e)
{
	out->ptr = e;
	return e ? 0 : tb_setup_fail("archive_entry_new() returned NULL");
}

static int setup_entry_new(union tb_arg *out) { return entry_value(out, archive_entry_new()); }

static int setup_entry_filled(union tb_arg *out)
{
	return entry_value(out, filled_entry("hello.txt", AE_IFREG, strlen(CONTENT)));
}

static int setup_entry_cleared(union tb_arg *out)
{
	struct archive_entry *e = filled_entry("hello.txt", AE_IFREG, strlen(CONTENT));

	return entry_value(out, e ? archive_entry_clear(e) : NULL);
}

/* the entry archive_read_next_header returns, owned by the read handle */
static int setup_entry_read(union tb_arg *out)
{
	struct archive *a = opened();
	struct archive_entry *e = NULL;

	if (!a || archive_read_next_header(a, &e) != ARCHIVE_OK)
		return tb_setup_fail("no first entry in the test tar");
	return entry_value(out, e);
}

static int setup_entry_freed(union tb_arg *out)
{
	struct archive_entry *e = filled_entry("hello.txt", AE_IFREG, strlen(CONTENT));

	if (!e)
		return tb_setup_fail("archive_entry_new() returned NULL");
	archive_entry_free(e);
	out->u = (uintptr_t)e;
	return 0;
}

static const struct tb_value entry_values[] = {
	{ .name = "BLANK", .setup = setup_entry_new, .desc = "archive_entry_new()" },
	{ .name = "FILLED", .setup = setup_entry_filled,
	  .desc = "BLANK, set: pathname hello.txt, regular file, 0644, size 12, mtime" },
	{ .name = "CLEARED", .setup = setup_entry_cleared, .desc = "FILLED, then archive_entry_clear" },
	{ .name = "FROM_READ", .setup = setup_entry_read,
	  .desc = "the entry archive_read_next_header gave for hello.txt" },
	{ .name = "RELEASED", .setup = setup_entry_freed, .desc = "FILLED, then archive_entry_free", .misuse = 1 },
	{ .name = "GARBAGE", .setup = setup_garbage, .desc = "4 KiB of random bytes before a guard page", .misuse = 1 },
	{ 0 },
};

const struct tb_datatype tb_type_archive_entry = {
	.name = "archive_entry",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", NULL },  /* no entry */
	.ctype = "struct archive_entry *",
	.values = entry_values,
};

/* ---- archive_bytes: an archive in memory and its size ---- */

/* n bytes of src at the end of a guarded block, with size as the size */
static int bytes_at_end(union tb_arg *out, const void *src, size_t n, size_t size)
{
	char *p = tb_guarded_block(n);

	if (!p)
		return tb_setup_fail("no memory");
	memcpy(p, src, n);
	out[0].ptr = p;
	out[1].u = size;
	return 0;
}

static int setup_bytes_tar(union tb_arg *out)
{
	return the_tar() ? -1 : bytes_at_end(out, tar_image, tar_len, tar_len);
}

static int setup_bytes_truncated(union tb_arg *out)
{
	return the_tar() ? -1 : bytes_at_end(out, tar_image, 700, 700);
}

static int setup_bytes_past_end(union tb_arg *out)
{
	return the_tar() ? -1 : bytes_at_end(out, tar_image, tar_len, tar_len + 1);
}

static int setup_bytes_size_max(union tb_arg *out)
{
	return the_tar() ? -1 : bytes_at_end(out, tar_image, tar_len, SIZE_MAX);
}

static int setup_bytes_noise(union tb_arg *out)
{
	char noise[1024];

	tb_garbage_fill(noise, sizeof noise);
	return bytes_at_end(out, noise, sizeof noise, sizeof noise);
}

static int setup_bytes_empty(union tb_arg *out) { return bytes_at_end(out, "", 0, 0); }

static int setup_bytes_null(union tb_arg *out, size_t size)
{
	out[0].ptr = NULL;
	out[1].u = size;
	return 0;
}

static int setup_bytes_null_zero(union tb_arg *out) { return setup_bytes_null(out, 0); }
static int setup_bytes_null_size(union tb_arg *out) { return setup_bytes_null(out, 512); }

static const struct tb_value bytes_values[] = {
	{ .name = "TAR", .setup = setup_bytes_tar, .desc = "a ustar archive (hello.txt, dir/), its size" },
	{ .name = "TRUNCATED", .setup = setup_bytes_truncated, .desc = "its first 700 bytes, 700" },
	{ .name = "NOISE", .setup = setup_bytes_noise, .desc = "1 KiB of random bytes, 1024" },
	{ .name = "EMPTY", .setup = setup_bytes_empty, .desc = "0 bytes before a guard page, 0" },
	{ .name = "PAST_END", .setup = setup_bytes_past_end,
	  .desc = "the tar, its size + 1: one byte into the guard page" },
	{ .name = "SIZE_MAX", .setup = setup_bytes_size_max, .desc = "the tar, SIZE_MAX" },
	{ .name = "NULL_ZERO", .setup = setup_bytes_null_zero, .desc = "NULL, 0" },
	{ .name = "NULL_SIZE", .setup = setup_bytes_null_size, .desc = "NULL, 512" },
	{ 0 },
};

const struct tb_datatype tb_type_archive_bytes = {
	.name = "archive_bytes",
	.ctype = "const void *, size_t",
	.span = 2,
	.values = bytes_values,
};

/* ---- data_buffer: a block and its size ---- */

static int block(union tb_arg *out, size_t n, size_t size)
{
	char *p = tb_guarded_block(n);

	if (!p)
		return tb_setup_fail("no memory");
	memset(p, 'x', n);
	out[0].ptr = p;
	out[1].u = size;
	return 0;
}

static int setup_block_page(union tb_arg *out) { return block(out, 4096, 4096); }
static int setup_block_one(union tb_arg *out) { return block(out, 1, 1); }
static int setup_block_zero(union tb_arg *out) { return block(out, 0, 0); }
static int setup_block_past_end(union tb_arg *out) { return block(out, 4096, 4097); }
static int setup_block_size_max(union tb_arg *out) { return block(out, 4096, SIZE_MAX); }
static int setup_block_null_zero(union tb_arg *out) { return setup_bytes_null(out, 0); }
static int setup_block_null_size(union tb_arg *out) { return setup_bytes_null(out, 4096); }

static const struct tb_value buffer_values[] = {
	{ .name = "PAGE", .setup = setup_block_page, .desc = "4096 bytes before a guard page, 4096" },
	{ .name = "ONE", .setup = setup_block_one, .desc = "1 byte before a guard page, 1" },
	{ .name = "ZERO", .setup = setup_block_zero, .desc = "0 bytes before a guard page, 0" },
	{ .name = "PAST_END", .setup = setup_block_past_end,
	  .desc = "4096 bytes, 4097: one byte into the guard page" },
	{ .name = "SIZE_MAX", .setup = setup_block_size_max, .desc = "4096 bytes, SIZE_MAX" },
	{ .name = "NULL_ZERO", .setup = setup_block_null_zero, .desc = "NULL, 0" },
	{ .name = "NULL_SIZE", .setup = setup_block_null_size, .desc = "NULL, 4096" },
	{ 0 },
};

const struct tb_datatype tb_type_data_buffer = {
	.name = "data_buffer",
	.ctype = "void *, size_t",
	.span = 2,
	.values = buffer_values,
};
