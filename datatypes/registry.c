/*
 * The datatype registry: the list of base datatypes, look-up by name, and the
 * flattening of inheritance and dials into one ordered value list.  Flattening
 * runs once per run, before any test process exists; the per-case path only
 * indexes.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
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

static int dial_count(const struct tb_dial *dial)
{
	int n = 0;

	while (dial->choices[n].name)
		n++;
	return n;
}

long tb_dial_product(const struct tb_datatype *type)
{
	const struct tb_dial *d;
	long n = 1;

	for (d = type->dials; d && d->name; d++)
		n *= dial_count(d);
	return n;
}

/* Point i of the product, the last dial turning fastest: the choice of
 * each dial, in dial order. */
static void dial_point(const struct tb_datatype *type, long i, const struct tb_choice **picks)
{
	int ndials = 0, k;

	while (type->dials[ndials].name)
		ndials++;
	for (k = ndials - 1; k >= 0; k--) {
		int n = dial_count(&type->dials[k]);

		picks[k] = &type->dials[k].choices[i % n];
		i /= n;
	}
}

void tb_dial_name(const struct tb_datatype *type, long i, char *buf, size_t len)
{
	const struct tb_choice *picks[TB_MAX_DIALS];
	size_t used = 0;
	int k;

	dial_point(type, i, picks);
	buf[0] = 0;
	for (k = 0; type->dials[k].name && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", k ? "." : "", picks[k]->name);
}

/* The product's values of one datatype, made once and kept for the life of
 * the process (a type's list is flattened before any test process exists,
 * and the Check suites flatten one type many times). */
#define MAX_DIALED 32
#define DIAL_NAME 64
#define DIAL_DESC 256
static struct dialed {
	const struct tb_datatype *type;
	struct tb_value *values;
} dialed[MAX_DIALED];

/* A product value's description: each choice's own, or its dial and name
 * where it has none, in dial order. */
static const char *dial_desc(const struct tb_datatype *type, const struct tb_choice **picks,
			     char *buf, size_t len)
{
	size_t used = 0;
	int k;

	for (k = 0; type->dials[k].name && used < len; k++)
		used += (size_t)(picks[k]->desc
			? snprintf(buf + used, len - used, "%s%s", k ? "; " : "", picks[k]->desc)
			: snprintf(buf + used, len - used, "%s%s %s", k ? "; " : "",
				   type->dials[k].name, picks[k]->name));
	return buf;
}

static const struct tb_value *product_of(const struct tb_datatype *type)
{
	long n = tb_dial_product(type), i;
	struct tb_value *values;
	char *names, *descs;
	int slot, k;

	for (slot = 0; slot < MAX_DIALED && dialed[slot].type; slot++)
		if (dialed[slot].type == type)
			return dialed[slot].values;
	if (slot == MAX_DIALED || n >= TB_MAX_VALUES)
		return NULL;
	values = calloc((size_t)n + 1, sizeof(*values));
	names = calloc((size_t)n, DIAL_NAME);
	descs = calloc((size_t)n, DIAL_DESC);
	if (!values || !names || !descs)
		return free(values), free(names), free(descs), NULL;
	for (i = 0; i < n; i++) {
		const struct tb_choice *picks[TB_MAX_DIALS];

		dial_point(type, i, picks);
		tb_dial_name(type, i, names + i * DIAL_NAME, DIAL_NAME);
		values[i].name = names + i * DIAL_NAME;
		values[i].desc = dial_desc(type, picks, descs + i * DIAL_DESC, DIAL_DESC);
		values[i].build = type->build;
		for (k = 0; type->dials[k].name; k++) {
			values[i].args[k] = picks[k]->arg;
			values[i].misuse |= picks[k]->misuse;
		}
	}
	dialed[slot] = (struct dialed){ .type = type, .values = values };
	return values;
}

static int append(struct tb_value_list *list, const struct tb_value *v)
{
	if (list->count == TB_MAX_VALUES)
		return -1;
	list->values[list->count++] = v;
	return 0;
}

static int flatten_into(const struct tb_datatype *type,
			const struct tb_datatype *child,
			struct tb_value_list *list)
{
	const struct tb_value *v;

	if (type->parent && flatten_into(type->parent, type, list))
		return -1;
	for (v = type->values; v && v->name; v++)
		if (!(child && is_skipped(child, v->name)) && append(list, v))
			return -1;
	if (!type->dials)
		return 0;
	v = product_of(type);
	if (!v)
		return -1;
	for (; v->name; v++)
		if (!(child && is_skipped(child, v->name)) && append(list, v))
			return -1;
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

int tb_value_misuse(const struct tb_datatype *type, const struct tb_value *value)
{
	const char *const *m;

	if (value->misuse)
		return 1;
	for (; type; type = type->parent)
		for (m = type->misuse; m && *m; m++)
			if (!strcmp(*m, value->name))
				return 1;
	return 0;
}

/* The test process builds its values once, so one static reason is its
 * case's. */
static char setup_reason[TB_SETUP_REASON];
static int setup_errno;
static int setup_said;

int tb_setup_fail(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	if (!setup_said) {
		setup_said = 1;
		setup_errno = err;
		va_start(ap, fmt);
		vsnprintf(setup_reason, sizeof(setup_reason), fmt, ap);
		va_end(ap);
	}
	errno = err;
	return -1;
}

const char *tb_setup_reason(int *err)
{
	*err = setup_errno;
	return setup_reason;
}

static int build(const struct tb_value *value, union tb_arg *out)
{
	if (value->build)
		return value->build(value->args, out);
	if (value->text)
		return (out->ptr = tb_guarded_text(value->text)) ? 0 : -1;
	if (!value->setup) {
		*out = value->constant;
		return 0;
	}
	return value->setup(out);
}

int tb_value_build(const struct tb_value *value, union tb_arg *out)
{
	int failed;

	setup_said = 0;
	setup_reason[0] = 0;
	errno = 0;
	failed = build(value, out);
	if (failed && !setup_said)
		setup_errno = errno;
	return failed;
}

int tb_value_named(const struct tb_datatype *type, const char *name, union tb_arg *out)
{
	struct tb_value_list list;
	int i;

	if (tb_datatype_flatten(type, &list))
		return tb_setup_fail("datatype %s has too many values", type->name);
	for (i = 0; i < list.count; i++)
		if (!strcmp(list.values[i]->name, name))
			return tb_value_build(list.values[i], out);
	return tb_setup_fail("datatype %s has no value %s", type->name, name);
}

void tb_datatype_with_values(struct tb_datatype *copy, const struct tb_datatype *type,
			     const struct tb_value *more)
{
	size_t own = 0, extra = 0;
	struct tb_value *values;

	while (type->values && type->values[own].name)
		own++;
	while (more[extra].name)
		extra++;
	values = calloc(own + extra + 1, sizeof(*values));
	if (!values) {
		fprintf(stderr, "trebuchet: no memory for datatype %s's values\n", type->name);
		abort();
	}
	if (own)
		memcpy(values, type->values, own * sizeof(*values));
	memcpy(values + own, more, extra * sizeof(*values));
	*copy = *type;
	copy->values = values;
}
