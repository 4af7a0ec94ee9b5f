/*
 * A loaded target: its plugin, and each function's parameters resolved to
 * flattened value lists.  Built once, before the fork server exists, so the
 * server and every test process share it read-only.
 */
#ifndef TREBUCHET_TARGET_H
#define TREBUCHET_TARGET_H

#include <stddef.h>
#include <stdint.h>

#include "cases.h"
#include "dictionary.h"
#include "plugin.h"

struct tb_planned_function {
	const struct tb_function *fn;
	int nparams;
	const struct tb_value_list *lists[TB_MAX_PARAMS];
	int counts[TB_MAX_PARAMS];
	uint64_t total;  /* the full cross product */
};

struct tb_target {
	const struct tb_plugin *plugin;
	const char *dictionary;  /* the datatypes' dictionary (dictionary.h) */
	int nfunctions;
	struct tb_planned_function *functions;
};

/* Loads the plugin at path for dictionary, resolving nothing: enough to
 * list its datatypes (which the runner checks against the spec before
 * anything is resolved).  On failure returns -1 with a one-line reason in
 * err. */
int tb_target_open(const char *path, const char *dictionary, struct tb_target *t,
		   char *err, size_t errlen);

/* Loads the plugin at path and resolves every function's datatypes in
 * dictionary.  On failure returns -1 with a one-line reason in err. */
int tb_target_load(const char *path, const char *dictionary, struct tb_target *t,
		   char *err, size_t errlen);

/* Index of the function called name, or -1. */
int tb_target_function(const struct tb_target *t, const char *name);

/* A digest of every value name of the datatypes t's functions use: two
 * runs whose digests match decode every case index to the same values. */
void tb_target_dictionary_digest(const struct tb_target *t, char *out, size_t len);

#endif
