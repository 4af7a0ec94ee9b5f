/*
 * Datatypes of the libpng survey target (libpng.yaml), from png.h (Debian's
 * 1.6.39), libpng(3) and docs/datatypes.md:
 *
 *   png_struct   pointer's values, then read structs in each state libpng(3)
 *                walks through: created, I/O set, info read, transforms
 *                updated, rows read, ended, over a corrupt file, after an
 *                error; a write struct; destroyed; random bytes
 *   png_pair     a read struct and its info struct (`png_structp, png_infop`)
 *                in those states, and mismatched or missing halves
 *   png_image    pointer's values, then simplified-API images: zeroed with
 *                the version set, begun, finished, failed, freed
 *   png_data     a PNG in memory and its size (`png_const_voidp, size_t`)
 *   png_version  string's values, then the version strings png.h names
 *   png_path     path's values, then a PNG file
 *
 * The image is an 8x8 RGB, 8-bit PNG with one tEXt chunk, 218 bytes.
 */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <png.h>

#include "datatype.h"

static const unsigned char image_png[] = {
	0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d,
	0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x08,
	0x08, 0x02, 0x00, 0x00, 0x00, 0x4b, 0x6d, 0x29, 0xdc, 0x00, 0x00, 0x00,
	0x11, 0x74, 0x45, 0x58, 0x74, 0x43, 0x6f, 0x6d, 0x6d, 0x65, 0x6e, 0x74,
	0x00, 0x74, 0x72, 0x65, 0x62, 0x75, 0x63, 0x68, 0x65, 0x74, 0x9e, 0x42,
	0xe7, 0x45, 0x00, 0x00, 0x00, 0x84, 0x49, 0x44, 0x41, 0x54, 0x78, 0xda,
	0x0d, 0xc8, 0xd1, 0x00, 0x04, 0x31, 0x10, 0x03, 0xd0, 0x20, 0x2c, 0xc2,
	0x20, 0x2c, 0x42, 0x10, 0x8a, 0x10, 0x84, 0x22, 0x04, 0xa1, 0x08, 0x41,
	0x58, 0x84, 0x41, 0x38, 0x84, 0x41, 0xb9, 0xbe, 0xcf, 0x07, 0x00, 0x85,
	0x87, 0x28, 0xe1, 0x35, 0x18, 0xac, 0x86, 0x06, 0xfb, 0xf6, 0x53, 0x55,
	0xac, 0x57, 0x45, 0xd7, 0x4a, 0xa9, 0x6b, 0x4f, 0x19, 0xe0, 0xed, 0x97,
	0xa4, 0xb8, 0x4c, 0x85, 0xbb, 0xe9, 0xe1, 0x01, 0xf4, 0x96, 0x6e, 0x2f,
	0x49, 0xd6, 0x8e, 0xdc, 0x3a, 0xa3, 0x00, 0x66, 0x79, 0xd1, 0xb7, 0xb7,
	0xed, 0xf8, 0xb4, 0x33, 0xfe, 0x80, 0xac, 0x8a, 0x98, 0xad, 0xdc, 0x3e,
	0x49, 0x3a, 0xdf, 0xa4, 0x81, 0x56, 0xf5, 0x66, 0x5b, 0x7d, 0xdc, 0xb7,
	0xbf, 0xee, 0x9e, 0xfe, 0x01, 0xb3, 0x6b, 0xcc, 0x39, 0x9a, 0x78, 0xbe,
	0xcc, 0xed, 0xdf, 0xcc, 0xfc, 0x01, 0xee, 0x3f, 0x54, 0x01, 0xa4, 0xa8,
	0xa9, 0xce, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42,
	0x60, 0x82,
};

#define ROWS 8
#define ROW_BYTES 24

static int write_file(const char *name, const unsigned char *bytes, size_t n)
{
	FILE *f = fopen(name, "wb");

	if (!f || fwrite(bytes, 1, n, f) != n || fclose(f))
		return tb_setup_fail("writing %s failed", name);
	return 0;
}

/* ---- read structs, walked through the states of libpng(3) ---- */

enum stage { CREATED, WITH_IO, INFO_READ, UPDATED, ROWS_READ, ENDED, CORRUPT_IO, IN_ERROR };

/* a read struct and its info struct at `stage`; the jmp_buf is set around
 * the steps, as libpng(3) asks; a step that errs is a value not built.  That
 * jmp_buf dies with this frame: every tested call that can err sets its own
 * first (libpng_calls.c), and the others (getters, png_init_io,
 * png_create_info_struct, png_destroy_read_struct) never png_error. */
static int walk(enum stage stage, png_structp *pp, png_infop *ip)
{
	static unsigned char row[ROW_BYTES];
	png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	unsigned char bad[sizeof(image_png)];
	const char *name = "png-image.png";
	volatile int failed = 0;
	FILE *f;
	int y;

	if (!info)
		return tb_setup_fail("png_create_read_struct or png_create_info_struct failed");
	*pp = png;
	*ip = info;
	if (stage == CREATED)
		return 0;
	memcpy(bad, image_png, sizeof(bad));
	if (stage >= CORRUPT_IO) {
		bad[29] ^= 0xff;   /* IHDR's CRC */
		name = "png-corrupt.png";
	}
	if (write_file(name, bad, sizeof(bad)) || !(f = fopen(name, "rb")))
		return -1;
	png_init_io(png, f);
	if (stage == WITH_IO || stage == CORRUPT_IO)
		return 0;
	if (setjmp(png_jmpbuf(png))) {
		failed = 1;
		return stage == IN_ERROR ? 0 : tb_setup_fail("libpng reported an error");
	}
	png_read_info(png, info);
	if (stage == IN_ERROR)
		return tb_setup_fail("png_read_info read a corrupt IHDR");
	if (stage == INFO_READ)
		return 0;
	png_read_update_info(png, info);
	if (stage == UPDATED)
		return 0;
	for (y = 0; y < ROWS; y++)
		png_read_row(png, row, NULL);
	if (stage == ROWS_READ)
		return 0;
	png_read_end(png, info);
	return failed;
}

static int setup_stage(union tb_arg *out, enum stage s)
{
	png_structp png;
	png_infop info;

	if (walk(s, &png, &info))
		return -1;
	out->ptr = png;
	return 0;
}

static int setup_new(union tb_arg *out) { return setup_stage(out, CREATED); }
static int setup_with_io(union tb_arg *out) { return setup_stage(out, WITH_IO); }
static int setup_info_read(union tb_arg *out) { return setup_stage(out, INFO_READ); }
static int setup_updated(union tb_arg *out) { return setup_stage(out, UPDATED); }
static int setup_rows_read(union tb_arg *out) { return setup_stage(out, ROWS_READ); }
static int setup_ended(union tb_arg *out) { return setup_stage(out, ENDED); }
static int setup_corrupt_io(union tb_arg *out) { return setup_stage(out, CORRUPT_IO); }
static int setup_in_error(union tb_arg *out) { return setup_stage(out, IN_ERROR); }

static int setup_write_struct(union tb_arg *out)
{
	out->ptr = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	return out->ptr ? 0 : tb_setup_fail("png_create_write_struct failed");
}

static int setup_destroyed(union tb_arg *out)
{
	png_structp png;
	png_infop info;

	if (walk(CREATED, &png, &info))
		return -1;
	out->u = (uintptr_t)png;
	png_destroy_read_struct(&png, &info, NULL);
	return 0;
}

static int setup_garbage(union tb_arg *out)
{
	return (out->ptr = tb_garbage_block(2048)) ? 0 : -1;
}

#define STAGE_VALUES(prefix)                                                               \
	{ .name = "NEW", .setup = prefix##new, .desc = "png_create_read_struct, no I/O set" }, \
	{ .name = "WITH_IO", .setup = prefix##with_io, .desc = "NEW, png_init_io on the PNG file" }, \
	{ .name = "INFO_READ", .setup = prefix##info_read, .desc = "WITH_IO, png_read_info" }, \
	{ .name = "UPDATED", .setup = prefix##updated, .desc = "INFO_READ, png_read_update_info" }, \
	{ .name = "ROWS_READ", .setup = prefix##rows_read, .desc = "UPDATED, all 8 rows read" }, \
	{ .name = "ENDED", .setup = prefix##ended, .desc = "ROWS_READ, png_read_end" }, \
	{ .name = "CORRUPT_IO", .setup = prefix##corrupt_io,                                 \
	  .desc = "NEW, png_init_io on the PNG with its IHDR CRC broken" },                   \
	{ .name = "IN_ERROR", .setup = prefix##in_error,                                     \
	  .desc = "CORRUPT_IO after png_read_info longjmp'd with an error" }

static const struct tb_value struct_values[] = {
	STAGE_VALUES(setup_),
	{ .name = "WRITE_STRUCT", .setup = setup_write_struct, .desc = "png_create_write_struct" },
	{ .name = "DESTROYED", .setup = setup_destroyed, .misuse = 1,
	  .desc = "NEW, then png_destroy_read_struct" },
	{ .name = "GARBAGE", .setup = setup_garbage, .misuse = 1,
	  .desc = "2 KiB of random bytes before a guard page" },
	{ 0 },
};

const struct tb_datatype tb_type_png_struct = {
	.name = "png_struct",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", "VALID", NULL },  /* no png_struct */
	.ctype = "png_structp",
	.values = struct_values,
};

/* ---- png_pair: png_structp, png_infop ---- */

static int pair_stage(union tb_arg *out, enum stage s)
{
	png_structp png;
	png_infop info;

	if (walk(s, &png, &info))
		return -1;
	out[0].ptr = png;
	out[1].ptr = info;
	return 0;
}

static int pair_new(union tb_arg *out) { return pair_stage(out, CREATED); }
static int pair_with_io(union tb_arg *out) { return pair_stage(out, WITH_IO); }
static int pair_info_read(union tb_arg *out) { return pair_stage(out, INFO_READ); }
static int pair_updated(union tb_arg *out) { return pair_stage(out, UPDATED); }
static int pair_rows_read(union tb_arg *out) { return pair_stage(out, ROWS_READ); }
static int pair_ended(union tb_arg *out) { return pair_stage(out, ENDED); }
static int pair_corrupt_io(union tb_arg *out) { return pair_stage(out, CORRUPT_IO); }
static int pair_in_error(union tb_arg *out) { return pair_stage(out, IN_ERROR); }

static int pair_null_info(union tb_arg *out)
{
	if (pair_stage(out, INFO_READ))
		return -1;
	out[1].ptr = NULL;
	return 0;
}

static int pair_null_png(union tb_arg *out)
{
	if (pair_stage(out, INFO_READ))
		return -1;
	out[0].ptr = NULL;
	return 0;
}

static int pair_null_both(union tb_arg *out)
{
	out[0].ptr = NULL;
	out[1].ptr = NULL;
	return 0;
}

/* an info struct made by another read struct */
static int pair_other_info(union tb_arg *out)
{
	png_structp png;
	png_infop info;

	if (pair_stage(out, INFO_READ) || walk(CREATED, &png, &info))
		return -1;
	out[1].ptr = info;
	return 0;
}

static int pair_freed_info(union tb_arg *out)
{
	png_structp png;
	png_infop info;

	if (walk(INFO_READ, &png, &info))
		return -1;
	out[0].ptr = png;
	out[1].u = (uintptr_t)info;
	png_destroy_info_struct(png, &info);
	return 0;
}

static int pair_garbage_info(union tb_arg *out)
{
	if (pair_stage(out, INFO_READ))
		return -1;
	return (out[1].ptr = tb_garbage_block(2048)) ? 0 : -1;
}

static int pair_garbage_png(union tb_arg *out)
{
	if (pair_stage(out, INFO_READ))
		return -1;
	return (out[0].ptr = tb_garbage_block(2048)) ? 0 : -1;
}

static const struct tb_value pair_values[] = {
	STAGE_VALUES(pair_),
	{ .name = "NULL_INFO", .setup = pair_null_info, .desc = "INFO_READ's read struct, info NULL" },
	{ .name = "NULL_PNG", .setup = pair_null_png, .desc = "read struct NULL, INFO_READ's info" },
	{ .name = "NULL_BOTH", .setup = pair_null_both, .desc = "both NULL" },
	{ .name = "OTHER_INFO", .setup = pair_other_info,
	  .desc = "INFO_READ's read struct, the info struct of another" },
	{ .name = "FREED_INFO", .setup = pair_freed_info, .misuse = 1,
	  .desc = "INFO_READ, its info struct destroyed" },
	{ .name = "GARBAGE_INFO", .setup = pair_garbage_info, .misuse = 1,
	  .desc = "INFO_READ's read struct, 2 KiB of random bytes as info" },
	{ .name = "GARBAGE_PNG", .setup = pair_garbage_png, .misuse = 1,
	  .desc = "2 KiB of random bytes as read struct, INFO_READ's info" },
	{ 0 },
};

const struct tb_datatype tb_type_png_pair = {
	.name = "png_pair",
	.ctype = "png_structp, png_infop",
	.span = 2,
	.values = pair_values,
};

/* ---- png_image: the simplified API ---- */

static png_imagep new_image(void)
{
	png_imagep im = tb_guarded_block(sizeof(png_image));

	if (im)
		im->version = PNG_IMAGE_VERSION;
	return im;
}

static int image(union tb_arg *out, png_imagep im)
{
	out->ptr = im;
	return im ? 0 : -1;
}

static int setup_i_fresh(union tb_arg *out) { return image(out, new_image()); }

static png_imagep begun(void)
{
	png_imagep im = new_image();

	if (!im || !png_image_begin_read_from_memory(im, image_png, sizeof(image_png))) {
		tb_setup_fail("png_image_begin_read_from_memory failed");
		return NULL;
	}
	im->format = PNG_FORMAT_RGBA;
	return im;
}

static int setup_i_begun(union tb_arg *out) { return image(out, begun()); }

static int setup_i_finished(union tb_arg *out)
{
	static unsigned char pixels[8 * 8 * 4];
	png_imagep im = begun();

	if (!im || !png_image_finish_read(im, NULL, pixels, 0, NULL))
		return tb_setup_fail("png_image_finish_read failed");
	return image(out, im);
}

static int setup_i_failed(union tb_arg *out)
{
	png_imagep im = new_image();

	if (!im || png_image_begin_read_from_memory(im, "not a png", 9))
		return tb_setup_fail("png_image_begin_read_from_memory read text");
	return image(out, im);
}

static int setup_i_freed(union tb_arg *out)
{
	png_imagep im = begun();

	if (!im)
		return -1;
	png_image_free(im);
	return image(out, im);
}

static int setup_i_garbage(union tb_arg *out)
{
	return (out->ptr = tb_garbage_block(sizeof(png_image))) ? 0 : -1;
}

static const struct tb_value image_values[] = {
	{ .name = "FRESH", .setup = setup_i_fresh, .desc = "zeroed, version PNG_IMAGE_VERSION" },
	{ .name = "BEGUN", .setup = setup_i_begun,
	  .desc = "png_image_begin_read_from_memory of the PNG, format RGBA" },
	{ .name = "FINISHED", .setup = setup_i_finished, .desc = "BEGUN, png_image_finish_read" },
	{ .name = "FAILED", .setup = setup_i_failed,
	  .desc = "png_image_begin_read_from_memory of text: returned 0" },
	{ .name = "IMAGE_FREED", .setup = setup_i_freed, .desc = "BEGUN, png_image_free" },
	{ .name = "GARBAGE", .setup = setup_i_garbage, .misuse = 1,
	  .desc = "a png_image's size of random bytes before a guard page" },
	{ 0 },
};

/* VALID stays: zero bytes, opaque NULL as png.h:2640 asks, version 0 */
const struct tb_datatype tb_type_png_image = {
	.name = "png_image",
	.parent = &tb_type_pointer,
	.skip = (const char *const[]){ "MISALIGNED", NULL },
	.misuse = (const char *const[]){ "READ_ONLY", NULL },  /* random bytes */
	.ctype = "png_imagep",
	.values = image_values,
};

/* ---- png_data: png_const_voidp memory, size_t size ---- */

static int data(union tb_arg *out, const void *bytes, size_t n, size_t len)
{
	unsigned char *p = tb_guarded_block(n);

	if (!p)
		return -1;
	memcpy(p, bytes, n);
	out[0].ptr = p;
	out[1].u = len;
	return 0;
}

static int setup_d_png(union tb_arg *out) { return data(out, image_png, sizeof(image_png), sizeof(image_png)); }
static int setup_d_truncated(union tb_arg *out) { return data(out, image_png, 100, 100); }
static int setup_d_text(union tb_arg *out) { return data(out, tb_scratch_text, 256, 256); }
static int setup_d_empty(union tb_arg *out) { return data(out, "", 0, 0); }
static int setup_d_past_end(union tb_arg *out) { return data(out, image_png, 100, sizeof(image_png)); }

static int setup_d_corrupt(union tb_arg *out)
{
	if (data(out, image_png, sizeof(image_png), sizeof(image_png)))
		return -1;
	((unsigned char *)out[0].ptr)[29] ^= 0xff;   /* IHDR's CRC */
	return 0;
}

static int setup_d_null(union tb_arg *out, size_t len)
{
	out[0].ptr = NULL;
	out[1].u = len;
	return 0;
}

static int setup_d_null_zero(union tb_arg *out) { return setup_d_null(out, 0); }
static int setup_d_null_len(union tb_arg *out) { return setup_d_null(out, sizeof(image_png)); }

static const struct tb_value data_values[] = {
	{ .name = "PNG", .setup = setup_d_png, .desc = "the 218-byte PNG, its size" },
	{ .name = "TRUNCATED", .setup = setup_d_truncated, .desc = "its first 100 bytes, size 100" },
	{ .name = "CORRUPT", .setup = setup_d_corrupt, .desc = "the PNG with its IHDR CRC broken" },
	{ .name = "TEXT", .setup = setup_d_text, .desc = "256 bytes of text, size 256" },
	{ .name = "EMPTY", .setup = setup_d_empty, .desc = "0 bytes before a guard page, size 0" },
	{ .name = "PAST_END", .setup = setup_d_past_end,
	  .desc = "the PNG's first 100 bytes, size 218: into the guard page" },
	{ .name = "NULL_ZERO", .setup = setup_d_null_zero, .desc = "NULL, size 0" },
	{ .name = "NULL_LEN", .setup = setup_d_null_len, .desc = "NULL, size 218" },
	{ 0 },
};

const struct tb_datatype tb_type_png_data = {
	.name = "png_data",
	.ctype = "png_const_voidp, size_t",
	.span = 2,
	.values = data_values,
};

/* ---- png_version: user_png_ver of png_create_read_struct ---- */

static const struct tb_value version_values[] = {
	{ .name = "VER_STRING", .constant.ptr = PNG_LIBPNG_VER_STRING,
	  .desc = "PNG_LIBPNG_VER_STRING, the header's own" },
	{ .name = "OLD", .constant.ptr = "1.2.50", .desc = "\"1.2.50\": another major.minor" },
	{ 0 },
};

const struct tb_datatype tb_type_png_version = {
	.name = "png_version",
	.parent = &tb_type_string,
	.ctype = "const char *",
	.values = version_values,
};

/* ---- png_path: file_name of png_image_begin_read_from_file ---- */

static int setup_p_png(union tb_arg *out)
{
	if (write_file("png-path.png", image_png, sizeof(image_png)))
		return -1;
	out->ptr = "png-path.png";
	return 0;
}

static const struct tb_value path_values[] = {
	{ .name = "PNG_FILE", .setup = setup_p_png, .desc = "a file holding the PNG" },
	{ 0 },
};

const struct tb_datatype tb_type_png_path = {
	.name = "png_path",
	.parent = &tb_type_path,
	.ctype = "const char *",
	.values = path_values,
};

/* ---- png_destroy_refs: png_structpp, png_infopp, png_infopp ---- */

/* each pointed-to handle lives in a guarded block of its own */
static void *ref(void *handle)
{
	void **r = tb_guarded_block(sizeof(void *));

	if (r)
		*r = handle;
	return r;
}

/* the read struct and info of `stage`, an end info of the same struct when
 * `end`: what libpng(3)'s png_destroy_read_struct(&png_ptr, &info_ptr,
 * &end_info) passes */
static int refs(union tb_arg *out, enum stage s, int info, int end)
{
	png_structp png;
	png_infop in;

	if (walk(s, &png, &in))
		return -1;
	out[0].ptr = ref(png);
	out[1].ptr = info ? ref(in) : NULL;
	out[2].ptr = end ? ref(png_create_info_struct(png)) : NULL;
	return out[0].ptr && (!info || out[1].ptr) && (!end || out[2].ptr) ? 0 : -1;
}

static int refs_new(union tb_arg *out) { return refs(out, CREATED, 1, 1); }
static int refs_info_read(union tb_arg *out) { return refs(out, INFO_READ, 1, 1); }
static int refs_ended(union tb_arg *out) { return refs(out, ENDED, 1, 1); }
static int refs_in_error(union tb_arg *out) { return refs(out, IN_ERROR, 1, 0); }
static int refs_no_end(union tb_arg *out) { return refs(out, INFO_READ, 1, 0); }
static int refs_only_png(union tb_arg *out) { return refs(out, CREATED, 0, 0); }

static int refs_to_null(union tb_arg *out)
{
	out[0].ptr = ref(NULL);
	out[1].ptr = ref(NULL);
	out[2].ptr = NULL;
	return out[0].ptr && out[1].ptr ? 0 : -1;
}

static int refs_null(union tb_arg *out)
{
	out[0].ptr = out[1].ptr = out[2].ptr = NULL;
	return 0;
}

/* the info struct of another read struct */
static int refs_other_info(union tb_arg *out)
{
	png_structp png;
	png_infop in;

	if (refs(out, INFO_READ, 0, 0) || walk(CREATED, &png, &in))
		return -1;
	return (out[1].ptr = ref(in)) ? 0 : -1;
}

/* a read struct destroyed once already, its address kept */
static int refs_destroyed(union tb_arg *out)
{
	png_structp png;
	png_infop in;
	void **r;

	if (walk(CREATED, &png, &in) || !(r = tb_guarded_block(sizeof(void *))))
		return -1;
	*r = png;
	png_destroy_read_struct(&png, &in, NULL);
	out[0].ptr = r;
	out[1].ptr = out[2].ptr = NULL;
	return 0;
}

static int refs_garbage(union tb_arg *out)
{
	out[0].ptr = ref(tb_garbage_block(2048));
	out[1].ptr = out[2].ptr = NULL;
	return out[0].ptr ? 0 : -1;
}

static const struct tb_value refs_values[] = {
	{ .name = "NEW", .setup = refs_new, .desc = "&png_ptr, &info_ptr, &end_info of a new read struct" },
	{ .name = "INFO_READ", .setup = refs_info_read, .desc = "the same after png_read_info" },
	{ .name = "ENDED", .setup = refs_ended, .desc = "the same after png_read_end" },
	{ .name = "IN_ERROR", .setup = refs_in_error,
	  .desc = "&png_ptr, &info_ptr, NULL after png_read_info longjmp'd (libpng(3), Setup)" },
	{ .name = "NO_END", .setup = refs_no_end, .desc = "&png_ptr, &info_ptr, NULL after png_read_info" },
	{ .name = "ONLY_PNG", .setup = refs_only_png, .desc = "&png_ptr, NULL, NULL of a new read struct" },
	{ .name = "TO_NULL", .setup = refs_to_null, .desc = "&png_ptr and &info_ptr holding NULL, NULL" },
	{ .name = "NULL_ALL", .setup = refs_null, .desc = "NULL, NULL, NULL" },
	{ .name = "OTHER_INFO", .setup = refs_other_info,
	  .desc = "&png_ptr after png_read_info, &info_ptr of another read struct, NULL" },
	{ .name = "DESTROYED", .setup = refs_destroyed, .misuse = 1,
	  .desc = "&png_ptr holding a read struct destroyed already, NULL, NULL" },
	{ .name = "GARBAGE", .setup = refs_garbage, .misuse = 1,
	  .desc = "&png_ptr holding 2 KiB of random bytes, NULL, NULL" },
	{ 0 },
};

const struct tb_datatype tb_type_png_destroy_refs = {
	.name = "png_destroy_refs",
	.ctype = "png_structpp, png_infopp, png_infopp",
	.span = 3,
	.values = refs_values,
};
