/*
 * Check suite of the crash handler (harness/crashsite.c), in processes of
 * its own: it records where a process died without allocating, leaves with
 * the frames it has when a second fault cuts its unwinding short, and the
 * process dies of the signal it caught.
 */
#include <check.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "crashsite.h"
#include "crashsite_reader.h"

/* Every allocation a process makes once counting is on, counted in memory
 * its parent reads: glibc's own calls (the loader's, the unwinder's) come
 * here too. */
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
static volatile int *allocations;
static int counting;

void *malloc(size_t n)
{
	if (counting)
		(*allocations)++;
	return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	if (counting)
		(*allocations)++;
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
	if (counting)
		(*allocations)++;
	return __libc_realloc(p, n);
}

static void *shared(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(p, MAP_FAILED);
	return p;
}

static __attribute__((noinline)) void write_to_null(void)
{
	*(volatile int *)0 = 1;
}

#if defined(__x86_64__)
/* A frame the unwinder cannot leave: its CFA is %rbp + 16, and %rbp points
 * into the unmapped first page when it executes ud2 (SIGILL).  Finding its
 * caller, the unwinder faults (SIGSEGV) on the way. */
void broken_frame(void);
__asm__(".text\n"
	".type broken_frame, @function\n"
	"broken_frame:\n"
	".cfi_startproc\n"
	"push %rbp\n"
	".cfi_def_cfa_offset 16\n"
	".cfi_offset rbp, -16\n"
	"mov %rsp, %rbp\n"
	".cfi_def_cfa_register rbp\n"
	"mov $0x1000, %rbp\n"
	"ud2\n"
	".cfi_endproc\n"
	".size broken_frame, .-broken_frame\n");
#endif

/* Runs die in a child that installed the handler, as a test process of a
 * fork server would have it; checks that it died of sig having allocated
 * nothing and left its frames; returns its record. */
static struct tb_record *record_death(void (*die)(void), int sig)
{
	struct tb_record *rec = shared(sizeof(*rec));
	pid_t pid;
	int status;

	allocations = shared(sizeof(int));
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (tb_crashsite_install(rec, 1))
			_exit(100);
		rec->nonce = 99;
		rec->pid = getpid();
		rec->stack_top = (uint64_t)(uintptr_t)__builtin_frame_address(0);
		counting = 1;
		die();
		_exit(101);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFSIGNALED(status));
	ck_assert_int_eq(WTERMSIG(status), sig);
	ck_assert_int_eq(*allocations, 0);
	ck_assert_uint_eq(rec->dying_mark, tb_dying_mark(rec));
	ck_assert_uint_eq(rec->frames_mark, tb_frames_mark(rec));
	return rec;
}

START_TEST(handler_records_and_dies_of_its_signal_without_allocating)
{
	struct tb_record *rec = record_death(write_to_null, SIGSEGV);
	struct tb_site site;

	ck_assert_uint_ge(rec->nframes, 3);  /* write_to_null, record_death, this test */
	ck_assert_uint_gt(tb_site_read(rec, &site), TB_SITE_HEAD);
	ck_assert_int_eq(site.signal, SIGSEGV);
	ck_assert_uint_eq(site.fault_addr, 0);
	ck_assert_int_gt(site.stack_depth, 0);
	ck_assert_int_lt(site.stack_depth, 1 << 16);
}
END_TEST

#if defined(__x86_64__)
START_TEST(second_fault_while_unwinding_keeps_the_frames_got_so_far)
{
	/* the first signal, SIGILL, not the unwinder's SIGSEGV */
	struct tb_record *rec = record_death(broken_frame, SIGILL);
	struct tb_site site;

	ck_assert_uint_eq(rec->nframes, 1);  /* broken_frame's pc: its caller was never found */
	ck_assert_uint_gt(tb_site_read(rec, &site), TB_SITE_HEAD);
	ck_assert_int_eq(site.signal, SIGILL);
	/* si_addr of SIGILL: the ud2, a few bytes into broken_frame */
	ck_assert(site.has_fault_addr);
	ck_assert_uint_gt(site.fault_addr, (uintptr_t)broken_frame);
	ck_assert_uint_lt(site.fault_addr, (uintptr_t)broken_frame + 16);
	ck_assert_ptr_null(memchr(site.frames, '\n', site.frames_len));
}
END_TEST
#endif

static Suite *crashsite_suite(void)
{
	Suite *s = suite_create("crashsite");
	TCase *handler = tcase_create("handler");

	tcase_add_test(handler, handler_records_and_dies_of_its_signal_without_allocating);
#if defined(__x86_64__)
	tcase_add_test(handler, second_fault_while_unwinding_keeps_the_frames_got_so_far);
#endif
	suite_add_tcase(s, handler);
	return s;
}

int main(void)
{
	SRunner *runner = srunner_create(crashsite_suite());
	int failed;

	srunner_run_all(runner, CK_NORMAL);
	failed = srunner_ntests_failed(runner);
	srunner_free(runner);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
