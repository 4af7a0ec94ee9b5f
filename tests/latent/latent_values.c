/*
 * A datatype whose own setup has a latent error (8 bytes into a 1-byte
 * block): the harness's value construction, not the call, so memcheck's
 * report of it must not make a case of a clean function CORRUPT.
 */
#include <stdlib.h>

#include "datatype.h"

static char *volatile scribbled;

static int setup_scribbled(union tb_arg *out)
{
	char *p = malloc(1);

	if (!p)
		return -1;
	scribbled = p;
	for (int i = 0; i < 8; i++)
		scribbled[i] = 1;
	free(p);
	out->i = 7;
	return 0;
}

static const struct tb_value sloppy_values[] = {
	{ .name = "SCRIBBLED", .setup = setup_scribbled, .desc = "7, made by a setup that writes past its block" },
	{ 0 },
};

const struct tb_datatype tb_type_sloppy = {
	.name = "sloppy",
	.ctype = "int",
	.values = sloppy_values,
};
