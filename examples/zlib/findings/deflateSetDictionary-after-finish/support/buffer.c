/*
 * buffer: memory a function reads or writes through (void *), every block
 * ending at a guard page so that a one-byte overrun faults.
 */
#include "datatype.h"

#define LARGE (1024 * 1024)

static int block(union tb_arg *out, size_t size)
{
	return (out->ptr = tb_guarded_block(size)) ? 0 : -1;
}

static int setup_buf_0(union tb_arg *out) { return block(out, 0); }
static int setup_buf_1(union tb_arg *out) { return block(out, 1); }
static int setup_buf_page(union tb_arg *out) { return block(out, 4096); }
static int setup_buf_large(union tb_arg *out) { return block(out, LARGE); }

static const struct tb_value buffer_values[] = {
	{ .name = "BUF_0", .setup = setup_buf_0, .desc = "zero bytes before a guard page" },
	{ .name = "BUF_1", .setup = setup_buf_1, .desc = "one byte before a guard page" },
	{ .name = "BUF_PAGE", .setup = setup_buf_page, .desc = "4096 bytes before a guard page" },
	{ .name = "BUF_LARGE", .setup = setup_buf_large, .desc = "1 MiB before a guard page" },
	{ 0 },
};

TB_DATATYPE(tb_type_buffer) = {
	.name = "buffer",
	.parent = &tb_type_pointer,
	.ctype = "void *",
	.values = buffer_values,
};
