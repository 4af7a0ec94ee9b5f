/*
 * Resolving the real SFIO (robust_real.h) when the library is loaded, and
 * registering SFIO's standard streams as open for good: they are static
 * structs, and SFIO itself refuses operations on one that was closed.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "robust_real.h"
#include "robust_registry.h"

#define SFIO_LIBRARY "libgvpr.so.2"

struct rs_real rs_real;
int rs_depth;

static Sfio_t *standard[3];

unsigned rs_standard_stream(const Sfio_t *f)
{
	unsigned i;

	for (i = 0; f && i < 3; i++)
		if (f == standard[i])
			return 1u << i;
	return 0;
}

static void *lookup(void *sfio, const char *name)
{
	void *p = dlsym(sfio, name);

	if (!p) {
		/* no SFIO, no library: say so where a program's author will look */
		fprintf(stderr, "robust_sfio: %s has no %s\n", SFIO_LIBRARY, name);
		abort();
	}
	return p;
}

__attribute__((constructor)) static void resolve_real_sfio(void)
{
	static const char *const names[] = { "sfstdin", "sfstdout", "sfstderr" };
	void *sfio = dlopen(SFIO_LIBRARY, RTLD_NOW | RTLD_LOCAL);
	int i;

	if (!sfio) {
		fprintf(stderr, "robust_sfio: %s\n", dlerror());
		abort();
	}
#define RS_RESOLVE(name) rs_real.name = (__typeof__(name) *)lookup(sfio, #name);
	RS_REAL_FUNCTIONS(RS_RESOLVE)
	for (i = 0; i < 3; i++) {
		standard[i] = *(Sfio_t **)lookup(sfio, names[i]);
		rs_stream_add(standard[i]);
	}
}
