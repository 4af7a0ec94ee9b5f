/*
 * Ballista's dictionary: datatypes that build the values of Ballista's own
 * templates (CMU, 1998-2001; the b_*.tpl files once in LTP), with their
 * multiplicities, so that a run can be set beside the published Ballista
 * figures (`trebuchet run --dictionary ballista`).  Written from what each
 * template value is, not from its code.  Their names are Ballista's type
 * names; a target's own datatypes map onto them in dictionary.c.
 */
#ifndef TREBUCHET_BALLISTA_H
#define TREBUCHET_BALLISTA_H

#include "datatype.h"

extern const struct tb_datatype tb_type_b_ptr_void, tb_type_b_ptr_buf, tb_type_b_ptr_char,
	tb_type_b_ptr_char_mode, tb_type_b_fname, tb_type_b_ptr_file, tb_type_b_fd,
	tb_type_b_int, tb_type_b_long, tb_type_b_unsigned_long, tb_type_b_int_whence;

#endif
