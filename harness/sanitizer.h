/*
 * The executor under AddressSanitizer's runtime (world.c says how it gets
 * there, and with which options).
 */
#ifndef TREBUCHET_SANITIZER_H
#define TREBUCHET_SANITIZER_H

/* Under ASan, has every report end with its SUMMARY line: the report is
 * written to the case's stderr, whose last 512 bytes are stored, and
 * without this they hold only the shadow bytes ASan prints after the
 * summary.  Nothing without a sanitizer. */
void tb_sanitizer_init(void);

#endif
