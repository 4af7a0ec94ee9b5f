/*
 * The datatype registry: the list of base datatypes, look-up by name, and the
 * flattening of inheritance into one ordered value list.  Flattening runs once
 * per run, before any test process exists; the per-case path only indexes.
 */
#include <string.h>

#include "datatype.h"

const struct tb_datatype *const tb_base_datatypes[] = {
	&tb_type_pointer, &tb_type_buffer, &tb_type_size, &tb_type_int,
	&tb_type_fd, &tb_type_path, &tb_type_mode, &tb_type_whence,
	&tb_type_offset, &tb_type_file, &tb_type_format, &tb_type_string, &tb_type_command, NULL,
};

static int is_skipped(const struct tb_datatype *child, const char *name)
{
	const char *const *s;

	for (s = child->skip; s && *s; s++)
		if (!strcmp(*s, name))
			return 1;
	return 0;
}

static int flatten_into(const struct tb_datatype *type,
			const struct tb_datatype *child,
			struct tb_value_list *list)
{
	const struct tb_value *v;

	if (type->parent && flatten_into(type->parent, type, list))
		return -1;
	for (v = type->values; v->name; v++) {
		if (child && is_skipped(child, v->name))
			continue;
		if (list->count == TB_MAX_VALUES)
			return -1;
		list->values[list->count++] = v;
	}
	return 0;
}

int tb_datatype_flatten(const struct tb_datatype *type, struct tb_value_list *list)
{
	list->type = type;
	list->count = 0;
	return flatten_into(type, NULL, list);
}

static const struct tb_datatype *find_in(const struct tb_datatype *const *list,
					 const char *name)
{
	for (; list && *list; list++)
		if (!strcmp((*list)->name, name))
			return *list;
	return NULL;
}

const struct tb_datatype *tb_datatype_find(const char *name,
					   const struct tb_datatype *const *extra)
{
	const struct tb_datatype *type = find_in(extra, name);

	return type ? type : find_in(tb_base_datatypes, name);
}

int tb_value_build(const struct tb_value *value, union tb_arg *out)
{
	if (!value->setup) {
		*out = value->constant;
		return 0;
	}
	return value->setup(out);
}
