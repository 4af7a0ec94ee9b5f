/*
 * The ABI of the AT&T SFIO library exported by Debian's libgvpr.so.2
 * (graphviz 2.42, SFIO interface 20010201), declared here because graphviz
 * installs no SFIO header.  Declarations are written from the library's
 * documented interface and the facts in shared/SFIO.md; targets/sfio's
 * Check test (check_sfio_abi.c) proves them against the library.
 *
 * The in-line functions (sfgetc, sfputc, sffileno, ...) are macros over the
 * public prefix of the stream struct, as in SFIO itself: a program that
 * calls sfputc() runs the macro, and so do trebuchet's shims.
 */
#ifndef TREBUCHET_SFIO_ABI_H
#define TREBUCHET_SFIO_ABI_H

#include <stdarg.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct _sfio_s Sfio_t;
typedef struct _sfdisc_s Sfdisc_t;
typedef long long Sfoff_t;
typedef long long Sflong_t;
typedef unsigned long long Sfulong_t;
typedef long double Sfdouble_t;
typedef void Void_t;

typedef ssize_t (*Sfread_f)(Sfio_t *, Void_t *, size_t, Sfdisc_t *);
typedef ssize_t (*Sfwrite_f)(Sfio_t *, const Void_t *, size_t, Sfdisc_t *);
typedef Sfoff_t (*Sfseek_f)(Sfio_t *, Sfoff_t, int, Sfdisc_t *);
typedef int (*Sfexcept_f)(Sfio_t *, int, Void_t *, Sfdisc_t *);

/* A discipline: functions that replace the stream's raw I/O. */
struct _sfdisc_s {
	Sfread_f readf;
	Sfwrite_f writef;
	Sfseek_f seekf;
	Sfexcept_f exceptf;
	Sfdisc_t *disc;  /* the next discipline on the stack */
};

/* The public prefix of a stream; private fields follow in the library. */
struct _sfio_s {
	unsigned char *next;  /* next position to read or write */
	unsigned char *endw;  /* end of the write buffer */
	unsigned char *endr;  /* end of the read buffer */
	unsigned char *endb;  /* end of the buffer */
	Sfio_t *push;         /* the stream pushed on this one */
	unsigned short flags; /* stream type bits (SF_*) */
	short file;           /* file descriptor */
	unsigned char *data;  /* base of the data buffer */
	ssize_t size;         /* buffer size */
	ssize_t val;          /* values or string lengths */
};

/* stream type bits */
#define SF_READ     0000001
#define SF_WRITE    0000002
#define SF_STRING   0000004
#define SF_APPENDWR 0000010
#define SF_MALLOC   0000020
#define SF_LINE     0000040
#define SF_SHARE    0000100
#define SF_EOF      0000200
#define SF_ERROR    0000400
#define SF_STATIC   0001000
#define SF_IOCHECK  0002000
#define SF_PUBLIC   0004000
#define SF_MTSAFE   0010000
#define SF_WHOLE    0020000

/* sfgetr() and sfreserve() types */
#define SF_LOCKR    0000010
#define SF_LASTR    0000020

#define SF_POPSTACK ((Sfio_t *)0)
#define SF_UNBOUND  ((size_t)-1)

extern Sfio_t *sfstdin, *sfstdout, *sfstderr;

/* streams */
Sfio_t *sfnew(Sfio_t *f, Void_t *buf, size_t size, int fd, int flags);
Sfio_t *sfopen(Sfio_t *f, const char *name, const char *mode);
Sfio_t *sfpopen(Sfio_t *f, const char *command, const char *mode);
Sfio_t *sftmp(size_t size);
int sfclose(Sfio_t *f);
Sfio_t *sfstack(Sfio_t *base, Sfio_t *top);
Sfio_t *sfswap(Sfio_t *f1, Sfio_t *f2);
Sfio_t *sfpool(Sfio_t *f, Sfio_t *poolf, int mode);
int sfset(Sfio_t *f, int flags, int on);
int sfsetfd(Sfio_t *f, int fd);
Void_t *sfsetbuf(Sfio_t *f, Void_t *buf, size_t size);
Sfdisc_t *sfdisc(Sfio_t *f, Sfdisc_t *disc);
int sfraise(Sfio_t *f, int type, Void_t *data);
int sfclrlock(Sfio_t *f);
int sfresize(Sfio_t *f, Sfoff_t size);
int sfpurge(Sfio_t *f);
int sfsync(Sfio_t *f);

/* data */
ssize_t sfread(Sfio_t *f, Void_t *buf, size_t n);
ssize_t sfwrite(Sfio_t *f, const Void_t *buf, size_t n);
Void_t *sfreserve(Sfio_t *f, ssize_t n, int type);
Sfoff_t sfmove(Sfio_t *fr, Sfio_t *fw, Sfoff_t n, int rsc);
char *sfgetr(Sfio_t *f, int rsc, int type);
ssize_t sfputr(Sfio_t *f, const char *s, int rsc);
ssize_t sfnputc(Sfio_t *f, int c, size_t n);
int sfungetc(Sfio_t *f, int c);
Sfoff_t sfseek(Sfio_t *f, Sfoff_t addr, int whence);
Sfoff_t sftell(Sfio_t *f);
Sfoff_t sfsize(Sfio_t *f);
ssize_t sfrd(Sfio_t *f, Void_t *buf, size_t n, Sfdisc_t *disc);
ssize_t sfwr(Sfio_t *f, const Void_t *buf, size_t n, Sfdisc_t *disc);
Sfoff_t sfsk(Sfio_t *f, Sfoff_t addr, int whence, Sfdisc_t *disc);

/* formatted */
int sfprintf(Sfio_t *f, const char *format, ...);
char *sfprints(const char *format, ...);
int sfsprintf(char *s, int n, const char *format, ...);
int sfvsprintf(char *s, int n, const char *format, va_list args);
int sfvprintf(Sfio_t *f, const char *format, va_list args);
int sfscanf(Sfio_t *f, const char *format, ...);
int sfsscanf(const char *s, const char *format, ...);
int sfvsscanf(const char *s, const char *format, va_list args);
int sfvscanf(Sfio_t *f, const char *format, va_list args);

/* portable numbers */
Sfdouble_t sfgetd(Sfio_t *f);
Sflong_t sfgetl(Sfio_t *f);
Sfulong_t sfgetu(Sfio_t *f);
Sfulong_t sfgetm(Sfio_t *f, Sfulong_t max);
int _sfputd(Sfio_t *f, Sfdouble_t v);
int _sfputl(Sfio_t *f, Sflong_t v);
int _sfputu(Sfio_t *f, Sfulong_t v);
int _sfputm(Sfio_t *f, Sfulong_t v, Sfulong_t max);

/* the slow paths behind the in-line macros */
int _sffilbuf(Sfio_t *f, int n);
int _sfflsbuf(Sfio_t *f, int c);

/* the in-line functions, as SFIO defines them over the struct prefix */
#define sfputc(f, c) ((f)->next >= (f)->endw ? _sfflsbuf((f), (int)(unsigned char)(c)) \
					     : (int)(*(f)->next++ = (unsigned char)(c)))
#define sfgetc(f)    ((f)->next >= (f)->endr ? _sffilbuf((f), 0) : (int)(*(f)->next++))
#define sffileno(f)  ((f) ? (int)(f)->file : -1)
#define sfeof(f)     ((f) ? ((f)->flags & SF_EOF) : 0)
#define sferror(f)   ((f) ? ((f)->flags & SF_ERROR) : 0)
#define sfclrerr(f)  ((f) ? ((f)->flags &= (unsigned short)~(SF_ERROR | SF_EOF), 0) : 0)
#define sfstacked(f) ((f) ? ((f)->push != (Sfio_t *)0) : 0)
#define sfvalue(f)   ((f) ? (f)->val : 0)

#endif
