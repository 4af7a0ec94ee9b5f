/*
 * How a wrapper refuses: errno, then SFIO's error value for the function.
 */
#ifndef ROBUST_FAIL_H
#define ROBUST_FAIL_H

#include <errno.h>

#define RS_REFUSE(err, value) do { errno = (err); return (value); } while (0)

/* The flag bits SFIO defines (SF_READ ... SF_WHOLE). */
#define RS_SFIO_FLAGS 0037777

/* The most characters one sfnputc() call may write.  A larger count is far
 * past any real use and is how a negative or garbage number arrives; on a
 * device that never fills, such as /dev/null, SFIO would write for hours,
 * which to the caller is a hang. */
#define RS_NPUTC_MAX ((size_t)1 << 31)

#endif
