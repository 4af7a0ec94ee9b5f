/* Whether a function pointer points into loaded code (robust_code.c). */
#ifndef ROBUST_CODE_H
#define ROBUST_CODE_H

#pragma GCC visibility push(hidden)  /* the library's own, not its interface */

int rs_code_ok(const void *fn);

#pragma GCC visibility pop

#endif
