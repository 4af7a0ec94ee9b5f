/*
 * The datatype registry: the list of base datatypes, look-up by name, and the
 * flattening of inheritance into one ordered value list.  Flattening runs once
 * per run, before any test process exists; the per-case path only indexes.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "datatype.h"

/* The linker's bounds of the section TB_DATATYPE fills; weak, so that a
 * program linking no base datatype (a reproducer of a target's own value)
 * sees an empty section. */
extern const struct tb_datatype *const __start_tb_datatypes[] __attribute__((weak));
extern const struct tb_datatype *const __stop_tb_datatypes[] __attribute__((weak));

#define MAX_BASE 64
static const struct tb_datatype *base_sorted[MAX_BASE + 1];

static int by_name(const void *a, const void *b)
{
	return strcasecmp((*(const struct tb_datatype *const *)a)->name,
			  (*(const struct tb_datatype *const *)b)->name);
}

/* Sorted by name, so the order does not hang on the order of linking. */
const struct tb_datatype *const *tb_base_datatypes(void)
{
	const struct tb_datatype *const *p;
	size_t n = 0;

	if (base_sorted[0] || !__start_tb_datatypes)
		return base_sorted;
	for (p = __start_tb_datatypes; p < __stop_tb_datatypes && n < MAX_BASE; p++)
		base_sorted[n++] = *p;
	qsort(base_sorted, n, sizeof(*base_sorted), by_name);
	return base_sorted;
}

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

	return type ? type : find_in(tb_base_datatypes(), name);
}

int tb_value_build(const struct tb_value *value, union tb_arg *out)
{
	if (!value->setup) {
		*out = value->constant;
		return 0;
	}
	return value->setup(out);
}
