#ifndef UNDEFINED_H
#define UNDEFINED_H

int ub_overflow(int code);
int ub_shift(int code);
int ub_misaligned(int code);
int ub_clean(int code);

#endif
