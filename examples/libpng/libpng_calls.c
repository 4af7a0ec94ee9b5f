/*
 * The calls of libpng_calls.h: setjmp(png_jmpbuf(png_ptr)), then the call,
 * as libpng(3) shows every read.
 */
#include <setjmp.h>

#include "libpng_calls.h"

#define CALL(png, call)                                   \
	do {                                              \
		if ((png) && setjmp(png_jmpbuf(png)))     \
			return -1;                        \
		call;                                     \
		return 0;                                 \
	} while (0)

int tb_png_set_sig_bytes(png_structrp p, int n) { CALL(p, png_set_sig_bytes(p, n)); }
int tb_png_read_info(png_structrp p, png_inforp i) { CALL(p, png_read_info(p, i)); }
int tb_png_read_update_info(png_structrp p, png_inforp i) { CALL(p, png_read_update_info(p, i)); }
int tb_png_read_row(png_structrp p, png_bytep r, png_bytep d) { CALL(p, png_read_row(p, r, d)); }
int tb_png_read_end(png_structrp p, png_inforp i) { CALL(p, png_read_end(p, i)); }
int tb_png_set_expand(png_structrp p) { CALL(p, png_set_expand(p)); }
int tb_png_set_strip_16(png_structrp p) { CALL(p, png_set_strip_16(p)); }
int tb_png_set_gray_to_rgb(png_structrp p) { CALL(p, png_set_gray_to_rgb(p)); }

int tb_png_get_IHDR(png_const_structrp p, png_const_inforp i, png_uint_32 *w, png_uint_32 *h,
		    int *bd, int *ct, int *im, int *cm, int *fm)
{
	/* png_jmpbuf takes a png_structrp: the struct is the caller's, not const */
	png_structrp q = (png_structrp)p;

	if (q && setjmp(png_jmpbuf(q)))
		return -1;
	return (int)png_get_IHDR(p, i, w, h, bd, ct, im, cm, fm);
}
