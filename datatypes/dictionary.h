/*
 * Dictionaries (dictionary.c): the set of datatypes a run draws its values
 * from, chosen per run and stored with it.
 */
#ifndef TREBUCHET_DICTIONARY_H
#define TREBUCHET_DICTIONARY_H

#include "datatype.h"

#define TB_DICTIONARY_OURS "ours"
#define TB_DICTIONARY_BALLISTA "ballista"

/* 1 if type belongs to dictionary: Ballista's datatypes are named as
 * Ballista named its types, "b_" first; every other one is ours. */
int tb_dictionary_owns(const char *dictionary, const struct tb_datatype *type);

/* 1 if dictionary names one. */
int tb_dictionary_known(const char *dictionary);

/* The datatype name a parameter of datatype name draws from under
 * dictionary, or NULL when the dictionary has no counterpart. */
const char *tb_dictionary_name(const char *dictionary, const char *name);

/* That datatype, among the base ones (Ballista's register with TB_DATATYPE
 * like ours) and extra; NULL if
 * none. */
const struct tb_datatype *tb_dictionary_find(const char *dictionary, const char *name,
					     const struct tb_datatype *const *extra);

#endif
