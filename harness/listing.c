/*
 * JSON listings (listing.h).
 */
#include <string.h>

#include "ballista.h"
#include "dictionary.h"
#include "listing.h"

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; s && *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(out, "\\u%04x", *s);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}

/* A datatype's own dials, each with its choices, and their product. */
static void list_dials(FILE *out, const struct tb_datatype *type)
{
	const struct tb_dial *d;
	const struct tb_choice *c;

	fputs(", \"dials\": [", out);
	for (d = type->dials; d && d->name; d++) {
		fputs(d == type->dials ? "{\"name\": " : ", {\"name\": ", out);
		json_string(out, d->name);
		fputs(", \"choices\": [", out);
		for (c = d->choices; c->name; c++) {
			fputs(c == d->choices ? "" : ", ", out);
			json_string(out, c->name);
		}
		fputs("]}", out);
	}
	fprintf(out, "], \"product\": %ld", type->dials ? tb_dial_product(type) : 0L);
}

static void list_one(FILE *out, const struct tb_datatype *type)
{
	struct tb_value_list list;
	int i;

	fputs("{\"name\": ", out);
	json_string(out, type->name);
	fputs(", \"parent\": ", out);
	if (type->parent)
		json_string(out, type->parent->name);
	else
		fputs("null", out);
	fputs(", \"ctype\": ", out);
	json_string(out, type->ctype);
	fprintf(out, ", \"span\": %d", type->span > 1 ? type->span : 1);
	list_dials(out, type);
	fputs(", \"values\": [", out);
	tb_datatype_flatten(type, &list);
	for (i = 0; i < list.count; i++) {
		fputs(i ? ", {\"name\": " : "{\"name\": ", out);
		json_string(out, list.values[i]->name);
		fputs(", \"desc\": ", out);
		json_string(out, list.values[i]->desc);
		fprintf(out, ", \"misuse\": %s}",
			tb_value_misuse(type, list.values[i]) ? "true" : "false");
	}
	fputs("]}", out);
}

void tb_list_datatypes(FILE *out, const char *dictionary, const struct tb_target *t)
{
	const struct tb_datatype *const *lists[2] = {
		tb_base_datatypes(), t ? t->plugin->datatypes : NULL,
	};
	const struct tb_datatype *const *p;
	int i, first = 1;

	fputc('[', out);
	for (i = 0; i < 2; i++)
		for (p = lists[i]; p && *p; p++) {
			if (!tb_dictionary_owns(dictionary, *p))
				continue;
			fputs(first ? "\n" : ",\n", out);
			first = 0;
			list_one(out, *p);
		}
	fputs("\n]\n", out);
}

void tb_list_functions(FILE *out, const struct tb_target *t)
{
	int i, j;

	fputc('[', out);
	for (i = 0; i < t->nfunctions; i++) {
		const struct tb_planned_function *pf = &t->functions[i];

		fputs(i ? ",\n{\"name\": " : "\n{\"name\": ", out);
		json_string(out, pf->fn->name);
		fputs(", \"signature\": ", out);
		json_string(out, pf->fn->signature);
		fputs(", \"params\": [", out);
		for (j = 0; j < pf->nparams; j++) {
			fputs(j ? ", " : "", out);
			json_string(out, pf->fn->params[j]);
		}
		/* each parameter's values: a converted one's may be fewer */
		fputs("], \"values\": [", out);
		for (j = 0; j < pf->nparams; j++) {
			int v;

			fputs(j ? ", [" : "[", out);
			for (v = 0; v < pf->counts[j]; v++) {
				fputs(v ? ", " : "", out);
				json_string(out, pf->lists[j]->values[v]->name);
			}
			fputc(']', out);
		}
		fprintf(out, "], \"cases\": %llu}", (unsigned long long)pf->total);
	}
	fputs("\n]\n", out);
}
