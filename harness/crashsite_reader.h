/*
 * The crash site a test process left in its record (crashsite.h), read back
 * by its fork server into the case's result.
 */
#ifndef TREBUCHET_CRASHSITE_READER_H
#define TREBUCHET_CRASHSITE_READER_H

#include <stdint.h>

#include "outcome.h"

/* Fills site from r when r holds a valid dying mark, its frames as text
 * when it also holds a valid frames mark (else none); returns the bytes of
 * site that travel (tb_result.site_len), 0 when there is no site. */
uint32_t tb_site_read(const struct tb_record *r, struct tb_site *site);

#endif
