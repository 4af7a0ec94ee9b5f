/*
 * JSON listings of datatypes and of a target's functions, read by the
 * `trebuchet` CLI (list, and spec validation against known datatypes).
 */
#ifndef TREBUCHET_LISTING_H
#define TREBUCHET_LISTING_H

#include <stdio.h>

#include "target.h"

/* The dictionary's datatypes (with their dials) and, when t is not NULL,
 * the target's own. */
void tb_list_datatypes(FILE *out, const char *dictionary, const struct tb_target *t);
void tb_list_functions(FILE *out, const struct tb_target *t);

#endif
