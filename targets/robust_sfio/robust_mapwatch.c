/*
 * The mapping epoch (robust_check.h): every call that can take access away
 * from memory the program already has moves rs_memory_epoch on, then goes on
 * to the next definition (glibc's, or an interposer's found by RTLD_NEXT).
 * A remembered memory check older than the epoch is done again.
 *
 * The next malloc is not always glibc's: libgvpr.so.2 exports an allocator
 * of its own (vmalloc).  While the next free() or realloc() is being looked
 * up (dlsym may itself free), a free() leaks and a realloc() fails rather
 * than hand a block to the wrong allocator.
 *
 * malloc(), free() and realloc() also keep the stream pool
 * (robust_pool.h): a malloc() during a stream-making call may be given a
 * slot, and a slot freed or reallocated goes back to the pool, never to the
 * allocator (nor does it count for the epoch: the pool is never unmapped).
 */
#include <dlfcn.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>

#include "robust_check.h"
#include "robust_pool.h"

static void *next(const char *name)
{
	static int looking;
	void *p;

	if (looking)
		return NULL;
	looking = 1;
	p = dlsym(RTLD_NEXT, name);
	looking = 0;
	return p;
}

/* Defines NAME to bump the epoch and forward; FALLBACK when the next one is
 * not yet found. */
#define WATCHED(ret, name, params, args, fallback) \
	ret name params \
	{ \
		static ret (*next_##name) params; \
		rs_memory_epoch++; \
		if (!next_##name) \
			next_##name = (ret (*) params)next(#name); \
		return next_##name ? next_##name args : fallback; \
	}

WATCHED(int, munmap, (void *addr, size_t len), (addr, len), -1)
WATCHED(int, mprotect, (void *addr, size_t len, int prot), (addr, len, prot), -1)
WATCHED(int, pkey_mprotect, (void *addr, size_t len, int prot, int pkey), (addr, len, prot, pkey), -1)
WATCHED(int, madvise, (void *addr, size_t len, int advice), (addr, len, advice), -1)
WATCHED(int, brk, (void *addr), (addr), -1)
WATCHED(void *, sbrk, (intptr_t delta), (delta), (void *)-1)
WATCHED(int, shmdt, (const void *addr), (addr), -1)
/* The dynamic linker unmaps an object by calls of its own: a string
 * literal of the object goes with it (robust_format.c's sealed formats). */
WATCHED(int, dlclose, (void *handle), (handle), -1)
/* What the allocator behind free() and realloc() can take away by calls of
 * its own that no wrapper here sees, decided once from where its free() is.
 * libgvpr.so.2's allocator (which a program linked with it gets) asks for
 * memory and gives it back only by sbrk() through the PLT, which is watched
 * above: its free() takes nothing away unseen.  glibc's free() takes memory
 * away unseen in two ways only: it unmaps a block that was mapped alone
 * (never inside the break heap), and it trims the break heap's free top (the
 * break goes down).  Any other allocator: every free() counts. */
enum allocator { NOT_YET, OTHER, VMALLOC, GLIBC };

extern void *__curbrk __attribute__((weak));  /* glibc's current break */
static void *heap_floor;  /* the break when this library was loaded */

__attribute__((constructor)) static void note_heap_floor(void)
{
	heap_floor = &__curbrk ? __curbrk : NULL;
}

static enum allocator allocator_of(void *fn)
{
	Dl_info info;
	const char *name, *slash;

	if (!fn || !dladdr(fn, &info) || !info.dli_fname)
		return OTHER;
	slash = strrchr(info.dli_fname, '/');
	name = slash ? slash + 1 : info.dli_fname;
	if (!strncmp(name, "libgvpr.so", 10))
		return VMALLOC;
	if (!strncmp(name, "libc.so", 7) && &__curbrk && heap_floor)
		return GLIBC;
	return OTHER;
}

/* The next malloc(), or NULL while it is being looked up (a malloc() then
 * fails). */
static void *next_malloc(size_t n)
{
	static void *(*real)(size_t);

	if (!real)
		real = (void *(*)(size_t))next("malloc");
	return real ? real(n) : NULL;
}

void *malloc(size_t n)
{
	if (__builtin_expect(rs_pool_watching, 0))
		return rs_pool_malloc(n, next_malloc);
	return next_malloc(n);
}

void free(void *p)
{
	static void (*next_free)(void *);
	static enum allocator allocator;
	void *top;

	if (rs_in_pool(p)) {
		rs_pool_release(p);
		return;
	}
	if (!next_free) {
		next_free = (void (*)(void *))next("free");
		allocator = allocator_of((void *)next_free);
	}
	if (!next_free) {
		rs_memory_epoch++;  /* leaked, but the memory counts as gone */
		return;
	}
	if (allocator == VMALLOC || !p) {
		next_free(p);
		return;
	}
	if (allocator != GLIBC || (char *)p < (char *)heap_floor || (char *)p >= (char *)__curbrk) {
		rs_memory_epoch++;
		next_free(p);
		return;
	}
	top = __curbrk;
	next_free(p);
	if ((char *)__curbrk < (char *)top)
		rs_memory_epoch++;
}

/* realloc() frees too, and glibc's may move a mapped block by mremap() of its
 * own: only libgvpr.so.2's allocator's is left out of the epoch. */
void *realloc(void *p, size_t n)
{
	static void *(*next_realloc)(void *, size_t);
	static enum allocator allocator;

	if (rs_in_pool(p))
		return rs_pool_realloc(p, n, next_malloc);
	if (!next_realloc) {
		next_realloc = (void *(*)(void *, size_t))next("realloc");
		allocator = allocator_of((void *)next_realloc);
	}
	if (allocator != VMALLOC)
		rs_memory_epoch++;
	return next_realloc ? next_realloc(p, n) : NULL;
}

/* Only a fixed mapping can replace memory the program already uses. */
void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset)
{
	static void *(*next_mmap)(void *, size_t, int, int, int, off_t);

	if (flags & MAP_FIXED)
		rs_memory_epoch++;
	if (!next_mmap)
		next_mmap = (void *(*)(void *, size_t, int, int, int, off_t))next("mmap");
	return next_mmap ? next_mmap(addr, len, prot, flags, fd, offset) : MAP_FAILED;
}

/* mremap takes an optional fifth argument (MREMAP_FIXED's new address). */
void *mremap(void *old, size_t old_len, size_t new_len, int flags, ...)
{
	static void *(*next_mremap)(void *, size_t, size_t, int, ...);
	void *new_addr = NULL;
	va_list ap;

	rs_memory_epoch++;
	if (flags & MREMAP_FIXED) {
		va_start(ap, flags);
		new_addr = va_arg(ap, void *);
		va_end(ap);
	}
	if (!next_mremap)
		next_mremap = (void *(*)(void *, size_t, size_t, int, ...))next("mremap");
	return next_mremap ? next_mremap(old, old_len, new_len, flags, new_addr) : MAP_FAILED;
}
