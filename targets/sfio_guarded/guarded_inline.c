/*
 * SFIO's in-line macros as functions, each run under the guard: the macro
 * reads the stream's struct, and a stream that is no stream faults there.
 * Each is SFIO's macro (sfio_abi.h) itself, taken before the header that
 * turns them into functions.
 */
#include "guard.h"

static int putc_macro(Sfio_t *f, int c) { return sfputc(f, c); }
static int getc_macro(Sfio_t *f) { return sfgetc(f); }
static int fileno_macro(Sfio_t *f) { return sffileno(f); }
static int eof_macro(Sfio_t *f) { return sfeof(f); }
static int error_macro(Sfio_t *f) { return sferror(f); }
static int clrerr_macro(Sfio_t *f) { return sfclrerr(f); }
static int stacked_macro(Sfio_t *f) { return sfstacked(f); }
static ssize_t value_macro(Sfio_t *f) { return sfvalue(f); }

#include "sfio_guarded.h"

int sfputc(Sfio_t *f, int c) { SG_GUARDED(-1, putc_macro, f, c); }
int sfgetc(Sfio_t *f) { SG_GUARDED(-1, getc_macro, f); }
int sffileno(Sfio_t *f) { SG_GUARDED(-1, fileno_macro, f); }
int sfeof(Sfio_t *f) { SG_GUARDED(0, eof_macro, f); }
int sferror(Sfio_t *f) { SG_GUARDED(0, error_macro, f); }
int sfclrerr(Sfio_t *f) { SG_GUARDED(0, clrerr_macro, f); }
int sfstacked(Sfio_t *f) { SG_GUARDED(0, stacked_macro, f); }
ssize_t sfvalue(Sfio_t *f) { SG_GUARDED(0, value_macro, f); }
