/* Whether a function pointer points into loaded code (robust_code.c). */
#ifndef ROBUST_CODE_H
#define ROBUST_CODE_H

int rs_code_ok(const void *fn);

#endif
