/*
 * libpng reports an error by longjmp to the jmp_buf its caller set with
 * setjmp(png_jmpbuf(png_ptr)) before the call (libpng(3), "Setup"; "Error
 * handling"). These functions make each call as the manual shows: setjmp
 * first (on a non-NULL png_ptr, since png_jmpbuf dereferences it), then the
 * call; they return -1 when libpng came back through the jmp_buf (an error),
 * 0 when the call returned.
 */
#ifndef LIBPNG_CALLS_H
#define LIBPNG_CALLS_H

#include <png.h>

int tb_png_set_sig_bytes(png_structrp png_ptr, int num_bytes);
int tb_png_read_info(png_structrp png_ptr, png_inforp info_ptr);
int tb_png_read_update_info(png_structrp png_ptr, png_inforp info_ptr);
int tb_png_read_row(png_structrp png_ptr, png_bytep row, png_bytep display_row);
int tb_png_read_end(png_structrp png_ptr, png_inforp info_ptr);
int tb_png_set_expand(png_structrp png_ptr);
/* png_get_IHDR checks the header it returns and may png_error: its value, or -1 */
int tb_png_get_IHDR(png_const_structrp png_ptr, png_const_inforp info_ptr, png_uint_32 *width,
		    png_uint_32 *height, int *bit_depth, int *color_type, int *interlace_method,
		    int *compression_method, int *filter_method);
int tb_png_set_strip_16(png_structrp png_ptr);
int tb_png_set_gray_to_rgb(png_structrp png_ptr);

#endif
