/*
 * tally: the small library the datatype guide (docs/datatypes.md) writes a
 * target for.  A tally_t adds up bytes; it is made by tally_new, fed by
 * tally_add, closed by tally_finish (after which adding is an error, kept
 * in the handle) and released by tally_free, which takes the handle.
 */
#ifndef TALLY_H
#define TALLY_H

#include <stddef.h>

typedef struct tally tally_t;
typedef unsigned long tally_sum_t;

tally_t *tally_new(void);
/* Adds len bytes at data; 0, or -1 with the reason kept in the handle. */
int tally_add(tally_t *t, const unsigned char *data, size_t len);
/* Closes the tally and writes its sum to *sum; 0, or -1 (already closed). */
int tally_finish(tally_t *t, tally_sum_t *sum);
/* The reason of the last error, or NULL when there was none. */
const char *tally_error(const tally_t *t);
void tally_free(tally_t *t);
const char *tally_version(void);

#endif
