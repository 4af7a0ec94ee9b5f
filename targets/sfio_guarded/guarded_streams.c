/*
 * SFIO's functions, each a call into libgvpr.so.2 under the guard
 * (guard.h).  On a fault each returns SFIO's own error value (NULL, -1, or 0
 * for sfset) with errno EFAULT; the stream it was working on is left as the
 * fault left it.  The variadic functions go through SFIO's va_list forms.
 */
#include <stdarg.h>

#include "guard.h"
#include "sfio_guarded.h"

#define R(name) sg_real.name

Sfio_t *sfnew(Sfio_t *f, Void_t *buf, size_t size, int fd, int flags) { SG_GUARDED(NULL, R(sfnew), f, buf, size, fd, flags); }
Sfio_t *sfopen(Sfio_t *f, const char *name, const char *mode) { SG_GUARDED(NULL, R(sfopen), f, name, mode); }
Sfio_t *sfpopen(Sfio_t *f, const char *command, const char *mode) { SG_GUARDED(NULL, R(sfpopen), f, command, mode); }
Sfio_t *sftmp(size_t size) { SG_GUARDED(NULL, R(sftmp), size); }
int sfclose(Sfio_t *f) { SG_GUARDED(-1, R(sfclose), f); }
Sfio_t *sfstack(Sfio_t *base, Sfio_t *top) { SG_GUARDED(NULL, R(sfstack), base, top); }
Sfio_t *sfswap(Sfio_t *f1, Sfio_t *f2) { SG_GUARDED(NULL, R(sfswap), f1, f2); }
Sfio_t *sfpool(Sfio_t *f, Sfio_t *poolf, int mode) { SG_GUARDED(NULL, R(sfpool), f, poolf, mode); }
int sfset(Sfio_t *f, int flags, int on) { SG_GUARDED(0, R(sfset), f, flags, on); }
int sfsetfd(Sfio_t *f, int fd) { SG_GUARDED(-1, R(sfsetfd), f, fd); }
Void_t *sfsetbuf(Sfio_t *f, Void_t *buf, size_t size) { SG_GUARDED(NULL, R(sfsetbuf), f, buf, size); }
int sfsync(Sfio_t *f) { SG_GUARDED(-1, R(sfsync), f); }
int sfpurge(Sfio_t *f) { SG_GUARDED(-1, R(sfpurge), f); }
Sfdisc_t *sfdisc(Sfio_t *f, Sfdisc_t *disc) { SG_GUARDED(NULL, R(sfdisc), f, disc); }
int sfraise(Sfio_t *f, int type, Void_t *data) { SG_GUARDED(-1, R(sfraise), f, type, data); }
int sfresize(Sfio_t *f, Sfoff_t size) { SG_GUARDED(-1, R(sfresize), f, size); }

ssize_t sfread(Sfio_t *f, Void_t *buf, size_t n) { SG_GUARDED(-1, R(sfread), f, buf, n); }
ssize_t sfwrite(Sfio_t *f, const Void_t *buf, size_t n) { SG_GUARDED(-1, R(sfwrite), f, buf, n); }
Void_t *sfreserve(Sfio_t *f, ssize_t n, int type) { SG_GUARDED(NULL, R(sfreserve), f, n, type); }
Sfoff_t sfmove(Sfio_t *fr, Sfio_t *fw, Sfoff_t n, int rsc) { SG_GUARDED(-1, R(sfmove), fr, fw, n, rsc); }
char *sfgetr(Sfio_t *f, int rsc, int type) { SG_GUARDED(NULL, R(sfgetr), f, rsc, type); }
ssize_t sfputr(Sfio_t *f, const char *s, int rsc) { SG_GUARDED(-1, R(sfputr), f, s, rsc); }
ssize_t sfnputc(Sfio_t *f, int c, size_t n) { SG_GUARDED(-1, R(sfnputc), f, c, n); }
int sfungetc(Sfio_t *f, int c) { SG_GUARDED(-1, R(sfungetc), f, c); }
Sfoff_t sfseek(Sfio_t *f, Sfoff_t addr, int whence) { SG_GUARDED(-1, R(sfseek), f, addr, whence); }
Sfoff_t sftell(Sfio_t *f) { SG_GUARDED(-1, R(sftell), f); }
Sfoff_t sfsize(Sfio_t *f) { SG_GUARDED(-1, R(sfsize), f); }
int _sffilbuf(Sfio_t *f, int n) { SG_GUARDED(-1, R(_sffilbuf), f, n); }
int _sfflsbuf(Sfio_t *f, int c) { SG_GUARDED(-1, R(_sfflsbuf), f, c); }

int sfvprintf(Sfio_t *f, const char *format, va_list args) { SG_GUARDED(-1, R(sfvprintf), f, format, args); }
int sfvsprintf(char *s, int n, const char *format, va_list args) { SG_GUARDED(-1, R(sfvsprintf), s, n, format, args); }
int sfvscanf(Sfio_t *f, const char *format, va_list args) { SG_GUARDED(-1, R(sfvscanf), f, format, args); }
int sfvsscanf(const char *s, const char *format, va_list args) { SG_GUARDED(-1, R(sfvsscanf), s, format, args); }

/* the variadic forms: one va_list, then the guarded va_list form above */
#define SG_VARIADIC(last, call, ...) ({ \
	va_list args_; \
	int n_; \
	va_start(args_, last); \
	n_ = call(__VA_ARGS__, args_); \
	va_end(args_); \
	n_; })

int sfprintf(Sfio_t *f, const char *format, ...) { return SG_VARIADIC(format, sfvprintf, f, format); }
int sfsprintf(char *s, int n, const char *format, ...) { return SG_VARIADIC(format, sfvsprintf, s, n, format); }
int sfscanf(Sfio_t *f, const char *format, ...) { return SG_VARIADIC(format, sfvscanf, f, format); }
int sfsscanf(const char *s, const char *format, ...) { return SG_VARIADIC(format, sfvsscanf, s, format); }
