/*
 * b_Sfio_t: the study's Sfio_t under Ballista's dictionary.  Its template
 * is not public; the study says it "inherited much of its functionality
 * from the generic pointer type", and b_ptr_file is the public type it
 * would have followed: b_ptr_void's 7 values + the 432 stream states of
 * stream_state.h, each made into an SFIO stream by sfnew on the descriptor
 * (SFIO's fdopen), over Ballista's 18-byte file.
 */
#include "ballista.h"
#include "sfio_abi.h"
#include "stream_state.h"

extern const struct tb_stream_kind tb_stream_sfio;

static int build_sfio(const long *args, union tb_arg *out)
{
	return tb_stream_build(&tb_stream_sfio, &tb_stream_text_ballista, args, out);
}

const struct tb_datatype tb_type_ballista_sfio = {
	.name = "b_Sfio_t", .parent = &tb_type_b_ptr_void, .ctype = "Sfio_t *",
	.dials = tb_stream_dials, .build = build_sfio,
};
