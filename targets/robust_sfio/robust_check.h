/*
 * The checks every wrapper makes before it calls the real SFIO, with the
 * study's optimistic incremental specialization: the most recent passing
 * checks are remembered, and a call that asks again about the same stream or
 * memory skips the work while nothing that could invalidate them happened.
 *
 * Two streams are remembered, and eight memory ranges; a range is widened to
 * the pages it lies in, because the kernel grants and takes away access a
 * page at a time, so a byte that passed proves its page and nothing beyond.
 *
 * What makes a remembered check stale, and how it is seen:
 * - stream closed or swapped away: the registry's generation changes on
 *   every removal (sfclose, sfswap to a new stream), so a remembered stream
 *   is trusted only while the generation is unchanged;
 * - memory unmapped or reprotected: the mapping epoch changes on every
 *   munmap, mprotect, pkey_mprotect, mremap, MAP_FIXED mmap and mmap64,
 *   madvise, process_madvise, brk, sbrk, shmat, shmdt, malloc_trim, the
 *   aligned allocations (posix_memalign, aligned_alloc, memalign, valloc,
 *   pvalloc) and dlclose the program (or its allocator, through the PLT)
 *   makes, and on every free and realloc that can take memory away by a
 *   system call no wrapper sees (robust_mapwatch.c): with libgvpr.so.2's
 *   allocator none can (it only uses sbrk); with glibc's, a free of a block
 *   outside the break heap, a free that lowers the break, and every
 *   realloc; with any other allocator, every free and realloc.  Memory inside the break heap grown
 *   since this library was loaded is remembered whole once any of it
 *   passes, while no watched call has reached the heap since load: brk()
 *   made all of it readable and writable, and only those calls change that.
 * - the in-line sfgetc and sfputc (robust_sfio.h) keep nothing: they work
 *   in line only on a pointer that is the start of a slot of the stream
 *   pool (robust_pool.h), and there only as SFIO's macros would, so SFIO's
 *   own buffer pointers decide.  A slot holds a stream SFIO made, or is
 *   free and cleared (sfclose frees the struct, and the slot's pointers
 *   become NULL); SFIO closes its buffer for a direction the stream is not
 *   open for, turned off by sfset, locked (sfreserve with SF_LOCKR, or a
 *   failed sfclose), or hidden under a stack (sfstack swaps the structs'
 *   contents, so the handles stay in their slots).  Every other pointer
 *   (NULL, the pool's interior, freed or unmapped memory, a stream outside
 *   the pool) takes the function, which makes the full check.  A slot
 *   reused by a new stream names the new stream, as a malloc()ed struct
 *   reused would; slots are reused last-freed last to make that rare.
 * - a printf format kept parsed (robust_format.c, four of them): used again
 *   only for the same pointer, while its bytes through the NUL lie in a
 *   remembered readable range, and only if they are still the bytes it was
 *   parsed from; its arguments are checked on every call (a kept
 *   format's pointer arguments, found by position, when all of them are of
 *   the integer class; each conversion's otherwise).  A format whose
 *   bytes lie in a read-only segment of a loaded object and could not be
 *   written when kept (a string literal) is sealed: not compared again while
 *   the mapping epoch is unchanged, since making it writable, replacing or
 *   unloading it moves the epoch on (a write through /proc/self/mem or
 *   ptrace, or to the object's file on disk, is not seen).  The two sealed
 *   formats used last whose one pointer argument, if any, is a %s are
 *   answered in line (robust_format.h) while their seal's epoch holds.
 * - sfputr copies a record into the write buffer itself (robust_data.c) only
 *   from a range remembered readable, and only into [next, endw) of a stream
 *   found open for writing, the window SFIO's own sfputc macro writes into.
 * A mapping changed by a raw syscall() or by glibc's undeclared internal
 * names (__sbrk, __libc_free, ...), protection keys switched by pkey_set(),
 * userfaultfd's write protection, or another thread mid-call is not seen;
 * the checks are as thread-unsafe as this SFIO build.
 *
 * A failing check sets errno (EBADF for a stream, EFAULT for memory) and
 * returns 0; the wrapper then returns SFIO's error value.
 */
#ifndef ROBUST_CHECK_H
#define ROBUST_CHECK_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "robust_registry.h"
#include "sfio_abi.h"

/* Everything below is the library's own: hidden, so that its code reaches
 * it without the GOT and the PLT. */
#pragma GCC visibility push(hidden)

/* The two streams found open most recently (a program reading one stream
 * and writing another alternates between them), and the generation they
 * were found in: a new generation forgets both.  Never NULL once a stream
 * is found, so that NULL is never remembered open. */
struct rs_hot {
	const Sfio_t *stream[2];
	uint64_t generation;
};
extern struct rs_hot rs_hot;
extern uint64_t rs_memory_epoch;

/* How often a check could not be answered from memory and was made in
 * full: what the tests and the benchmark read to see the cache work. */
struct rs_counts {
	unsigned long stream_lookups;  /* registry searched */
	unsigned long memory_checks;   /* memory asked of the kernel (a system call each) */
};
extern struct rs_counts rs_counts;

int rs_stream_open_slow(const Sfio_t *f);

/* f is one of the streams last found open, and no stream was closed since. */
static inline int rs_stream_remembered(const Sfio_t *f)
{
	return (f == rs_hot.stream[0] || f == rs_hot.stream[1]) &&
	       rs_hot.generation == rs_registry_generation;
}

/* f is a stream this library knows to be open. */
static inline int rs_stream_open(const Sfio_t *f)
{
	return rs_stream_remembered(f) || rs_stream_open_slow(f);
}

/* ... and it was opened for every mode bit in want (SF_READ, SF_WRITE). */
static inline int rs_stream_ok(const Sfio_t *f, int want)
{
	if (!rs_stream_open(f))
		return 0;
	if ((f->flags & want) != want) {
		errno = EBADF;
		return 0;
	}
	return 1;
}

/* NULL, or a stream as for rs_stream_ok: the many SFIO functions that give
 * NULL a meaning of its own (sfclose(NULL), sfsync(NULL), sfnew(NULL, ...)). */
static inline int rs_stream_or_null(const Sfio_t *f)
{
	return !f || rs_stream_open(f);
}

/* The memory ranges that passed a check (robust_check.c): [start, end),
 * whole pages, readable and writable when writable.  They hold while the
 * mapping epoch is the one they passed in. */
struct rs_range {
	uintptr_t start, end;
	int writable;
};
#define RS_RANGES 8
struct rs_ranges {
	struct rs_range range[RS_RANGES];
	unsigned used;
	uint64_t epoch;
};
extern struct rs_ranges rs_ranges;

/* Where one kind of question (a buffer, a string, a format, a printf
 * argument) was last answered: a loop asks each kind about the same few
 * ranges over and over, so the range that answered last usually answers
 * again, and the in-line test below is a handful of instructions where a
 * search through the ranges was a function call and a loop. */
struct rs_hint {
	unsigned char last[2];  /* indices into rs_ranges.range, the latest first */
};
extern struct rs_hint rs_buffer_hint[2], rs_string_hint, rs_format_hint, rs_argument_hint;

/* The remembered range holding [start, start + n), or NULL: the hinted one
 * in line, the others (and a hint update) out of line. */
const struct rs_range *rs_covering_search(uintptr_t start, size_t n, int want_write,
					  struct rs_hint *hint);

/* Remembered range i (an index a hint holds) holds [start, start + n). */
static inline const struct rs_range *rs_range_holds(unsigned i, uintptr_t start, size_t n,
						    int want_write)
{
	const struct rs_range *r = &rs_ranges.range[i];

	if (rs_ranges.epoch == rs_memory_epoch && i < rs_ranges.used &&
	    start - r->start < r->end - r->start && n <= r->end - start &&
	    r->writable >= want_write)
		return r;
	return NULL;
}

/* The hinted range holds [start, start + n): the part of the answer that
 * needs no call. */
static inline const struct rs_range *rs_covering_hinted(uintptr_t start, size_t n,
							int want_write,
							const struct rs_hint *hint)
{
	return rs_range_holds(hint->last[0], start, n, want_write);
}

/* The hint's latest range, then the one before it (a loop alternating
 * between two blocks, a record on the heap and a line in SFIO's buffer, or
 * two heap blocks in ranges of their own), then the search. */
static inline const struct rs_range *rs_covering(uintptr_t start, size_t n, int want_write,
						 struct rs_hint *hint)
{
	const struct rs_range *r = rs_covering_hinted(start, n, want_write, hint);
	unsigned char other;

	if (__builtin_expect(r != NULL, 1))
		return r;
	other = hint->last[1];
	r = rs_range_holds(other, start, n, want_write);
	if (r) {
		hint->last[1] = hint->last[0];
		hint->last[0] = other;
		return r;
	}
	return rs_covering_search(start, n, want_write, hint);
}

/* The break heap the program's allocator grew since this library was
 * loaded, [start, end) in whole pages, all readable and writable while the
 * epoch holds (robust_mapwatch.c); 0 when there is none or it is unknown. */
int rs_break_heap(uintptr_t *start, uintptr_t *end);

/* The checks when nothing remembered answers: asked of the kernel. */
int rs_buffer_check(const void *p, size_t n, int want_write);
int rs_string_check(const char *s, size_t max, struct rs_hint *hint);

/* The n bytes at p can be read (and written, when want_write). */
static inline int rs_buffer_ok(const void *p, size_t n, int want_write)
{
	if (n == 0 || rs_covering((uintptr_t)p, n, want_write, &rs_buffer_hint[want_write != 0]))
		return 1;
	return rs_buffer_check(p, n, want_write);
}

/* The checks of a block transfer answered wholly in line, with no call on
 * the way (so that the wrapper needs no frame of its own before the real
 * call): f is a stream remembered open and open for want, and the n bytes
 * at p lie in the range the buffer hint names.  Where this says no, the
 * wrapper makes its full checks, which give the same answer at more cost
 * or refuse. */
static inline int rs_transfer_remembered(const Sfio_t *f, int want, const void *p, size_t n,
					 int want_write)
{
	return rs_stream_remembered(f) && (f->flags & want) == want &&
	       rs_covering_hinted((uintptr_t)p, n, want_write,
				  &rs_buffer_hint[want_write != 0]) != NULL;
}

/* The n bytes at p (n >= 1) passed a read check that is still remembered:
 * an answer without asking the kernel, for callers that keep results of
 * their own that hold only while the memory does (robust_format.c). */
static inline int rs_memory_remembered(const void *p, size_t n)
{
	return rs_covering((uintptr_t)p, n, 0, &rs_format_hint) != NULL;
}

/* s can be read through its NUL, or through max bytes if that comes first
 * (printf's %.Ns reads no further), asking hint's range first. */
static inline int rs_string_ok_hinted(const char *s, size_t max, struct rs_hint *hint)
{
	const struct rs_range *r;
	size_t known;

	if (max == 0)
		return 1;
	/* in a range known readable, the string ends at a NUL inside it */
	r = rs_covering((uintptr_t)s, 1, 0, hint);
	if (r) {
		known = r->end - (uintptr_t)s;
		if (known >= max || __builtin_memchr(s, '\0', known))
			return 1;
	}
	return rs_string_check(s, max, hint);
}

/* s is a NUL-terminated string that can be read to its end. */
static inline int rs_string_ok(const char *s)
{
	return rs_string_ok_hinted(s, SIZE_MAX, &rs_string_hint);
}

/* Forget every remembered check (for tests and the benchmark). */
void rs_forget(void);

#pragma GCC visibility pop

#endif
