/*
 * How a wrapper refuses: errno, then SFIO's error value for the function.
 */
#ifndef ROBUST_FAIL_H
#define ROBUST_FAIL_H

#include <errno.h>

#define RS_REFUSE(err, value) do { errno = (err); return (value); } while (0)

/* The flag bits SFIO defines (SF_READ ... SF_WHOLE). */
#define RS_SFIO_FLAGS 0037777

/* The type bits of sfgetr() and sfreserve(): SF_LOCKR, SF_LASTR, and 1,
 * the older boolean lock argument that this SFIO still takes. */
#define RS_SFIO_TYPES (SF_LOCKR | SF_LASTR | 1)
/* sfgetr() also takes SF_STRING: the record comes back NUL-terminated. */
#define RS_GETR_TYPES (RS_SFIO_TYPES | SF_STRING)

/* The most characters one sfnputc() call may write.  A larger count is far
 * past any real use and is how a negative or garbage number arrives; on a
 * device that never fills, such as /dev/null, SFIO would write for hours,
 * which to the caller is a hang. */
#define RS_NPUTC_MAX ((size_t)1 << 31)

#endif
