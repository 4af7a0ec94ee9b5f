/*
 * Pinned parameters (`trebuchet run --pin`): per function, the values some
 * of its parameters are held to; the campaign draws from the product of
 * those and the other parameters' full lists (tb_cases_widen).
 *
 * The text is the runs.pins column's, as src/trebuchet/run/pins.py writes it and a
 * resumed run reads it back: pins separated by spaces, each
 * FUNCTION.PARAM#POSITION=DATATYPE:VALUE[,DATATYPE:VALUE...].  PARAM is the
 * spec's name, kept for people; POSITION (0-based) is what counts here.
 */
#ifndef TREBUCHET_PINS_H
#define TREBUCHET_PINS_H

#include <stddef.h>

#include "target.h"

struct tb_pins {
	int *chosen[TB_MAX_PARAMS];  /* ascending value indices; NULL: every value */
	int nchosen[TB_MAX_PARAMS];
};

/* Parses text into pins[t->nfunctions] (zeroed by the caller); on a bad pin
 * writes a one-line reason naming it to err and returns -1.  Like the
 * target, the pins live as long as the executor. */
int tb_pins_parse(const char *text, const struct tb_target *t, struct tb_pins *pins,
		  char *err, size_t errlen);

#endif
