/*
 * Check suite for the Robust SFIO library as a program sees it (linked
 * ahead of libgvpr.so.2): refusals with SFIO's error values and errno, the
 * remembered checks paying once for a loop, and remembered checks going
 * stale when a stream is closed or swapped away or memory is unmapped,
 * reprotected or freed.  Each test runs in a scratch directory.
 */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/pidfd.h>
#include <sys/uio.h>
#include <unistd.h>

#include "check_run.h"
#include "robust_memory.h"
#include "robust_sfio.h"
#include "started_list.h"

/* madvise's guard-page advice (Linux 6.13), newer than these headers. */
#define GUARD_INSTALL 102
#define GUARD_REMOVE 103

static char *pages(size_t n)
{
	char *p = mmap(NULL, n * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(p, MAP_FAILED);
	memset(p, 'p', n * 4096);
	return p;
}

static Sfio_t *scratch(const char *mode)
{
	Sfio_t *f = sfopen(NULL, "scratch.dat", mode);

	ck_assert_ptr_nonnull(f);
	return f;
}

#define ck_refused(call, value, err) do { \
	errno = 0; \
	ck_assert_int_eq((long long)(call), (long long)(value)); \
	ck_assert_int_eq(errno, (err)); \
} while (0)

START_TEST(wild_values_get_sfio_error_values_and_errno)
{
	Sfio_t *w = scratch("w"), *wild = (Sfio_t *)pages(1);
	char *ro = pages(2), *unmapped = ro + 4096;

	munmap(unmapped, 4096);
	mprotect(ro, 4096, PROT_READ);
	ck_refused(sfputc(wild, 'x'), -1, EBADF);
	ck_refused(sfgetc(NULL), -1, EBADF);
	ck_refused(sffileno(wild), -1, EBADF);
	ck_refused(sfwrite(wild, "x", 1), -1, EBADF);
	ck_refused(sfwrite(w, NULL, 10), -1, EFAULT);
	ck_refused(sfread(w, ro, 10), -1, EBADF);  /* w is not open for reading */
	ck_refused(sfseek(w, 0, 7), -1, EINVAL);
	ck_refused(sfseek(w, -1, SEEK_SET), -1, EINVAL);
	ck_refused(sfputr(w, unmapped, '\n'), -1, EFAULT);
	ck_refused(sfnputc(w, 'x', (size_t)-1), -1, EINVAL);
	ck_refused(sfprintf(w, "%s", (char *)1), -1, EFAULT);
	ck_refused(sfprintf(w, "%2147483648d", 1), -1, EINVAL);
	ck_refused(sfsprintf(ro, 10, "x"), -1, EFAULT);
	ck_refused(sfopen(NULL, "f", unmapped), NULL, EFAULT);
	ck_refused(sfclose(wild), -1, EBADF);
	ck_assert_int_eq(sfclose(w), 0);
}
END_TEST

/* A valid call passes as SFIO takes it: a record asked NUL-terminated. */
START_TEST(a_record_comes_back_as_a_string)
{
	static char text[] = "one\ntwo\n";
	Sfio_t *f = sfnew(NULL, text, sizeof text - 1, -1, SF_STRING | SF_READ);
	char *record = sfgetr(f, '\n', SF_STRING);

	ck_assert_ptr_nonnull(record);
	ck_assert_str_eq(record, "one");
	ck_refused(sfgetr(f, '\n', 0100000), NULL, EINVAL);
	ck_assert_int_eq(sfclose(f), 0);
}
END_TEST

START_TEST(scanf_strings_are_bounded_by_their_destination)
{
	char *p = pages(2);
	char *last_bytes = p + 4096 - 4;  /* 4 bytes, then an unmapped page */

	munmap(p + 4096, 4096);
	ck_assert_int_eq(sfsscanf("abcdefgh", "%s", last_bytes), 1);
	ck_assert_str_eq(last_bytes, "abc");  /* cut to what the 4 bytes hold */
	ck_refused(sfsscanf("abc", "%s", p + 4095), -1, EFAULT);  /* room for the NUL only */
}
END_TEST

START_TEST(strings_are_checked_to_their_nul_or_precision)
{
	Sfio_t *w = scratch("w");
	char *p = pages(2), *end = p + 4096 - 3, *long_text = malloc(200000);

	munmap(p + 4096, 4096);
	memcpy(end, "ab", 3);  /* "ab" and its NUL end at the unmapped page */
	ck_assert_int_eq(sfputr(w, end, -1), 2);
	memset(p, 'x', 4096);  /* no NUL before it now */
	ck_refused(sfputr(w, p, -1), -1, EFAULT);
	ck_assert_int_eq(sfprintf(w, "%.10s", p + 4096 - 10), 10);  /* reads no further */
	ck_refused(sfprintf(w, "%.11s", p + 4096 - 10), -1, EFAULT);
	memset(long_text, 'y', 199999);  /* longer than one step of the check */
	long_text[199999] = '\0';
	ck_assert_int_eq(sfputr(w, long_text, -1), 199999);
	sfclose(w);
}
END_TEST

START_TEST(a_loop_on_one_stream_and_buffer_checks_once)
{
	Sfio_t *f = scratch("w+");
	char block[757] = { 'b' };
	int i, all = 1;

	/* no assertions inside the loops: Check's own bookkeeping frees memory,
	 * which (rightly) makes remembered memory checks stale */
	all &= sfwrite(f, block, sizeof(block)) == sizeof(block) && sfputc(f, 'x') == 'x';
	rs_counts = (struct rs_counts){ 0 };
	for (i = 0; i < 1000; i++)
		all &= sfwrite(f, block, sizeof(block)) == sizeof(block) && sfputc(f, 'c') == 'c';
	ck_assert(all);
	ck_assert_uint_eq(rs_counts.stream_lookups, 0);
	ck_assert_uint_eq(rs_counts.memory_checks, 0);
	sfseek(f, 0, SEEK_SET);
	rs_counts = (struct rs_counts){ 0 };
	for (i = 0; i < 1000; i++)
		all &= sfread(f, block, sizeof(block)) == sizeof(block);
	ck_assert(all);
	ck_assert_uint_eq(rs_counts.memory_checks, 1);  /* once more, for writing into it */
	sfclose(f);
}
END_TEST

START_TEST(a_closed_stream_is_refused_though_remembered)
{
	Sfio_t *f = scratch("w");

	ck_assert_int_eq(sfputc(f, 'a'), 'a');
	ck_assert_int_eq(sfputc(f, 'b'), 'b');  /* remembered */
	ck_assert_int_eq(sfclose(f), 0);
	ck_refused(sfputc(f, 'c'), -1, EBADF);
	ck_refused(sfwrite(f, "d", 1), -1, EBADF);
}
END_TEST

/* The first stream found open after a close is remembered alone: NULL
 * must not be taken for the other remembered one. */
START_TEST(null_is_refused_after_a_stream_is_remembered)
{
	Sfio_t *f = scratch("w+");
	char block[8] = { 0 };

	ck_assert_int_eq(sfclose(scratch("w")), 0);  /* a new generation */
	ck_assert_int_eq(sfwrite(f, "abcd", 4), 4);
	ck_assert_int_eq(sfseek(f, 0, SEEK_SET), 0);
	ck_refused(sfread(NULL, block, 4), -1, EBADF);
	ck_refused(sfwrite(NULL, block, 4), -1, EBADF);
	ck_assert_ptr_null(sfgetr(NULL, '\n', 0));
	ck_assert_int_eq(sfvalue(NULL), 0);
	ck_assert_int_eq(sfclose(f), 0);
}
END_TEST

START_TEST(a_stream_swapped_away_is_refused)
{
	Sfio_t *f = scratch("w+"), *moved;

	ck_assert_int_eq(sfputc(f, 'a'), 'a');
	moved = sfswap(f, NULL);
	ck_assert_ptr_nonnull(moved);
	ck_refused(sfputc(f, 'b'), -1, EBADF);
	ck_assert_int_eq(sfputc(moved, 'b'), 'b');
	ck_assert_int_eq(sfclose(moved), 0);
}
END_TEST

START_TEST(streams_sfio_closes_itself_are_forgotten)
{
	Sfio_t *base = scratch("w+");
	Sfio_t *top = sfnew(NULL, "text\n", 5, -1, SF_STRING | SF_READ);

	ck_assert_ptr_eq(sfstack(base, top), base);
	ck_assert_int_eq(sfclose(base), 0);  /* closes the stack: top too */
	ck_refused(sfgetc(top), -1, EBADF);
}
END_TEST

START_TEST(unmapped_memory_is_refused_though_remembered)
{
	Sfio_t *f = scratch("w");
	char *p = pages(2);

	ck_assert_int_eq(sfwrite(f, p, 8192), 8192);
	ck_assert_int_eq(sfwrite(f, p, 8192), 8192);  /* remembered */
	munmap(p, 8192);
	ck_refused(sfwrite(f, p, 8192), -1, EFAULT);
	sfclose(f);
}
END_TEST

START_TEST(reprotected_memory_is_refused_though_remembered)
{
	Sfio_t *f = scratch("w+");
	char *p = pages(1);

	ck_assert_int_eq(sfwrite(f, p, 4096), 4096);
	sfseek(f, 0, SEEK_SET);
	ck_assert_int_eq(sfread(f, p, 100), 100);  /* remembered writable */
	mprotect(p, 4096, PROT_READ);
	sfseek(f, 0, SEEK_SET);
	ck_refused(sfread(f, p, 100), -1, EFAULT);
	ck_assert_int_eq(sfwrite(f, p, 100), 100);  /* reading it is still fine */
	sfclose(f);
}
END_TEST

/* A program reading one stream and writing another is checked once for
 * each; closing either forgets both, and the closed one is refused. */
START_TEST(two_streams_in_turn_are_looked_up_once)
{
	Sfio_t *a = scratch("w"), *b = sfopen(NULL, "other.dat", "w");
	int i, all = 1;

	ck_assert_ptr_nonnull(b);
	all &= sfwrite(a, "a", 1) == 1 && sfwrite(b, "b", 1) == 1;
	rs_counts = (struct rs_counts){ 0 };
	for (i = 0; i < 100; i++)
		all &= sfwrite(a, "a", 1) == 1 && sfwrite(b, "b", 1) == 1;
	ck_assert(all);
	ck_assert_uint_eq(rs_counts.stream_lookups, 0);
	ck_assert_int_eq(sfclose(a), 0);
	ck_refused(sfwrite(a, "a", 1), -1, EBADF);
	ck_assert_int_eq(sfwrite(b, "b", 1), 1);
	sfclose(b);
}
END_TEST

/* A memory check proves the pages it touched and no other: access is
 * granted a page at a time, so the rest of a checked page is trusted, but
 * the page after it is asked about, and refused when it cannot be used. */
START_TEST(a_check_proves_its_pages_and_no_more)
{
	Sfio_t *f = scratch("w+");
	char *p = pages(3);

	mprotect(p + 4096, 4096, PROT_READ);
	munmap(p + 8192, 4096);
	ck_assert_int_eq(sfwrite(f, p, 10), 10);
	rs_counts = (struct rs_counts){ 0 };
	ck_assert_int_eq(sfwrite(f, p + 4000, 96), 96);
	ck_assert_uint_eq(rs_counts.memory_checks, 0);  /* the same page */
	ck_assert_int_eq(sfwrite(f, p + 4000, 200), 200);
	ck_assert_uint_eq(rs_counts.memory_checks, 1);  /* the next page, read-only */
	sfseek(f, 0, SEEK_SET);
	ck_refused(sfread(f, p + 4090, 10), -1, EFAULT);
	ck_assert_int_eq(sfread(f, p + 4000, 10), 10);
	ck_refused(sfwrite(f, p + 8000, 300), -1, EFAULT);
	ck_refused(sfputr(f, p + 4096, -1), -1, EFAULT);  /* no NUL before the hole */
	sfclose(f);
}
END_TEST

/* A printf format is parsed once and kept, but its arguments are checked on
 * every call, and a kept format whose bytes changed or whose memory went
 * away is not trusted from memory. */
START_TEST(a_kept_format_is_checked_again_when_it_changes)
{
	Sfio_t *f = scratch("w");
	char *page = pages(1), many[64] = "";
	int i;

	strcpy(page, "%d %s\n");
	ck_assert_int_eq(sfprintf(f, page, 1, "one"), 6);
	ck_assert_int_eq(sfprintf(f, page, 2, "two"), 6);  /* kept */
	ck_refused(sfprintf(f, page, 3, (char *)1), -1, EFAULT);
	strcpy(page, "%s %d\n");  /* the same pointer, other conversions */
	ck_refused(sfprintf(f, page, (char *)1, "x"), -1, EFAULT);
	strcpy(page, "%d %!\n");
	ck_refused(sfprintf(f, page, 5), -1, EINVAL);
	strcpy(page, "%d\n");
	ck_assert_int_eq(sfprintf(f, page, 6), 2);
	munmap(page, 4096);
	ck_refused(sfprintf(f, page, 7), -1, EFAULT);
	for (i = 0; i < 20; i++)  /* more conversions than are kept */
		strcat(many, "%d");
	strcat(many, "%s");
	ck_refused(sfprintf(f, many, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
			    18, 19, (char *)1), -1, EFAULT);
	sfclose(f);
}
END_TEST

/* A format kept from a read-only segment (a string literal) is not compared
 * while the mapping epoch holds; made writable and changed, it is parsed
 * again, so its new conversion's argument is checked. */
/* The formats answered in line start empty, and an empty one matches no
 * format, NULL included, whatever the epoch (a program that changed no
 * mapping is still in epoch 0). */
START_TEST(a_null_format_is_refused_in_the_first_epoch)
{
	uint64_t epoch = rs_memory_epoch;
	char buf[16];

	rs_memory_epoch = 0;
	ck_refused(sfsprintf(buf, sizeof(buf), NULL), -1, EFAULT);
	rs_memory_epoch = epoch + 1;  /* on, never back: nothing older revives */
}
END_TEST

START_TEST(a_literal_format_made_writable_and_changed_is_parsed_again)
{
	static const char format[] = "%p|";
	uintptr_t page = (uintptr_t)format & ~(uintptr_t)4095;
	char buf[64];

	ck_assert_int_gt(sfsprintf(buf, sizeof(buf), format, (void *)1), 0);
	ck_assert_int_gt(sfsprintf(buf, sizeof(buf), format, (void *)1), 0);  /* kept */
	ck_assert_int_eq(mprotect((void *)page, 8192, PROT_READ | PROT_WRITE), 0);
	*(volatile char *)&format[1] = 's';
	ck_refused(sfsprintf(buf, sizeof(buf), format, (char *)1), -1, EFAULT);
	*(volatile char *)&format[1] = 'p';
	ck_assert_int_gt(sfsprintf(buf, sizeof(buf), format, (void *)1), 0);
}
END_TEST

/* A kept format of integer-class arguments checks only its pointers, read
 * from their places in the list: each is still checked on every call,
 * wherever it lies (in a register's slot, on the stack, in a list already
 * started), a %.*s precision bounds the read, and %n needs a writable
 * target.  A format with a double is walked, and checked the same. */
START_TEST(a_kept_format_checks_its_pointer_arguments_on_every_call)
{
	char *p = pages(2), buf[128];
	char *end = p + 4096 - 4;  /* "ppp" then the unmapped page, no NUL */
	int i, n = 0;

	munmap(p + 4096, 4096);
	for (i = 0; i < 3; i++) {  /* parsed, then kept */
		ck_assert_int_eq(sfsprintf(buf, sizeof(buf), "%08lu %lu %.*s", 1UL, 2UL, 4, end), 15);
		ck_refused(sfsprintf(buf, sizeof(buf), "%08lu %lu %.*s", 1UL, 2UL, 5, end), -1, EFAULT);
		ck_refused(sfsprintf(buf, sizeof(buf), "%08lu %lu %.*s", 1UL, 2UL, -1, end), -1, EFAULT);
		ck_refused(sfsprintf(buf, sizeof(buf), "%08lu %lu %.*s", 1UL, 2UL, 1, (char *)1), -1, EFAULT);
		ck_assert_int_eq(sfsprintf(buf, sizeof(buf), "%.3s|%s", end, "ok"), 6);
		ck_refused(sfsprintf(buf, sizeof(buf), "%.3s|%s", end, end), -1, EFAULT);
		ck_refused(sfsprintf(buf, sizeof(buf), "%d %d %d %d %d %d %d %s", 1, 2, 3, 4, 5, 6, 7,
				     (char *)1), -1, EFAULT);
		ck_assert_int_eq(sfsprintf(buf, sizeof(buf), "%d %d %d %d %d %d %d %s", 1, 2, 3, 4, 5,
					   6, 7, "x"), 15);
		ck_refused(vsprintf_after_first(buf, sizeof(buf), "%s", 0, (char *)1), -1, EFAULT);
		ck_assert_int_eq(vsprintf_after_first(buf, sizeof(buf), "%s", 1, "x"), 1);
		ck_assert_int_eq(sfsprintf(buf, sizeof(buf), "%*d%n", 5, 1, &n), 5);
		ck_assert_int_eq(n, 5);
		ck_refused(sfsprintf(buf, sizeof(buf), "%*d%n", 5, 1, (int *)"literal"), -1, EFAULT);
		ck_refused(sfsprintf(buf, sizeof(buf), "%f %s", 1.0, (char *)1), -1, EFAULT);
		ck_assert_int_eq(sfsprintf(buf, sizeof(buf), "%f %s", 1.0, "x"), 10);
	}
}
END_TEST

/* sfputr copies into the buffer itself only from memory remembered
 * readable: a string that runs on past that memory is checked in full
 * (and written when the rest can be read, refused when it cannot), and a
 * closed stream or an unreadable string is refused as before. */
START_TEST(sfputr_copies_only_from_memory_known_readable)
{
	Sfio_t *f = scratch("w"), *closed = scratch("w");
	char *p = pages(2);

	p[100] = '\0';
	ck_assert_int_eq(sfputr(f, p, '\n'), 101);  /* checked, its page remembered */
	ck_assert_int_eq(sfputr(f, p, '\n'), 101);  /* copied from memory */
	p[100] = 'p';
	p[4096 + 10] = '\0';
	ck_assert_int_eq(sfputr(f, p + 4000, -1), 96 + 10);  /* on into the next page */
	munmap(p + 4096, 4096);
	p[4095] = '\0';
	ck_assert_int_eq(sfputr(f, p + 4000, '\n'), 96);  /* page 0 remembered anew */
	p[4095] = 'p';
	ck_refused(sfputr(f, p + 4000, '\n'), -1, EFAULT);  /* on into the unmapped page */
	ck_refused(sfputr(f, "x", 256), -1, EINVAL);
	ck_assert_int_eq(sftell(f), 101 + 101 + 106 + 96);
	sfclose(closed);
	ck_refused(sfputr(closed, "x", '\n'), -1, EBADF);
	mprotect(p, 4096, PROT_NONE);
	ck_refused(sfputr(f, p, '\n'), -1, EFAULT);
	ck_assert_int_eq(sftell(f), 101 + 101 + 106 + 96);
	sfclose(f);
}
END_TEST

/* Two blocks of the break heap, on pages of their own, and a page inside
 * the second: what the heap rule's tests reprotect. */
struct heap_blocks {
	char *small, *large, *page;
};

static struct heap_blocks heap_blocks(void)
{
	struct heap_blocks h = { malloc(64), malloc(64 << 10), NULL };

	ck_assert_ptr_nonnull(h.small);
	ck_assert_ptr_nonnull(h.large);
	memset(h.small, 's', 64);
	memset(h.large, 'l', 64 << 10);
	h.page = (char *)(((uintptr_t)h.large + 8192) & ~(uintptr_t)4095);
	return h;
}

static void heap_blocks_free(struct heap_blocks h)
{
	ck_assert_int_eq(mprotect(h.page, 4096, PROT_READ | PROT_WRITE), 0);
	free(h.large);
	free(h.small);
}

/* Inside the break heap one pass proves all of it, since brk() made it
 * readable and writable: a block on other pages needs no check of its own.
 * A page of it reprotected is refused all the same. */
START_TEST(the_break_heap_is_remembered_whole)
{
	Sfio_t *f = scratch("w");
	struct heap_blocks h = heap_blocks();

	ck_assert_int_eq(sfwrite(f, h.small, 64), 64);
	rs_counts = (struct rs_counts){ 0 };
	ck_assert_int_eq(sfwrite(f, h.large + (32 << 10), 100), 100);
	ck_assert_uint_eq(rs_counts.memory_checks, 0);
	ck_assert_int_eq(mprotect(h.page, 4096, PROT_NONE), 0);
	ck_refused(sfwrite(f, h.page + 10, 10), -1, EFAULT);
	heap_blocks_free(h);
	sfclose(f);
}
END_TEST

/* The heap rule trusts only a heap no watched call has reached: a page of
 * it reprotected before any check is refused after a pass elsewhere in the
 * heap, though the epoch has not moved since. */
START_TEST(a_heap_page_reprotected_before_the_heap_passed_is_refused)
{
	Sfio_t *f = scratch("w");
	struct heap_blocks h = heap_blocks();

	ck_assert_int_eq(mprotect(h.page, 4096, PROT_NONE), 0);
	ck_assert_int_eq(sfwrite(f, h.small, 64), 64);
	ck_refused(sfwrite(f, h.page + 10, 10), -1, EFAULT);
	heap_blocks_free(h);
	sfclose(f);
}
END_TEST

/* A guard page installed by process_madvise() (Linux 6.13 on) faults like
 * an unmapped one: the call is watched, and ends the heap rule.  A kernel
 * without guard pages refuses the advice, and there is nothing to see. */
START_TEST(a_heap_page_guarded_by_process_madvise_is_refused)
{
	Sfio_t *f = scratch("w");
	struct heap_blocks h = heap_blocks();
	int pidfd = pidfd_open(getpid(), 0);
	struct iovec range = { h.page, 4096 };

	ck_assert_int_ge(pidfd, 0);
	if (process_madvise(pidfd, &range, 1, GUARD_INSTALL, 0) == 4096) {
		ck_assert_int_eq(sfwrite(f, h.small, 64), 64);
		ck_refused(sfwrite(f, h.page + 10, 10), -1, EFAULT);
		ck_assert_int_eq(process_madvise(pidfd, &range, 1, GUARD_REMOVE, 0), 4096);
	}
	close(pidfd);
	heap_blocks_free(h);
	sfclose(f);
}
END_TEST

/* mmap64 is a name of its own (what mmap becomes with 64-bit file
 * offsets): a fixed mapping made by it makes remembered checks stale. */
START_TEST(a_fixed_mmap64_is_seen)
{
	Sfio_t *f = scratch("w");
	char *p = pages(1);

	ck_assert_int_eq(sfwrite(f, p, 10), 10);
	ck_assert_ptr_eq(mmap64(p, 4096, PROT_NONE, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
			 p);
	ck_refused(sfwrite(f, p, 10), -1, EFAULT);
	sfclose(f);
}
END_TEST

/* The aligned allocations may lower the break by glibc's own means (the
 * spare ends of their block freed inside it): each moves the epoch. */
START_TEST(an_aligned_allocation_makes_checks_stale)
{
	Sfio_t *f = scratch("w");
	char block[100] = { 0 };
	void *q = NULL;

	ck_assert_int_eq(sfwrite(f, block, sizeof(block)), sizeof(block));
	ck_assert_int_eq(posix_memalign(&q, 4096, 64), 0);
	rs_counts = (struct rs_counts){ 0 };
	ck_assert_int_eq(sfwrite(f, block, sizeof(block)), sizeof(block));
	ck_assert_uint_eq(rs_counts.memory_checks, 1);
	free(q);
	sfclose(f);
}
END_TEST

/* A free() counts only when it can take memory away by a call no wrapper
 * sees (robust_mapwatch.c); libgvpr.so.2's allocator, which this program
 * gets, gives memory back only by a watched sbrk(), so freeing other memory
 * leaves a remembered check standing. */
START_TEST(a_free_of_other_memory_keeps_the_check)
{
	Sfio_t *f = scratch("w");
	char block[100] = { 0 }, *other = malloc(64);
	int first, again;

	first = sfwrite(f, block, sizeof(block)) == sizeof(block);
	free(other);
	rs_counts = (struct rs_counts){ 0 };
	again = sfwrite(f, block, sizeof(block)) == sizeof(block);
	ck_assert(first && again);
	ck_assert_uint_eq(rs_counts.memory_checks, 0);
	sfclose(f);
}
END_TEST

/* Freed memory the allocator gives back must not be trusted from memory:
 * blocks far larger than the heap holds are freed, and a remembered write
 * from each must give what the memory now allows (a stale check would make
 * the write fault).  Using p after free() is the point of the test. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuse-after-free"
START_TEST(memory_freed_back_to_the_system_is_checked_again)
{
	Sfio_t *f = scratch("w");
	size_t n = (size_t)8 << 20;  /* well past any allocator's mmap threshold */
	int round;

	for (round = 0; round < 4; round++) {
		char *p = malloc(n);

		ck_assert_ptr_nonnull(p);
		memset(p, 'm', n);
		ck_assert_int_eq(sfwrite(f, p, n), (ssize_t)n);
		free(p);
		errno = 0;
		ck_assert_int_eq(sfwrite(f, p, n), rs_memory_ok(p, n, 0) ? (ssize_t)n : -1);
	}
	sfclose(f);
}
END_TEST
#pragma GCC diagnostic pop

/* The in-line sfputc and sfgetc trust a stream for one direction only, and
 * only until SFIO code runs: a stream read from is not written through, and
 * a stream whose writing sfset() turned off is refused at once. */
START_TEST(the_inline_pair_trusts_one_direction)
{
	Sfio_t *f = scratch("w");

	ck_assert_int_eq(sfputc(f, 'a'), 'a');
	sfclose(f);
	f = scratch("r");
	ck_assert_int_eq(sfgetc(f), 'a');
	ck_assert_int_eq(sfgetc(f), -1);
	ck_refused(sfputc(f, 'b'), -1, EBADF);
	sfclose(f);
}
END_TEST

START_TEST(a_mode_turned_off_is_refused_inline)
{
	Sfio_t *f = scratch("w+");

	ck_assert_int_eq(sfputc(f, 'a'), 'a');
	ck_assert_int_eq(sfputc(f, 'b'), 'b');  /* trusted in-line */
	sfset(f, SF_WRITE, 0);
	ck_assert_int_eq(f->flags & SF_WRITE, 0);  /* what the test is about */
	ck_refused(sfputc(f, 'c'), -1, EBADF);
	sfclose(f);
}
END_TEST

/* The in-line pair works on a pointer only when it is a slot of the stream
 * pool (robust_pool.h): every stream-making function puts its stream there,
 * and every other pointer takes the function's full check. */
START_TEST(streams_made_land_in_the_pool)
{
	Sfio_t *made[5], *moved;
	unsigned i;

	made[0] = scratch("w+");
	made[1] = sfnew(NULL, "text\n", 5, -1, SF_STRING | SF_READ);
	made[2] = sftmp(0);
	made[3] = sftmp(64);
	made[4] = sfpopen(NULL, "echo piped", "r");
	for (i = 0; i < 5; i++) {
		ck_assert_ptr_nonnull(made[i]);
		ck_assert_msg(rs_in_pool(made[i]), "stream %u is not in the pool", i);
	}
	ck_assert_int_eq(sfgetc(made[4]), 'p');
	moved = sfswap(made[0], NULL);
	ck_assert(rs_in_pool(moved));
	ck_assert_int_eq(sfputc(moved, 'a'), 'a');
	ck_assert_int_eq(sfclose(moved), 0);
	for (i = 1; i < 5; i++)
		ck_assert_int_eq(sfclose(made[i]), 0);
}
END_TEST

START_TEST(a_closed_pool_stream_is_cleared_and_refused)
{
	Sfio_t *f = scratch("w+");

	ck_assert(rs_in_pool(f));
	ck_assert_int_eq(sfputc(f, 'a'), 'a');
	ck_assert_int_eq(sfputc(f, 'b'), 'b');  /* in line */
	ck_assert_int_eq(sfclose(f), 0);
	ck_assert_ptr_null(f->next);  /* the slot's pointers, what the in-line test reads */
	ck_assert_ptr_null(f->endw);
	ck_assert_ptr_null(f->endr);
	ck_refused(sfputc(f, 'c'), -1, EBADF);
	ck_refused(sfgetc(f), -1, EBADF);
}
END_TEST

/* A pointer inside a live stream's slot reads as a stream whose "next" is
 * the real one's endw and whose "endr" lies further on: taken in line, it
 * would read or write through whatever those fields hold. */
START_TEST(pointers_into_a_slot_are_refused)
{
	Sfio_t *f = scratch("w+");
	static const size_t offsets[] = { 1, 8, 16, 24, 64, RS_SLOT / 2, RS_SLOT - 8 };
	size_t i;

	ck_assert_int_eq(sfputc(f, 'a'), 'a');
	for (i = 0; i < sizeof(offsets) / sizeof(offsets[0]); i++) {
		Sfio_t *inside = (Sfio_t *)((char *)f + offsets[i]);

		ck_refused(sfputc(inside, 'x'), -1, EBADF);
		ck_refused(sfgetc(inside), -1, EBADF);
	}
	ck_assert_int_eq(sfputc(f, 'b'), 'b');
	sfclose(f);
}
END_TEST

START_TEST(a_slot_never_used_is_refused)
{
	Sfio_t *unused = (Sfio_t *)&rs_pool[RS_SLOTS - 1];
	uintptr_t pool = (uintptr_t)rs_pool;

	__asm__("" : "+r"(pool));  /* an address the compiler cannot place */

	ck_refused(sfputc(unused, 'x'), -1, EBADF);
	ck_refused(sfgetc(unused), -1, EBADF);
	ck_refused(sfgetc((Sfio_t *)(pool + sizeof(rs_pool))), -1, EBADF);  /* one past the pool */
	ck_refused(sfgetc((Sfio_t *)(pool - RS_SLOT)), -1, EBADF);          /* a slot before it */
}
END_TEST

/* As with a malloc()ed struct reused, a pointer kept past sfclose() names
 * whatever stream later takes its slot; slots go round the pool, so that
 * happens only after every other free slot was used. */
START_TEST(a_reused_slot_names_the_new_stream)
{
	Sfio_t *old = sfnew(NULL, "old", 3, -1, SF_STRING | SF_READ), *made[RS_SLOTS], *f = NULL;
	unsigned n = 0, i;

	ck_assert(rs_in_pool(old));
	ck_assert_int_eq(sfclose(old), 0);
	while (n < RS_SLOTS && f != old) {
		f = made[n++] = sfnew(NULL, "new", 3, -1, SF_STRING | SF_READ);
		ck_assert_ptr_nonnull(f);
	}
	ck_assert_ptr_eq(f, old);
	ck_assert_uint_gt(n, 1);  /* not the next stream made */
	ck_assert_int_eq(sfgetc(old), 'n');
	for (i = 0; i < n; i++)
		sfclose(made[i]);
}
END_TEST

START_TEST(a_stream_is_refused_inline_for_the_other_direction)
{
	Sfio_t *w = scratch("w"), *r;

	ck_assert_int_eq(sfputc(w, 'a'), 'a');
	ck_assert_int_eq(sfputc(w, 'b'), 'b');
	ck_refused(sfgetc(w), -1, EBADF);
	sfclose(w);
	r = scratch("r");
	ck_assert_int_eq(sfgetc(r), 'a');
	ck_refused(sfputc(r, 'c'), -1, EBADF);
	ck_assert_int_eq(sfgetc(r), 'b');
	sfclose(r);
}
END_TEST

/* SFIO refuses to close a stream locked by sfreserve(SF_LOCKR) and leaves
 * it in its slot, locked; Robust SFIO has forgotten it all the same. */
START_TEST(a_stream_whose_close_failed_is_refused)
{
	Sfio_t *f = sfnew(NULL, "locked", 6, -1, SF_STRING | SF_READ);

	ck_assert_ptr_nonnull(sfreserve(f, 1, SF_LOCKR));
	ck_assert_int_eq(sfclose(f), -1);
	ck_refused(sfgetc(f), -1, EBADF);
}
END_TEST

/* With every slot taken, streams are made outside the pool and work
 * through the function; once slots are free, streams use them again. */
START_TEST(a_full_pool_still_makes_streams)
{
	Sfio_t *made[RS_SLOTS + 4];
	unsigned i, outside = 0;

	for (i = 0; i < RS_SLOTS + 4; i++) {
		made[i] = sfnew(NULL, "abc", 3, -1, SF_STRING | SF_READ);
		ck_assert_ptr_nonnull(made[i]);
		outside += !rs_in_pool(made[i]);
		ck_assert_int_eq(sfgetc(made[i]), 'a');
		ck_assert_int_eq(sfgetc(made[i]), 'b');
	}
	ck_assert_uint_ge(outside, 4);
	for (i = 0; i < RS_SLOTS + 4; i++)
		ck_assert_int_eq(sfclose(made[i]), 0);
	ck_refused(sfgetc(made[RS_SLOTS + 3]), -1, EBADF);  /* closed, off the pool */
	made[0] = sfnew(NULL, "abc", 3, -1, SF_STRING | SF_READ);
	ck_assert(rs_in_pool(made[0]));
	sfclose(made[0]);
}
END_TEST

/* SFIO's standard streams are static: closed, they can be opened again. */
START_TEST(standard_streams_stay_known_after_close)
{
	ck_assert_int_eq(sfclose(sfstderr), 0);
	ck_assert_int_eq(sfputc(sfstderr, 'x'), -1);
	ck_assert_ptr_eq(sfopen(sfstderr, "stderr.txt", "w"), sfstderr);
	ck_assert_int_eq(sfputc(sfstderr, 'x'), 'x');
}
END_TEST

int main(void)
{
	Suite *s = suite_create("robust_sfio");
	TCase *t = tcase_create("library");

	tcase_add_checked_fixture(t, check_enter_test_dir, NULL);
	tcase_add_test(t, wild_values_get_sfio_error_values_and_errno);
	tcase_add_test(t, a_record_comes_back_as_a_string);
	tcase_add_test(t, scanf_strings_are_bounded_by_their_destination);
	tcase_add_test(t, strings_are_checked_to_their_nul_or_precision);
	tcase_add_test(t, a_loop_on_one_stream_and_buffer_checks_once);
	tcase_add_test(t, a_closed_stream_is_refused_though_remembered);
	tcase_add_test(t, null_is_refused_after_a_stream_is_remembered);
	tcase_add_test(t, a_stream_swapped_away_is_refused);
	tcase_add_test(t, streams_sfio_closes_itself_are_forgotten);
	tcase_add_test(t, two_streams_in_turn_are_looked_up_once);
	tcase_add_test(t, a_check_proves_its_pages_and_no_more);
	tcase_add_test(t, a_kept_format_is_checked_again_when_it_changes);
	tcase_add_test(t, a_null_format_is_refused_in_the_first_epoch);
	tcase_add_test(t, a_literal_format_made_writable_and_changed_is_parsed_again);
	tcase_add_test(t, a_kept_format_checks_its_pointer_arguments_on_every_call);
	tcase_add_test(t, sfputr_copies_only_from_memory_known_readable);
	tcase_add_test(t, unmapped_memory_is_refused_though_remembered);
	tcase_add_test(t, reprotected_memory_is_refused_though_remembered);
	tcase_add_test(t, the_break_heap_is_remembered_whole);
	tcase_add_test(t, a_heap_page_reprotected_before_the_heap_passed_is_refused);
	tcase_add_test(t, a_heap_page_guarded_by_process_madvise_is_refused);
	tcase_add_test(t, a_fixed_mmap64_is_seen);
	tcase_add_test(t, an_aligned_allocation_makes_checks_stale);
	tcase_add_test(t, a_free_of_other_memory_keeps_the_check);
	tcase_add_test(t, memory_freed_back_to_the_system_is_checked_again);
	tcase_add_test(t, the_inline_pair_trusts_one_direction);
	tcase_add_test(t, a_mode_turned_off_is_refused_inline);
	tcase_add_test(t, standard_streams_stay_known_after_close);
	tcase_add_test(t, streams_made_land_in_the_pool);
	tcase_add_test(t, a_closed_pool_stream_is_cleared_and_refused);
	tcase_add_test(t, pointers_into_a_slot_are_refused);
	tcase_add_test(t, a_slot_never_used_is_refused);
	tcase_add_test(t, a_reused_slot_names_the_new_stream);
	tcase_add_test(t, a_stream_is_refused_inline_for_the_other_direction);
	tcase_add_test(t, a_stream_whose_close_failed_is_refused);
	tcase_add_test(t, a_full_pool_still_makes_streams);
	suite_add_tcase(s, t);
	return check_run_in_scratch(s);
}
