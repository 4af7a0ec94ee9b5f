/*
 * Pinned parameters (pins.h).  Parsed once, before any case is drawn.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pins.h"

/* The index of value (with or without its "DATATYPE:" prefix) in the
 * parameter's list, or -1. */
static int value_index(const struct tb_planned_function *pf, int pos, const char *value)
{
	const char *datatype = pf->fn->params[pos], *colon = strchr(value, ':');
	int v;

	if (colon) {
		if ((size_t)(colon - value) != strlen(datatype) ||
		    strncmp(value, datatype, (size_t)(colon - value)))
			return -1;
		value = colon + 1;
	}
	for (v = 0; v < pf->counts[pos]; v++)
		if (!strcmp(pf->lists[pos]->values[v]->name, value))
			return v;
	return -1;
}

/* "=V1,V2" of one parameter into its ascending choices. */
static int choose(const struct tb_planned_function *pf, int pos, char *values,
		  struct tb_pins *pin, char *err, size_t errlen)
{
	char *keep = calloc((size_t)pf->counts[pos], 1), *value, *save;
	int v, n = 0;

	pin->chosen[pos] = calloc((size_t)pf->counts[pos], sizeof(int));
	if (!keep || !pin->chosen[pos]) {
		free(keep);
		return snprintf(err, errlen, "out of memory"), -1;
	}
	for (value = strtok_r(values, ",", &save); value; value = strtok_r(NULL, ",", &save)) {
		if ((v = value_index(pf, pos, value)) < 0) {
			snprintf(err, errlen, "pin of %s: parameter %d (%s) has no value %s",
				 pf->fn->name, pos + 1, pf->fn->params[pos], value);
			free(keep);
			return -1;
		}
		keep[v] = 1;
	}
	for (v = 0; v < pf->counts[pos]; v++)
		if (keep[v])
			pin->chosen[pos][n++] = v;
	pin->nchosen[pos] = n;
	free(keep);
	if (!n)
		return snprintf(err, errlen, "pin of %s: no value", pf->fn->name), -1;
	return 0;
}

/* One FUNCTION.PARAM#POSITION=VALUES. */
static int parse_pin(char *pin, const struct tb_target *t, struct tb_pins *pins,
		     char *err, size_t errlen)
{
	char *dot = strchr(pin, '.'), *hash = strchr(pin, '#'), *eq = strchr(pin, '='), *end;
	const struct tb_planned_function *pf;
	long pos;
	int fn;

	if (!dot || !hash || !eq || dot > hash || hash > eq)
		return snprintf(err, errlen, "not a pin (FUNCTION.PARAM#POSITION=VALUES): %s",
				pin), -1;
	*dot = '\0';
	if ((fn = tb_target_function(t, pin)) < 0)
		return snprintf(err, errlen, "pin of %s: target %s has no such function", pin,
				t->plugin->target), -1;
	pf = &t->functions[fn];
	pos = strtol(hash + 1, &end, 10);
	if (end != eq || end == hash + 1 || pos < 0 || pos >= pf->nparams)
		return snprintf(err, errlen, "pin of %s: it has no parameter at position %.*s",
				pin, (int)(eq - hash - 1), hash + 1), -1;
	if (pins[fn].chosen[pos])
		return snprintf(err, errlen, "pin of %s: parameter %ld is pinned twice", pin,
				pos + 1), -1;
	return choose(pf, (int)pos, eq + 1, &pins[fn], err, errlen);
}

int tb_pins_parse(const char *text, const struct tb_target *t, struct tb_pins *pins,
		  char *err, size_t errlen)
{
	char *copy = strdup(text), *pin, *save;
	int rc = 0;

	if (!copy)
		return snprintf(err, errlen, "out of memory"), -1;
	for (pin = strtok_r(copy, " ", &save); pin && !rc; pin = strtok_r(NULL, " ", &save))
		rc = parse_pin(pin, t, pins, err, errlen);
	free(copy);
	return rc;
}
