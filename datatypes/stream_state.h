/*
 * The one table of stream states that FILE and Sfio_t (and Ballista's
 * b_ptr_file and its Sfio_t twin) are built from: a mode, the permission
 * bits the file is opened with, whether the stream still exists, and where
 * it stands.  A stream library contributes only how it turns a descriptor
 * into a stream, closes one, and reads one to its end (struct
 * tb_stream_kind); the states are listed once, here.
 */
#ifndef TREBUCHET_STREAM_STATE_H
#define TREBUCHET_STREAM_STATE_H

#include "datatype.h"

/* The dials in arg order, as Ballista's b_ptr_file has them. */
enum { TB_DIAL_MODE, TB_DIAL_PERMISSIONS, TB_DIAL_EXISTENCE, TB_DIAL_POSITION };

enum tb_stream_mode {
	TB_MODE_READ, TB_MODE_WRITE, TB_MODE_APPEND,
	TB_MODE_READ_PLUS, TB_MODE_WRITE_PLUS, TB_MODE_APPEND_PLUS,
};
enum tb_stream_existence { TB_EXIST, TB_CLOSED, TB_DELETED };
enum tb_stream_position {
	TB_POS_EMPTY,      /* the file holds nothing */
	TB_POS_BEGINNING,  /* at offset 0 of the text */
	TB_POS_END,        /* at its end, the stream's EOF flag not set */
	TB_POS_PAST_END,   /* ten bytes past its end */
	TB_POS_AT_EOF,     /* at its end after a read there, so the EOF flag is set */
};

struct tb_stream_kind {
	const char *prefix;  /* of the scratch file's name */
	void *(*from_fd)(int fd, enum tb_stream_mode mode);  /* fdopen, sfnew */
	int (*close)(void *stream);                          /* 0 on success */
	int (*read_to_eof)(void *stream);  /* 0 when one read found the end and set the flag */
};

/* stdio's (datatypes/file.c). */
extern const struct tb_stream_kind tb_stream_file;

/* The text a stream's file holds (no NUL inside). */
struct tb_stream_text {
	const char *bytes;
};

/* The four dials of Ballista's b_ptr_file: MODE (6) x PERMISSIONS (6) x
 * EXISTANCE (3) x STATE (4), under our names for the dials. */
extern const struct tb_dial tb_stream_dials[];

/* The choices of the MODE, PERMISSIONS and POSITION dials, for a datatype
 * that builds its own EXISTENCE dial (Ballista's b_fd). */
extern const struct tb_choice tb_stream_modes[], tb_stream_permissions[], tb_stream_positions[];

/* fopen's letters for each mode: "r", "w", "a", "r+", "w+", "a+". */
extern const char *const tb_stream_mode_text[];

/* The descriptor of the file in the state args name (existence aside),
 * positioned; the file's name (prefix, then the state) goes into name.
 * -1 when it cannot be made. */
int tb_stream_fd(const char *prefix, const struct tb_stream_text *text, const long *args,
		 char *name, size_t len);

/* Builds the stream the args (one per dial, in dial order) name. */
int tb_stream_build(const struct tb_stream_kind *kind, const struct tb_stream_text *text,
		    const long *args, union tb_arg *out);

/* The 18-byte file Ballista's streams were opened on (our own words). */
extern const struct tb_stream_text tb_stream_text_ballista;
/* The scratch text (tb_scratch_text): a little over two pages. */
extern const struct tb_stream_text tb_stream_text_ours;

#endif
