/* A string function that reads one byte past its argument's NUL when the
 * string's length is odd: what a value ending at a guard page makes a
 * plain run see (tests/test_overread.py). */
#include <stddef.h>

/* The number of two-character pairs in s, a last odd character counting
 * as one: 3 for "hello", 0 for "".  s must be a string. */
size_t or_pairs(const char *s);
