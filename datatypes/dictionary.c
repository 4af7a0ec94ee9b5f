/*
 * Dictionaries: which datatype a parameter's datatype name resolves to.
 * "ours" (the default) resolves every name to itself.  "ballista" maps each
 * of our names onto the Ballista type the reference study used for it
 * (DeVale & Koopman 2001: Ballista's POSIX types, and its own Sfio_t and
 * Void_t built like b_ptr_file and b_ptr_buf).  The study used no custom
 * integer types, so SFIO's flags, types and resource codes are b_int.
 * Ballista gave a few stdio parameters types of their own (b_size for
 * fgets's n, b_int_buffer_mode for setvbuf's mode, b_ptr_fpos_t, b_ptr_char
 * for char buffers); a map by datatype cannot see the parameter, so those
 * take their datatype's mapping here.
 */
#include <string.h>

#include "dictionary.h"

static const struct { const char *ours, *ballista; } ballista_map[] = {
	{ "pointer", "b_ptr_void" },
	{ "buffer", "b_ptr_buf" },
	{ "Void_t", "b_ptr_buf" },
	{ "size", "b_unsigned_long" },
	{ "int", "b_int" },
	{ "fd", "b_fd" },
	{ "path", "b_fname" },
	{ "mode", "b_ptr_char_mode" },
	{ "whence", "b_int_whence" },
	{ "offset", "b_long" },
	{ "FILE", "b_ptr_file" },
	{ "format", "b_ptr_char" },
	{ "string", "b_ptr_char" },
	{ "command", "b_ptr_char" },
	{ "Sfio_t", "b_Sfio_t" },      /* the sfio target's own (sfio_ballista.c) */
	{ "sfio_flags", "b_int" },
	{ "sfio_type", "b_int" },
	{ "rsc", "b_int" },
	{ "Sfdisc_t", "b_ptr_void" },
};

int tb_dictionary_owns(const char *dictionary, const struct tb_datatype *type)
{
	return !strncmp(type->name, "b_", 2) == !strcmp(dictionary, TB_DICTIONARY_BALLISTA);
}

int tb_dictionary_known(const char *dictionary)
{
	return !strcmp(dictionary, TB_DICTIONARY_OURS) || !strcmp(dictionary, TB_DICTIONARY_BALLISTA);
}

const char *tb_dictionary_name(const char *dictionary, const char *name)
{
	size_t i;

	if (strcmp(dictionary, TB_DICTIONARY_BALLISTA))
		return name;
	for (i = 0; i < sizeof(ballista_map) / sizeof(ballista_map[0]); i++)
		if (!strcmp(ballista_map[i].ours, name))
			return ballista_map[i].ballista;
	return NULL;
}

const struct tb_datatype *tb_dictionary_find(const char *dictionary, const char *name,
					     const struct tb_datatype *const *extra)
{
	const char *mapped = tb_dictionary_name(dictionary, name);

	return mapped ? tb_datatype_find(mapped, extra) : NULL;
}
