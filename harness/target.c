/*
 * Loading a target plugin and resolving its functions' datatypes (target.h).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "target.h"

/* Flattened lists are cached per datatype so that two parameters of one
 * datatype share one list. */
#define MAX_TYPES 64
static struct tb_value_list type_lists[MAX_TYPES];
static int ntypes;

static const struct tb_value_list *resolve(const struct tb_target *t, const char *name)
{
	const struct tb_datatype *type = tb_dictionary_find(t->dictionary, name,
							    t->plugin->datatypes);
	int i;

	if (!type)
		return NULL;
	for (i = 0; i < ntypes; i++)
		if (type_lists[i].type == type)
			return &type_lists[i];
	if (ntypes == MAX_TYPES || tb_datatype_flatten(type, &type_lists[ntypes]))
		return NULL;
	return &type_lists[ntypes++];
}

/* The constant values of list that differ from every earlier one once
 * converted to a parameter of width bytes (the low bytes on this
 * little-endian ABI, as the compiler's conversion keeps them), and every
 * value built by a setup or a dial product's build.  The copy lives as
 * long as the target. */
static int is_constant(const struct tb_value *v)
{
	return !v->setup && !v->build && !v->text;
}

static const struct tb_value_list *narrowed(const struct tb_value_list *list, int width)
{
	unsigned long long mask = width >= 8 ? ~0ull : (1ull << (8 * width)) - 1;
	struct tb_value_list *out = malloc(sizeof(*out));
	int i, j, same;

	if (!out)
		return NULL;
	out->type = list->type;
	out->count = 0;
	for (i = 0; i < list->count; i++) {
		const struct tb_value *v = list->values[i];

		for (same = 0, j = 0; j < out->count && is_constant(v) && !same; j++)
			same = is_constant(out->values[j]) &&
			       ((out->values[j]->constant.u ^ v->constant.u) & mask) == 0;
		if (!same)
			out->values[out->count++] = v;
	}
	return out;
}

/* A datatype that spans n parameters writes n argument slots: the n - 1
 * after it must exist and be `span` (the runner says so at the spec's line;
 * this keeps a plugin made otherwise from writing past the slots). */
static int check_spans(const struct tb_function *fn, const struct tb_planned_function *pf,
		       char *err, size_t errlen)
{
	int i, j;

	for (i = 0; i < pf->nparams; i++) {
		int span = pf->lists[i]->type->span;

		for (j = 1; j < span; j++)
			if (i + j >= pf->nparams || strcmp(fn->params[i + j], "span")) {
				snprintf(err, errlen, "function %s: datatype '%s' spans %d parameters, "
					 "the %d after it must be 'span'", fn->name, fn->params[i],
					 span, span - 1);
				return -1;
			}
	}
	return 0;
}

static int plan_function(const struct tb_target *t, const struct tb_function *fn,
			 struct tb_planned_function *pf, char *err, size_t errlen)
{
	int i;

	pf->fn = fn;
	for (i = 0; fn->params[i]; i++) {
		if (i == TB_MAX_PARAMS) {
			snprintf(err, errlen, "function %s has more than %d parameters",
				 fn->name, TB_MAX_PARAMS);
			return -1;
		}
		pf->lists[i] = resolve(t, fn->params[i]);
		if (!pf->lists[i]) {
			if (tb_dictionary_name(t->dictionary, fn->params[i]))
				snprintf(err, errlen, "function %s: unknown datatype '%s'",
					 fn->name, fn->params[i]);
			else
				snprintf(err, errlen, "function %s: datatype '%s' has no counterpart"
					 " in the %s dictionary", fn->name, fn->params[i],
					 t->dictionary);
			return -1;
		}
		if (fn->narrow && fn->narrow[i] &&
		    !(pf->lists[i] = narrowed(pf->lists[i], fn->narrow[i]))) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		pf->counts[i] = pf->lists[i]->count;
	}
	pf->nparams = i;
	if (check_spans(fn, pf, err, errlen))
		return -1;
	if (tb_cases_total(pf->counts, pf->nparams, &pf->total)) {
		snprintf(err, errlen, "function %s: too many cases to index", fn->name);
		return -1;
	}
	return 0;
}

int tb_target_open(const char *path, const char *dictionary, struct tb_target *t,
		   char *err, size_t errlen)
{
	void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);

	if (!handle) {
		snprintf(err, errlen, "%s", dlerror());
		return -1;
	}
	t->dictionary = dictionary;
	t->plugin = dlsym(handle, "tb_plugin");
	if (!t->plugin || t->plugin->abi != TB_PLUGIN_ABI) {
		snprintf(err, errlen, "%s: not a trebuchet plugin of ABI %d", path, TB_PLUGIN_ABI);
		return -1;
	}
	return 0;
}

int tb_target_load(const char *path, const char *dictionary, struct tb_target *t,
		   char *err, size_t errlen)
{
	const struct tb_function *fn;
	int n = 0;

	if (tb_target_open(path, dictionary, t, err, errlen))
		return -1;
	for (fn = t->plugin->functions; fn->name; fn++)
		n++;
	t->functions = calloc((size_t)n, sizeof(*t->functions));
	if (!t->functions) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (t->nfunctions = 0; t->nfunctions < n; t->nfunctions++)
		if (plan_function(t, &t->plugin->functions[t->nfunctions],
				  &t->functions[t->nfunctions], err, errlen))
			return -1;
	return 0;
}

int tb_target_function(const struct tb_target *t, const char *name)
{
	int i;

	for (i = 0; i < t->nfunctions; i++)
		if (!strcmp(t->functions[i].fn->name, name))
			return i;
	return -1;
}

/* Whether list was already hashed: held by a parameter before (fn, param). */
static int seen_before(const struct tb_target *t, int fn, int param,
		       const struct tb_value_list *list)
{
	int f, p;

	for (f = 0; f <= fn; f++)
		for (p = 0; p < (f == fn ? param : t->functions[f].nparams); p++)
			if (t->functions[f].lists[p] == list)
				return 1;
	return 0;
}

void tb_target_dictionary_digest(const struct tb_target *t, char *out, size_t len)
{
	uint64_t h = TB_FNV_OFFSET;
	int f, p, v;

	/* every value list a function draws from, once, in the order first used */
	for (f = 0; f < t->nfunctions; f++)
		for (p = 0; p < t->functions[f].nparams; p++) {
			const struct tb_value_list *list = t->functions[f].lists[p];

			if (seen_before(t, f, p, list))
				continue;
			h = tb_fnv1a(h, list->type->name);
			for (v = 0; v < list->count; v++)
				h = tb_fnv1a(tb_fnv1a(h, " "), list->values[v]->name);
			h = tb_fnv1a(h, "\n");
		}
	snprintf(out, len, "%016llx", (unsigned long long)h);
}
