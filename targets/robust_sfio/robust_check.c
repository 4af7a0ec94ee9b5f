/*
 * The remembered checks of robust_check.h.  Eight memory ranges are kept,
 * replaced in turn, so that a copy loop (sfread into a buffer, sfwrite out of
 * it) hits on both calls, and so does a record loop that touches a line in
 * SFIO's buffer, a buffer of its own and a format or two per record.  Each
 * kind of question keeps a hint of the ranges that answered it last, tried
 * in line (robust_check.h); this file holds the search behind the hint and
 * the checks that ask the kernel.
 *
 * A range is remembered whole pages wide: the kernel grants and takes away
 * access a page at a time, so a byte that passed proves its whole page, and
 * the next line in SFIO's buffer or the next block the allocator hands out
 * in the same pages hits.  Inside the break heap, while no watched call
 * has reached it, a pass proves the whole heap, readable and writable, as
 * brk() made it (robust_mapwatch.c): a record loop's blocks, wherever the
 * allocator puts them, and SFIO's buffers are then one range, which the
 * hints name every time.  A range that touches or overlaps one of the same
 * access and epoch is merged into it, so memory walked through page by page
 * (a buffer, a growing heap) stays one range.
 */
#include <string.h>

#include "robust_check.h"
#include "robust_memory.h"

#define PAGE 4096u
#define STRING_STEP ((size_t)64 << 10)  /* what one system call asks about a string */

struct rs_hot rs_hot = { .generation = UINT64_MAX };  /* nothing yet */
uint64_t rs_memory_epoch;
struct rs_counts rs_counts;

/* range[0, used) passed in epoch `epoch`; a new epoch empties them all.
 * Replaced in turn once all are used. */
struct rs_ranges rs_ranges;
static unsigned next_range;
struct rs_hint rs_buffer_hint[2], rs_string_hint, rs_format_hint, rs_argument_hint;

int rs_stream_open_slow(const Sfio_t *f)
{
	rs_counts.stream_lookups++;
	if (!rs_stream_known(f)) {
		errno = EBADF;
		return 0;
	}
	/* A new generation forgets both: f stands in for the one before, since
	 * a NULL kept there would make rs_stream_remembered(NULL) true. */
	if (rs_hot.generation != rs_registry_generation) {
		rs_hot.stream[0] = f;
		rs_hot.generation = rs_registry_generation;
	}
	rs_hot.stream[1] = rs_hot.stream[0];
	rs_hot.stream[0] = f;
	return 1;
}

static size_t smaller(size_t a, size_t b)
{
	return a < b ? a : b;
}

static int fits(const struct rs_range *r, uintptr_t start, size_t n, int want_write)
{
	return start - r->start < r->end - r->start && n <= r->end - start &&
	       r->writable >= want_write;
}

/* The hint's other recent range first (a loop alternating between a line
 * and a record), then the rest in order. */
const struct rs_range *rs_covering_search(uintptr_t start, size_t n, int want_write,
					  struct rs_hint *hint)
{
	unsigned i, second = hint->last[1];

	if (rs_ranges.epoch != rs_memory_epoch)
		return NULL;
	for (i = 0; i < rs_ranges.used; i++) {
		unsigned at = i == 0 ? second : i == second ? 0 : i;

		if (at < rs_ranges.used && fits(&rs_ranges.range[at], start, n, want_write)) {
			hint->last[1] = hint->last[0];
			hint->last[0] = (unsigned char)at;
			return &rs_ranges.range[at];
		}
	}
	return NULL;
}

/* The pages holding [start, end), end > start; an end past the last page
 * stays at the top of the address space. */
static void round_to_pages(uintptr_t *start, uintptr_t *end)
{
	uintptr_t page = rs_memory_page_size();

	*start &= ~(page - 1);
	if (*end <= UINTPTR_MAX - (page - 1))
		*end = (*end + page - 1) & ~(page - 1);
}

static void remember(uintptr_t start, uintptr_t end, int writable)
{
	struct rs_range *r;
	uintptr_t heap_start, heap_end;
	unsigned i;

	round_to_pages(&start, &end);
	/* memory that passed inside the break heap stands for all of it */
	if (rs_break_heap(&heap_start, &heap_end) && start >= heap_start && end <= heap_end) {
		start = heap_start;
		end = heap_end;
		writable = 1;
	}
	if (rs_ranges.epoch != rs_memory_epoch) {
		rs_ranges.used = 0;
		rs_ranges.epoch = rs_memory_epoch;
	}
	for (i = 0; i < rs_ranges.used; i++) {
		r = &rs_ranges.range[i];
		if (r->writable == writable && start <= r->end && r->start <= end) {
			r->start = smaller(r->start, start);
			r->end = r->end > end ? r->end : end;
			return;
		}
	}
	r = &rs_ranges.range[rs_ranges.used < RS_RANGES ? rs_ranges.used++ : next_range++ % RS_RANGES];
	r->start = start;
	r->end = end;
	r->writable = writable;
}

int rs_buffer_check(const void *p, size_t n, int want_write)
{
	uintptr_t start = (uintptr_t)p;

	if (n == 0 || rs_covering_search(start, n, want_write, &rs_buffer_hint[want_write != 0]))
		return 1;
	rs_counts.memory_checks++;
	if (!rs_memory_ok(p, n, want_write)) {
		errno = EFAULT;
		return 0;
	}
	remember(start, start + n, want_write);
	return 1;
}

/* Span by span, the first to the end of s's page: a string may end just
 * before a page it cannot read.  (The in-line rs_string_ok_hinted tried its
 * hinted range; another remembered one may still hold the string.) */
int rs_string_check(const char *s, size_t max, struct rs_hint *hint)
{
	uintptr_t start = (uintptr_t)s;
	const struct rs_range *r = rs_covering_search(start, 1, 0, hint);
	size_t done = 0;

	if (max == 0)
		return 1;
	if (r) {
		size_t known = smaller(r->end - start, max);

		if (known == max || memchr(s, '\0', known))
			return 1;
	}
	for (;;) {
		size_t want = smaller(max - done, done ? STRING_STEP : PAGE - (start & (PAGE - 1)));
		size_t span;
		int ends;

		rs_counts.memory_checks++;
		span = rs_memory_span(s + done, want, 0);
		ends = memchr(s + done, '\0', span) != NULL;
		done += span;
		if (ends || done == max) {
			remember(start, start + done, 0);
			return 1;
		}
		if (span < want) {
			errno = EFAULT;
			return 0;
		}
	}
}

void rs_forget(void)
{
	memset(&rs_ranges, 0, sizeof(rs_ranges));
	rs_hot.stream[0] = rs_hot.stream[1] = NULL;
	rs_hot.generation = UINT64_MAX;
}
