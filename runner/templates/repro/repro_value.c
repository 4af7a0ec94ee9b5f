/*
 * Builds one of trebuchet's test values by its name, as the test process
 * does: with the value's setup() from the datatype's own file (copied here
 * unchanged), or its constant.  A datatype's values are its parent's, then
 * its own; the name is looked up in that order.
 */
#include <string.h>

#include "repro_support.h"

static const struct tb_value *find(const struct tb_datatype *type, const char *name)
{
	const struct tb_value *v;

	if (type->parent && (v = find(type->parent, name)))
		return v;
	for (v = type->values; v->name; v++)
		if (!strcmp(v->name, name))
			return v;
	return NULL;
}

void repro_value(union tb_arg *out, const struct tb_datatype *type, const char *name,
		 const char *param)
{
	const struct tb_value *v = find(type, name);

	if (!v)
		repro_not_built(param, type->name, name);
	if (!v->setup)
		*out = v->constant;
	else if (v->setup(out))
		repro_not_built(param, type->name, name);
}
