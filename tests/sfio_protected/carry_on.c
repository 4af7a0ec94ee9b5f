/*
 * A caller of SFIO behind the guarded call or the process boundary: its own
 * SIGSEGV handler installed, a write from a page it cannot read, then a
 * write on the same stream and on another, and a read of the other back.
 * Prints what each call returned and whether its handler is still the one
 * in place.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#ifdef PROXY
#include "sfio_proxy.h"
#else
#include "sfio_guarded.h"
#endif

static void own_handler(int sig) { (void)sig; }

int main(void)
{
	struct sigaction sa = { .sa_handler = own_handler }, now;
	char *no_access = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char back[6] = { 0 };
	Sfio_t *f = sfopen(NULL, "carry_on.txt", "w+"), *g = sfopen(NULL, "other.txt", "w+");
	ssize_t wild, same, other;

	sigaction(SIGSEGV, &sa, NULL);
	wild = sfwrite(f, no_access, 4096);
	printf("wild=%zd %s\n", wild, wild < 0 ? strerror(errno) : "");
	same = sfwrite(f, "hello", 5);
	other = sfwrite(g, "hello", 5);
	sfseek(g, 0, SEEK_SET);
	printf("same=%zd other=%zd read=%zd %s\n", same, other, sfread(g, back, 5), back);
	sigaction(SIGSEGV, NULL, &now);
	printf("handler=%s close=%d\n", now.sa_handler == own_handler ? "own" : "other", sfclose(g));
	return 0;
}
