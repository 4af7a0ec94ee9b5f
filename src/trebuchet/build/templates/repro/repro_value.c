/*
 * Builds one of trebuchet's test values by its name, as the test process
 * does: with the value's setup() from the datatype's own file (copied here
 * unchanged), or its constant.  A datatype's values are its parent's, then
 * its own, then its dials' product; the name is looked up in that order.
 */
#include <stdio.h>
#include <string.h>

#include "repro_support.h"

/* A dial product's value: one choice per dial, named in dial order and
 * joined with dots ("READ.R_USER.EXIST.EOF"); the choices' args into *v. */
static const struct tb_value *dialed(const struct tb_datatype *type, const char *name,
				     struct tb_value *v)
{
	const struct tb_dial *d;
	const struct tb_choice *c;
	int k = 0;

	for (d = type->dials; d && d->name; d++, k++) {
		size_t n = strcspn(name, ".");

		for (c = d->choices; c->name; c++)
			if (strlen(c->name) == n && !strncmp(c->name, name, n))
				break;
		if (!c->name || (d[1].name ? name[n] != '.' : name[n] != 0))
			return NULL;
		v->args[k] = c->arg;
		name += n + 1;
	}
	v->build = type->build;
	return type->dials ? v : NULL;
}

static const struct tb_value *find(const struct tb_datatype *type, const char *name,
				   struct tb_value *point)
{
	const struct tb_value *v;

	if (type->parent && (v = find(type->parent, name, point)))
		return v;
	for (v = type->values; v && v->name; v++)
		if (!strcmp(v->name, name))
			return v;
	return dialed(type, name, point);
}

void repro_value(union tb_arg *out, const struct tb_datatype *type, const char *name,
		 const char *param)
{
	static struct tb_value point;
	const struct tb_value *v = find(type, name, &point);

	if (!v)
		repro_not_built(param, type->name, name);
	if (tb_value_build(v, out))
		repro_not_built(param, type->name, name);
}
