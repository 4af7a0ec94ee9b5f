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
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/uio.h>
#include <unistd.h>

#include "robust_check.h"
#include "robust_memory.h"
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

extern void *__curbrk __attribute__((weak));  /* glibc's current break */
static void *heap_floor;  /* the break when this library was loaded */

/* glibc learns the break at its first brk() or sbrk(), which may not have
 * come by the time this runs: sbrk(0) asks for it then. */
__attribute__((constructor)) static void note_heap_floor(void)
{
	void *now;

	if (!&__curbrk)
		return;
	now = __curbrk ? __curbrk : sbrk(0);
	heap_floor = now == (void *)-1 ? NULL : now;
}

/* Whether no watched call has changed the access of a page of the break
 * heap since load.  The epoch says only that nothing changed since a range
 * was remembered; a page of the heap reprotected or unmapped before it
 * would be trusted with the rest, so one such call ends the heap rule for
 * good and the heap is checked page by page like any memory. */
static int heap_untouched = 1;

/* The break heap made since this library was loaded: whole pages from the
 * first at or above the floor to the page holding the current break's last
 * byte.  brk() maps that memory readable and writable; the watched calls
 * that can change that move the epoch, and end the rule when they reach the
 * heap (touching).  Not seen, as nowhere in this library: robust_check.h. */
int rs_break_heap(uintptr_t *start, uintptr_t *end)
{
	uintptr_t page = rs_memory_page_size();

	if (!heap_untouched || !&__curbrk || !heap_floor || !__curbrk)
		return 0;
	*start = ((uintptr_t)heap_floor + page - 1) & ~(page - 1);
	*end = ((uintptr_t)__curbrk + page - 1) & ~(page - 1);
	return *start < *end;
}

/* A watched call changes the access of [addr, addr + len) (len SIZE_MAX:
 * from addr up, length unknown; 0: nothing); inside the break heap, the
 * rule ends. */
static void touching(const void *addr, size_t len)
{
	uintptr_t start, end, a = (uintptr_t)addr;

	if (len && rs_break_heap(&start, &end) && a < end && (a >= start || len > start - a))
		heap_untouched = 0;
}

static void touching_each(const struct iovec *ranges, size_t n)
{
	size_t i;

	for (i = 0; ranges && i < n; i++)
		touching(ranges[i].iov_base, ranges[i].iov_len);
}

/* Defines NAME to bump the epoch, note what it reaches (TOUCHED), and
 * forward; FALLBACK when the next one is not yet found. */
#define WATCHED(ret, name, params, args, fallback, touched) \
	ret name params \
	{ \
		static ret (*next_##name) params; \
		rs_memory_epoch++; \
		touched; \
		if (!next_##name) \
			next_##name = (ret (*) params)next(#name); \
		return next_##name ? next_##name args : fallback; \
	}
#define NOTHING_MORE ((void)0)

WATCHED(int, munmap, (void *addr, size_t len), (addr, len), -1, touching(addr, len))
WATCHED(int, mprotect, (void *addr, size_t len, int prot), (addr, len, prot), -1,
	touching(addr, len))
WATCHED(int, pkey_mprotect, (void *addr, size_t len, int prot, int pkey),
	(addr, len, prot, pkey), -1, touching(addr, len))
WATCHED(int, madvise, (void *addr, size_t len, int advice), (addr, len, advice), -1,
	touching(addr, len))
WATCHED(int, brk, (void *addr), (addr), -1, NOTHING_MORE)
WATCHED(void *, sbrk, (intptr_t delta), (delta), (void *)-1, NOTHING_MORE)
WATCHED(int, shmdt, (const void *addr), (addr), -1, NOTHING_MORE)
/* shmat() with SHM_REMAP replaces what lies at addr, for the segment's
 * length (not known here). */
WATCHED(void *, shmat, (int id, const void *addr, int flags), (id, addr, flags), (void *)-1,
	touching(addr, flags & SHM_REMAP ? SIZE_MAX : 0))
/* glibc's malloc_trim() lowers the break by an sbrk() of its own, and so
 * may the aligned allocations, which give back the spare ends of their
 * block by an internal free that can trim it. */
WATCHED(int, malloc_trim, (size_t pad), (pad), 0, NOTHING_MORE)
WATCHED(int, posix_memalign, (void **out, size_t align, size_t n), (out, align, n), ENOMEM,
	NOTHING_MORE)
WATCHED(void *, aligned_alloc, (size_t align, size_t n), (align, n), NULL, NOTHING_MORE)
WATCHED(void *, memalign, (size_t align, size_t n), (align, n), NULL, NOTHING_MORE)
WATCHED(void *, valloc, (size_t n), (n), NULL, NOTHING_MORE)
WATCHED(void *, pvalloc, (size_t n), (n), NULL, NOTHING_MORE)
/* process_madvise() advises on a list of ranges, of this process or
 * another (a guard page installed by it faults like an unmapped one):
 * every range counts, whichever process the pidfd names. */
WATCHED(ssize_t, process_madvise, (int pidfd, const struct iovec *ranges, size_t n, int advice,
				   unsigned int flags), (pidfd, ranges, n, advice, flags), -1,
	touching_each(ranges, n))
/* The dynamic linker unmaps an object by calls of its own: a string
 * literal of the object goes with it (robust_format.c's sealed formats). */
WATCHED(int, dlclose, (void *handle), (handle), -1, NOTHING_MORE)
/* What the allocator behind free() and realloc() can take away by calls of
 * its own that no wrapper here sees, decided once from where its free() is.
 * libgvpr.so.2's allocator (which a program linked with it gets) asks for
 * memory and gives it back only by sbrk() through the PLT, which is watched
 * above: its free() takes nothing away unseen.  glibc's free() takes memory
 * away unseen in two ways only: it unmaps a block that was mapped alone
 * (never inside the break heap), and it trims the break heap's free top (the
 * break goes down).  Any other allocator: every free() counts. */
enum allocator { NOT_YET, OTHER, VMALLOC, GLIBC };

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
static void *(*real_malloc)(size_t);

static __attribute__((noinline)) void *next_malloc(size_t n)
{
	if (!real_malloc)
		real_malloc = (void *(*)(size_t))next("malloc");
	return real_malloc ? real_malloc(n) : NULL;
}

/* A record loop mallocs and frees once a record: each is a test or two and
 * a tail call to the allocator, the rest out of line. */
void *malloc(size_t n)
{
	if (__builtin_expect(!rs_pool_watching && real_malloc != NULL, 1))
		return real_malloc(n);
	if (rs_pool_watching)
		return rs_pool_malloc(n, next_malloc);
	return next_malloc(n);
}

/* The next free(), and the allocator it belongs to. */
static void (*next_free)(void *);
static enum allocator free_allocator;

static __attribute__((noinline)) void free_watched(void *p)
{
	void *top;

	if (rs_in_pool(p)) {
		rs_pool_release(p);
		return;
	}
	if (!next_free) {
		next_free = (void (*)(void *))next("free");
		free_allocator = allocator_of((void *)next_free);
	}
	if (!next_free) {
		rs_memory_epoch++;  /* leaked, but the memory counts as gone */
		return;
	}
	if (free_allocator == VMALLOC || !p) {
		next_free(p);
		return;
	}
	if (free_allocator != GLIBC || (char *)p < (char *)heap_floor ||
	    (char *)p >= (char *)__curbrk) {
		rs_memory_epoch++;
		next_free(p);
		return;
	}
	top = __curbrk;
	next_free(p);
	if ((char *)__curbrk < (char *)top)
		rs_memory_epoch++;
}

/* With libgvpr.so.2's allocator nothing but a slot needs more than the
 * allocator's own free (free_allocator is VMALLOC only once next_free is
 * found). */
void free(void *p)
{
	if (__builtin_expect(free_allocator == VMALLOC && !rs_in_pool(p), 1)) {
		next_free(p);
		return;
	}
	free_watched(p);
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

/* Only a fixed mapping can replace memory the program already uses.
 * mmap64 is a name of its own in glibc (what mmap becomes with 64-bit
 * file offsets), so it is watched as well. */
#define WATCHED_MMAP(name, off) \
	void *name(void *addr, size_t len, int prot, int flags, int fd, off offset) \
	{ \
		static void *(*next_##name)(void *, size_t, int, int, int, off); \
		if (flags & MAP_FIXED) { \
			rs_memory_epoch++; \
			touching(addr, len); \
		} \
		if (!next_##name) \
			next_##name = (void *(*)(void *, size_t, int, int, int, off))next(#name); \
		return next_##name ? next_##name(addr, len, prot, flags, fd, offset) : MAP_FAILED; \
	}
WATCHED_MMAP(mmap, off_t)
WATCHED_MMAP(mmap64, off64_t)

/* mremap takes an optional fifth argument (MREMAP_FIXED's new address). */
void *mremap(void *old, size_t old_len, size_t new_len, int flags, ...)
{
	static void *(*next_mremap)(void *, size_t, size_t, int, ...);
	void *new_addr = NULL;
	va_list ap;

	rs_memory_epoch++;
	touching(old, old_len);
	if (flags & MREMAP_FIXED) {
		va_start(ap, flags);
		new_addr = va_arg(ap, void *);
		va_end(ap);
		touching(new_addr, new_len);
	}
	if (!next_mremap)
		next_mremap = (void *(*)(void *, size_t, size_t, int, ...))next("mremap");
	return next_mremap ? next_mremap(old, old_len, new_len, flags, new_addr) : MAP_FAILED;
}
