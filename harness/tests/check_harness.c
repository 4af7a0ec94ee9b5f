/*
 * Check suite for the executor's parts: case enumeration and sampling, the
 * outcome contract, scratch removal, the store's schema check, and the fork
 * server end to end on a small target defined here.
 */
#include <check.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "forkserver.h"
#include "outcome.h"
#include "scratch.h"
#include "crashsite_reader.h"
#include "store.h"

/* ---- cases ---- */

START_TEST(decode_is_mixed_radix_last_fastest)
{
	const int counts[3] = { 2, 3, 4 };
	int v[3];
	uint64_t total;

	ck_assert_int_eq(tb_cases_total(counts, 3, &total), 0);
	ck_assert_uint_eq(total, 24);
	tb_case_decode(0, counts, 3, v);
	ck_assert(v[0] == 0 && v[1] == 0 && v[2] == 0);
	tb_case_decode(1, counts, 3, v);
	ck_assert(v[0] == 0 && v[1] == 0 && v[2] == 1);
	tb_case_decode(23, counts, 3, v);
	ck_assert(v[0] == 1 && v[1] == 2 && v[2] == 3);
	tb_case_decode(13, counts, 3, v);  /* 1*12 + 0*4 + 1 */
	ck_assert(v[0] == 1 && v[1] == 0 && v[2] == 1);
}
END_TEST

START_TEST(total_overflow_is_refused)
{
	const int counts[8] = { 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000 };
	uint64_t total;

	ck_assert_int_eq(tb_cases_total(counts, 8, &total), -1);
}
END_TEST

START_TEST(draw_all_when_under_cap)
{
	uint64_t out[10];
	long i, n = tb_cases_draw(10, 5000, 1, "f", out);

	ck_assert_int_eq(n, 10);
	for (i = 0; i < n; i++)
		ck_assert_uint_eq(out[i], (uint64_t)i);
}
END_TEST

START_TEST(draw_sample_is_distinct_sorted_and_seeded)
{
	static uint64_t a[5000], b[5000], c[5000], d[5000];
	long i, n = tb_cases_draw(22113, 5000, 1, "fwrite", a);

	ck_assert_int_eq(n, 5000);
	for (i = 1; i < n; i++)
		ck_assert_uint_lt(a[i - 1], a[i]);
	ck_assert_uint_lt(a[n - 1], 22113);
	tb_cases_draw(22113, 5000, 1, "fwrite", b);
	ck_assert_mem_eq(a, b, sizeof(a));
	tb_cases_draw(22113, 5000, 2, "fwrite", c);
	ck_assert(memcmp(a, c, sizeof(a)) != 0);
	tb_cases_draw(22113, 5000, 1, "fread", d);
	ck_assert(memcmp(a, d, sizeof(a)) != 0);
}
END_TEST

/* ---- the outcome contract ---- */

static struct tb_record record_with(int calling, int returned, int cleaned)
{
	struct tb_record r = { .nonce = 0x1234 };

	if (calling)
		r.calling_mark = tb_mark(r.nonce, TB_MARK_CALLING, 0, 0, 0);
	if (returned) {
		r.call.ret = 42;
		r.call.err = 9;
		r.call.error_reported = 1;
		r.returned_mark = tb_returned_mark(&r);
	}
	if (cleaned)
		r.cleaned_mark = tb_mark(r.nonce, TB_MARK_CLEANED, 0, 0, 0);
	return r;
}

static struct tb_result classify_cpu(const struct tb_record *r, int status, int timed_out,
				     long long cpu_us)
{
	struct tb_observation obs = { .status = status, .timed_out = timed_out, .record = r,
				      .cpu_us = cpu_us, .cpu_limit_us = 1000000 };
	struct tb_result res;

	/* what the previous case left: tb_classify must set every field it reports */
	memset(&res, 0xa5, sizeof(res));
	tb_classify(&obs, &res);
	return res;
}

static struct tb_result classify(const struct tb_record *r, int status, int timed_out)
{
	return classify_cpu(r, status, timed_out, 1000);
}

#define EXITED(code) ((code) << 8)
#define KILLED(sig) (sig)

START_TEST(returned_is_pass_with_its_values)
{
	struct tb_record r = record_with(1, 1, 1);
	struct tb_result res = classify(&r, EXITED(0), 0);

	ck_assert_int_eq(res.outcome, TB_PASS);
	ck_assert_int_eq(res.ret, 42);
	ck_assert_int_eq(res.err, 9);
	ck_assert_int_eq(res.error_reported, 1);
	ck_assert_int_eq(res.cleanup_failed, 0);
	/* and nothing of another outcome */
	ck_assert_int_eq(res.signal, -1);
	ck_assert_int_eq(res.exit_status, -1);
	ck_assert_int_eq(res.setup_param, -1);
	ck_assert_int_eq(res.setup_errno, 0);
	ck_assert_uint_eq(res.reason_len, 0);
	ck_assert_int_eq(res.channel_damaged, 0);
}
END_TEST

START_TEST(a_mark_off_by_one_is_no_mark)
{
	/* above or below its value, a mark is damage, never the event it marks */
	struct tb_record r = record_with(1, 0, 1);
	struct tb_result res;

	r.returned_mark = tb_returned_mark(&r) + 1;
	res = classify(&r, EXITED(0), 0);
	ck_assert_int_ne(res.outcome, TB_PASS);
	ck_assert_int_eq(res.channel_damaged, 1);

	r = record_with(0, 0, 0);
	r.calling_mark = tb_mark(r.nonce, TB_MARK_CALLING, 0, 0, 0) + 1;
	ck_assert_int_eq(classify(&r, EXITED(0), 0).outcome, TB_HARNESS);

	r = record_with(0, 0, 0);
	r.setup_mark = tb_setup_mark(&r) + 1;
	ck_assert_int_eq(classify(&r, EXITED(0), 0).outcome, TB_HARNESS);

	/* a dying mark below its value: the watchdog's kill decides, RESTART */
	r = record_with(1, 0, 0);
	r.dying_signal = SIGSEGV;
	r.dying_mark = tb_dying_mark(&r) - 1;
	ck_assert_int_eq(classify(&r, KILLED(SIGKILL), 1).outcome, TB_RESTART);
}
END_TEST

START_TEST(only_the_watchdog_s_signals_are_the_cpu_limit)
{
	/* signals numbered either side of SIGKILL and SIGXCPU, after a whole
	 * CPU limit's time: a crash, not the watchdog */
	struct tb_record r = record_with(1, 0, 0);

	ck_assert_int_eq(classify_cpu(&r, KILLED(SIGABRT), 0, 1000000).outcome, TB_ABORT);
	ck_assert_int_eq(classify_cpu(&r, KILLED(SIGSYS), 0, 1000000).outcome, TB_ABORT);
	ck_assert_int_eq(classify_cpu(&r, KILLED(SIGXCPU), 0, 1000000).outcome, TB_RESTART);
	/* the crash handler caught SIGSYS at the deadline: it ended there */
	r.dying_signal = SIGSYS;
	r.dying_mark = tb_dying_mark(&r);
	ck_assert_int_eq(classify(&r, KILLED(SIGSYS), 1).outcome, TB_ABORT);
}
END_TEST

START_TEST(setup_past_its_deadline_is_setup_with_no_signal)
{
	/* the watchdog fired while a value was built, and the process then
	 * exited of itself */
	struct tb_record r = { .nonce = 77, .building = 1 };
	struct tb_result res = classify(&r, EXITED(0), 1);

	ck_assert_int_eq(res.outcome, TB_SETUP);
	ck_assert_int_eq(res.setup_param, 1);
	ck_assert_int_eq(res.signal, -1);
}
END_TEST

START_TEST(a_reason_without_its_nul_is_cut_and_ended)
{
	struct tb_record r = { .nonce = 77, .setup_param = 0 };
	struct tb_result res;

	memset(r.setup_reason, 'x', sizeof(r.setup_reason));
	r.setup_mark = tb_setup_mark(&r);
	res = classify(&r, EXITED(0), 0);
	ck_assert_int_eq(res.outcome, TB_SETUP);
	ck_assert_uint_eq(res.reason_len, TB_SETUP_REASON - 1);
	ck_assert_int_eq(res.setup_reason[TB_SETUP_REASON - 1], 0);
	ck_assert_int_eq(res.setup_reason[TB_SETUP_REASON - 2], 'x');
}
END_TEST

START_TEST(scribbled_frames_mark_is_damage)
{
	struct tb_record r = record_with(1, 1, 1);

	r.nframes = 1;
	r.frames_mark = tb_frames_mark(&r);
	ck_assert_int_eq(classify(&r, EXITED(0), 0).channel_damaged, 0);
	r.frames_mark += 1;
	ck_assert_int_eq(classify(&r, EXITED(0), 0).channel_damaged, 1);
	r.frames_mark -= 2;
	ck_assert_int_eq(classify(&r, EXITED(0), 0).channel_damaged, 1);
}
END_TEST

START_TEST(crash_in_cleanup_keeps_pass)
{
	struct tb_record r = record_with(1, 1, 0);
	struct tb_result res = classify(&r, KILLED(SIGSEGV), 0);

	ck_assert_int_eq(res.outcome, TB_PASS);
	ck_assert_int_eq(res.cleanup_failed, 1);
	ck_assert_int_eq(res.signal, SIGSEGV);
}
END_TEST

START_TEST(signal_during_call_is_abort)
{
	struct tb_record r = record_with(1, 0, 0);
	struct tb_result res = classify(&r, KILLED(SIGBUS), 0);

	ck_assert_int_eq(res.outcome, TB_ABORT);
	ck_assert_int_eq(res.signal, SIGBUS);
}
END_TEST

START_TEST(exit_during_call_is_abort_with_status)
{
	struct tb_record r = record_with(1, 0, 0);
	struct tb_result res = classify(&r, EXITED(0), 0);

	ck_assert_int_eq(res.outcome, TB_ABORT);
	ck_assert_int_eq(res.exit_status, 0);
	ck_assert_int_eq(res.signal, -1);
}
END_TEST

START_TEST(deadline_during_call_is_restart)
{
	struct tb_record r = record_with(1, 0, 0);

	ck_assert_int_eq(classify(&r, KILLED(SIGKILL), 1).outcome, TB_RESTART);
}
END_TEST

START_TEST(cpu_limit_reached_during_call_is_restart)
{
	struct tb_record r = record_with(1, 0, 0);

	ck_assert_int_eq(classify_cpu(&r, KILLED(SIGXCPU), 0, 1000000).outcome, TB_RESTART);
	ck_assert_int_eq(classify_cpu(&r, KILLED(SIGKILL), 0, 2000000).outcome, TB_RESTART);
}
END_TEST

/* half the allowance used is proof enough that the limit stopped it (the
 * two clocks differ); less is a kill from elsewhere */
START_TEST(cpu_limit_counts_from_half_the_allowance)
{
	struct tb_record r = record_with(1, 0, 0);

	ck_assert_int_eq(classify_cpu(&r, KILLED(SIGKILL), 0, 500000).outcome, TB_RESTART);
	ck_assert_int_eq(classify_cpu(&r, KILLED(SIGXCPU), 0, 500000).outcome, TB_RESTART);
	ck_assert_int_eq(classify_cpu(&r, KILLED(SIGKILL), 0, 499999).outcome, TB_ABORT);
	ck_assert_int_eq(classify_cpu(&r, KILLED(SIGXCPU), 0, 499999).outcome, TB_ABORT);
	/* another signal at the limit is the call's own */
	ck_assert_int_eq(classify_cpu(&r, KILLED(SIGSEGV), 0, 1000000).outcome, TB_ABORT);
}
END_TEST

START_TEST(sigxcpu_raised_by_the_call_itself_is_abort)
{
	struct tb_record r = record_with(1, 0, 0);
	struct tb_result res = classify_cpu(&r, KILLED(SIGXCPU), 0, 3000);

	ck_assert_int_eq(res.outcome, TB_ABORT);
	ck_assert_int_eq(res.signal, SIGXCPU);
}
END_TEST

/* A record whose handler caught sig during the call. */
static struct tb_record record_dying(int sig)
{
	struct tb_record r = record_with(1, 0, 0);

	r.dying_signal = sig;
	r.dying_code = 1;
	r.sp = 0x7ffffff000;
	r.stack_depth = 400;
	r.dying_mark = tb_dying_mark(&r);
	return r;
}

START_TEST(dying_mark_of_a_crash_is_abort_even_when_the_watchdog_ended_it)
{
	/* its unwinding hung (the crash held the loader's lock) until the
	 * watchdog's SIGXCPU, then SIGKILL */
	struct tb_record r = record_dying(SIGSEGV);
	struct tb_result res = classify(&r, KILLED(SIGKILL), 1);

	ck_assert_int_eq(res.outcome, TB_ABORT);
	ck_assert_int_eq(res.signal, SIGSEGV);
	ck_assert(!res.channel_damaged);
	res = classify(&r, KILLED(SIGSEGV), 0);
	ck_assert_int_eq(res.outcome, TB_ABORT);
	ck_assert_int_eq(res.signal, SIGSEGV);
}
END_TEST

START_TEST(dying_mark_of_the_watchdogs_signal_is_restart)
{
	struct tb_record r = record_dying(SIGXCPU);

	ck_assert_int_eq(classify(&r, KILLED(SIGXCPU), 1).outcome, TB_RESTART);
	ck_assert_int_eq(classify(&r, KILLED(SIGKILL), 1).outcome, TB_RESTART);
	ck_assert_int_eq(classify_cpu(&r, KILLED(SIGXCPU), 0, 1000000).outcome, TB_RESTART);
	/* raised by the call itself, its CPU allowance unused */
	ck_assert_int_eq(classify_cpu(&r, KILLED(SIGXCPU), 0, 3000).outcome, TB_ABORT);
}
END_TEST

START_TEST(forged_dying_mark_is_not_believed)
{
	struct tb_record r = record_dying(SIGSEGV);
	struct tb_result res;

	r.dying_signal = SIGBUS;  /* changed after the mark */
	res = classify(&r, KILLED(SIGKILL), 1);
	ck_assert_int_eq(res.outcome, TB_RESTART);
	ck_assert(res.channel_damaged);
	ck_assert_uint_eq(tb_site_read(&r, &res.site), 0);
}
END_TEST

START_TEST(site_without_frames_mark_has_no_frames)
{
	struct tb_record r = record_dying(SIGSEGV);
	struct tb_site site;

	r.nframes = 1;
	r.frames[0].offset = 0x1234;
	r.frames[0].module = TB_NO_MODULE;
	ck_assert_uint_eq(tb_site_read(&r, &site), TB_SITE_HEAD);
	ck_assert_uint_eq(site.frames_len, 0);
	ck_assert_int_eq(site.stack_depth, 400);
	ck_assert(site.has_fault_addr);
	r.frames_mark = tb_frames_mark(&r);
	ck_assert_uint_eq(tb_site_read(&r, &site), TB_SITE_HEAD + strlen("[unknown]+0x1234"));
	ck_assert_mem_eq(site.frames, "[unknown]+0x1234", site.frames_len);
}
END_TEST

START_TEST(failed_setup_is_setup_with_param)
{
	struct tb_record r = { .nonce = 77, .setup_param = 2, .setup_errno = 13,
			       .setup_reason = "the lock is held" };
	struct tb_result res;
	char wire[sizeof(struct tb_result)];

	r.setup_mark = tb_setup_mark(&r);
	res = classify(&r, EXITED(0), 0);
	ck_assert_int_eq(res.outcome, TB_SETUP);
	ck_assert_int_eq(res.setup_param, 2);
	ck_assert_int_eq(res.setup_errno, 13);
	ck_assert_str_eq(res.setup_reason, "the lock is held");
	/* the reason travels after the head, its bytes alone */
	res.stderr_len = res.site_len = 0;
	ck_assert_uint_eq(tb_result_pack(&res, wire), TB_RESULT_HEAD + strlen("the lock is held"));
	memset(&res, 0, sizeof(res));
	tb_result_unpack(wire, &res);
	ck_assert_str_eq(res.setup_reason, "the lock is held");
	ck_assert_int_eq(res.setup_errno, 13);
}
END_TEST

START_TEST(scribbled_setup_reason_is_damage)
{
	/* the mark covers the reason's bytes and errno: a call cannot forge why */
	struct tb_record r = { .nonce = 77, .setup_param = 0, .setup_reason = "why" };

	r.setup_mark = tb_setup_mark(&r);
	ck_assert_int_eq(classify(&r, EXITED(0), 0).channel_damaged, 0);
	r.setup_reason[TB_SETUP_REASON - 1] = 'x';
	ck_assert_int_eq(classify(&r, EXITED(0), 0).channel_damaged, 1);
	r.setup_reason[TB_SETUP_REASON - 1] = 0;
	r.setup_errno = 1;
	ck_assert_int_eq(classify(&r, EXITED(0), 0).channel_damaged, 1);
}
END_TEST

START_TEST(crash_in_setup_is_setup)
{
	struct tb_record r = { .nonce = 77, .building = 1 };
	struct tb_result res = classify(&r, KILLED(SIGSEGV), 0);

	ck_assert_int_eq(res.outcome, TB_SETUP);
	ck_assert_int_eq(res.setup_param, 1);
	ck_assert_int_eq(res.signal, SIGSEGV);
}
END_TEST

START_TEST(silent_death_is_a_harness_failure)
{
	struct tb_record r = { .nonce = 77 };

	ck_assert_int_eq(classify(&r, EXITED(TB_EXIT_SANDBOX), 0).outcome, TB_HARNESS);
}
END_TEST

START_TEST(forged_marks_are_not_believed)
{
	struct tb_record r = record_with(1, 0, 0);
	struct tb_result res;

	/* a wild write fills the returned part with bytes of its own */
	memset(&r.call, 0xA5, sizeof(r.call));
	memset(&r.returned_mark, 0xA5, sizeof(r.returned_mark));
	res = classify(&r, KILLED(SIGSEGV), 0);
	ck_assert_int_eq(res.outcome, TB_ABORT);
	ck_assert_int_eq(res.channel_damaged, 1);
}
END_TEST

/* what an outcome does not set stays at its "none": no leftovers of a
 * previous case in the same result */
START_TEST(an_abort_carries_nothing_of_a_pass)
{
	struct tb_record r = record_with(1, 0, 0);
	struct tb_result res;

	memset(&res, 0x5A, sizeof(res));
	r.call.ret = 42;
	r.call.err = 9;
	r.call.error_reported = 1;
	tb_classify(&(struct tb_observation){ .status = KILLED(SIGSEGV), .record = &r,
					     .cpu_limit_us = 1000000 }, &res);
	ck_assert_int_eq(res.outcome, TB_ABORT);
	ck_assert_int_eq(res.signal, SIGSEGV);
	ck_assert_int_eq(res.exit_status, -1);
	ck_assert_int_eq(res.setup_param, -1);
	ck_assert_int_eq(res.ret, 0);
	ck_assert_int_eq(res.err, 0);
	ck_assert_int_eq(res.error_reported, 0);
	ck_assert_int_eq(res.cleanup_failed, 0);
	ck_assert_int_eq(res.channel_damaged, 0);
}
END_TEST

/* any mark present but not the one expected is damage; an absent one is not */
START_TEST(every_mark_is_checked_for_damage)
{
	struct tb_record r = record_with(1, 1, 1);
	struct tb_result res;

	ck_assert_int_eq(classify(&r, EXITED(0), 0).channel_damaged, 0);
	r.cleaned_mark += 1;
	res = classify(&r, EXITED(0), 0);
	ck_assert_int_eq(res.channel_damaged, 1);
	ck_assert_int_eq(res.cleanup_failed, 1);  /* a wrong mark is no cleanup */
	r.cleaned_mark -= 2;
	ck_assert_int_eq(classify(&r, EXITED(0), 0).channel_damaged, 1);
	r = record_with(1, 0, 0);
	r.setup_mark = tb_setup_mark(&r) + 1;
	ck_assert_int_eq(classify(&r, KILLED(SIGSEGV), 0).channel_damaged, 1);
	r.setup_mark -= 2;
	ck_assert_int_eq(classify(&r, KILLED(SIGSEGV), 0).channel_damaged, 1);
	r = record_with(0, 0, 0);
	r.calling_mark = tb_mark(r.nonce, TB_MARK_CALLING, 0, 0, 0) - 1;
	res = classify(&r, EXITED(0), 0);
	ck_assert_int_eq(res.channel_damaged, 1);
	ck_assert_int_eq(res.outcome, TB_HARNESS);
}
END_TEST

START_TEST(outcomes_are_stored_by_their_names)
{
	ck_assert_str_eq(tb_outcome_names[TB_PASS], "PASS");
	ck_assert_str_eq(tb_outcome_names[TB_ABORT], "ABORT");
	ck_assert_str_eq(tb_outcome_names[TB_RESTART], "RESTART");
	ck_assert_str_eq(tb_outcome_names[TB_SETUP], "SETUP");
	ck_assert_str_eq(tb_outcome_names[TB_HARNESS], "HARNESS");
}
END_TEST

START_TEST(a_mark_is_bound_to_its_nonce)
{
	struct tb_record r = record_with(1, 1, 1);

	r.nonce++;  /* marks of a previous case in the same slot */
	ck_assert_int_eq(classify(&r, EXITED(0), 0).outcome, TB_HARNESS);
}
END_TEST

/* ---- scratch ---- */

START_TEST(remove_tree_takes_everything)
{
	char root[] = "/tmp/check-harness-XXXXXX";
	int dir;
	struct stat st;

	ck_assert_ptr_nonnull(mkdtemp(root));
	dir = open(root, O_RDONLY | O_DIRECTORY);
	ck_assert_int_eq(mkdirat(dir, "a", 0755), 0);
	ck_assert_int_eq(mkdirat(dir, "a/b", 0755), 0);
	close(openat(dir, "a/b/file", O_CREAT | O_WRONLY, 0444));
	close(openat(dir, "a/top", O_CREAT | O_WRONLY, 0));
	ck_assert_int_eq(fchmodat(dir, "a/b", 0, 0), 0);  /* locked */
	close(dir);
	ck_assert_int_eq(tb_remove_tree(AT_FDCWD, root), 0);
	ck_assert_int_eq(stat(root, &st), -1);
}
END_TEST

/* ---- store ---- */

START_TEST(store_refuses_another_schema_version)
{
	char path[] = "/tmp/check-store-XXXXXX";
	char err[512];
	struct tb_store *st;
	sqlite3 *db;
	int fd = mkstemp(path);

	close(fd);
	unlink(path);
	st = tb_store_open(path, err, sizeof(err));
	ck_assert_ptr_nonnull(st);
	tb_store_close(st);
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	sqlite3_exec(db, "PRAGMA user_version = 99", NULL, NULL, NULL);
	sqlite3_close(db);
	st = tb_store_open(path, err, sizeof(err));
	ck_assert_ptr_null(st);
	ck_assert_msg(strstr(err, "schema version 99") && strstr(err, path), "%s", err);
	unlink(path);
}
END_TEST

START_TEST(store_lists_done_cases_and_unfinished_runs)
{
	char path[] = "/tmp/check-store-XXXXXX";
	char err[512];
	struct tb_run_info info = { .target = "t", .seed = 9, .cap = 10, .functions = "f",
				    .dictionary = "ours", .shard = 2, .shards = 3 };
	struct tb_result r = { .outcome = TB_PASS, .signal = -1, .exit_status = -1,
			       .setup_param = -1 };
	struct tb_run_info found;
	struct tb_store *st;
	uint64_t *done;
	size_t n;
	int64_t run, again;
	int fd = mkstemp(path);

	close(fd);
	unlink(path);
	st = tb_store_open(path, err, sizeof(err));
	ck_assert_int_eq(tb_store_begin_run(st, &info, 0, &run), 0);
	ck_assert_int_eq(tb_store_add_function(st, run, "f", "int f(int)", "int", 7, 7, 0), 0);
	r.case_index = 5;
	ck_assert_int_eq(tb_store_add_result(st, run, "f", 0, "int:ONE", &r), 0);
	r.case_index = 2;
	ck_assert_int_eq(tb_store_add_result(st, run, "f", 0, "int:ZERO", &r), 0);
	ck_assert_int_eq(tb_store_commit(st), 0);
	ck_assert_int_eq(tb_store_done_cases(st, run, "f", &done, &n), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert(done[0] == 2 && done[1] == 5);
	free(done);
	ck_assert_int_eq(tb_store_find_unfinished(st, "t", &again, &found), 1);
	ck_assert_int_eq(again, run);
	ck_assert_uint_eq(found.seed, 9);
	ck_assert(found.shard == 2 && found.shards == 3);
	ck_assert_int_eq(tb_store_finish_run(st, run), 0);
	ck_assert_int_eq(tb_store_find_unfinished(st, "t", &again, &found), 0);
	/* a case stored twice is an error, never a silent double */
	ck_assert_int_eq(tb_store_add_result(st, run, "f", 0, "int:ONE", &r), -1);
	tb_store_close(st);
	unlink(path);
}
END_TEST

/* ---- the fork server, end to end ---- */

static void call_echo(const union tb_arg *a, struct tb_call *out) { out->ret = a[0].i; }
static void call_crash(const union tb_arg *a, struct tb_call *out) { *(volatile int *)0 = 1; }
static void call_hang(const union tb_arg *a, struct tb_call *out) { for (;;) pause(); }
static void call_exit(const union tb_arg *a, struct tb_call *out) { exit(3); }
static void call_spin(const union tb_arg *a, struct tb_call *out) { for (volatile int i = 0;; i++) ; }

/* Leaves a nested tree in its working directory, read-only from the top
 * down, as a careless function might: the slot must still come back empty. */
static void call_litter(const union tb_arg *a, struct tb_call *out)
{
	int fd;

	out->ret = mkdir("a", 0700) || mkdir("a/b", 0700) ||
		   (fd = open("a/b/f", O_CREAT | O_WRONLY, 0400)) < 0 || write(fd, "x", 1) != 1 ||
		   close(fd) || chmod("a/b", 0500) || chmod("a", 0500);
}

/* Writes lines to stderr, more than a case keeps: "line 1" to "line 99". */
static void say_lines(void)
{
	char line[32];
	int i, n;

	for (i = 1; i <= 99; i++) {
		n = snprintf(line, sizeof(line), "line %d\n", i);
		if (write(2, line, (size_t)n) != n)
			return;
	}
}

static void call_shout(const union tb_arg *a, struct tb_call *out)
{
	say_lines();
	*(volatile int *)0 = 1;
}

static void call_chatter(const union tb_arg *a, struct tb_call *out) { say_lines(); }

/* Where the test process runs: its core * 1000 + how many cores it may use. */
static void call_where(const union tb_arg *a, struct tb_call *out)
{
	cpu_set_t set;

	out->ret = sched_getaffinity(0, sizeof(set), &set) ? -1
		 : sched_getcpu() * 1000 + CPU_COUNT(&set);
}

static const char *const one_int[] = { "int", NULL };
static const struct tb_function functions[] = {
	{ .name = "echo", .params = one_int, .call = call_echo },
	{ .name = "crash", .params = one_int, .call = call_crash },
	{ .name = "hang", .params = one_int, .call = call_hang },
	{ .name = "exit", .params = one_int, .call = call_exit },
	{ .name = "spin", .params = one_int, .call = call_spin },
	{ .name = "litter", .params = one_int, .call = call_litter },
	{ .name = "shout", .params = one_int, .call = call_shout },
	{ .name = "chatter", .params = one_int, .call = call_chatter },
	{ .name = "where", .params = one_int, .call = call_where },
};
#define NFUNCTIONS (int)(sizeof(functions) / sizeof(functions[0]))

static struct tb_result run_one(struct tb_server *srv, uint32_t fn, uint64_t index)
{
	struct tb_request req = { .fn = fn, .case_index = index };
	static char wire[sizeof(struct tb_result)];
	struct tb_result res;
	ssize_t got;

	ck_assert_int_eq(write(srv->request_fd, &req, sizeof(req)), sizeof(req));
	/* one result in flight: it arrives alone, as many bytes as it holds */
	got = read(srv->result_fd, wire, sizeof(wire));
	ck_assert_int_ge(got, TB_RESULT_HEAD);
	ck_assert_int_eq(got, tb_result_wire_size_at(wire));
	tb_result_unpack(wire, &res);
	ck_assert_int_eq(got, tb_result_wire_size(&res));
	ck_assert_uint_eq(res.fn, fn);
	ck_assert_uint_eq(res.case_index, index);
	return res;
}

/* The site's first frame is in this program: "PATH+0x...", PATH its own. */
static void assert_first_frame_in_self(const struct tb_result *res)
{
	char self[4096], prefix[4200];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	ck_assert_int_gt(n, 0);
	self[n] = '\0';
	snprintf(prefix, sizeof(prefix), "%s+0x", self);
	ck_assert_uint_gt(res->site.frames_len, strlen(prefix));
	ck_assert_mem_eq(res->site.frames, prefix, strlen(prefix));
	ck_assert_uint_eq(res->site_len, TB_SITE_HEAD + res->site.frames_len);
}

/* Starts a server on a new scratch directory root (a mkdtemp template) for
 * the functions above, its test processes on core cpu (-1: anywhere). */
static void start_server(struct tb_server *srv, char *root, int cpu)
{
	static struct tb_value_list ints;
	static struct tb_planned_function planned[NFUNCTIONS];
	static struct tb_target target = { .nfunctions = NFUNCTIONS, .functions = planned };
	struct tb_server_config cfg = {
		.target = &target, .jobs = 2, .timeout_ms = 300, .cpu = cpu, .crash_sites = 1,
		.sandbox = { .devnull_fd = open("/dev/null", O_RDWR),
			     .drop_privileges = geteuid() == 0, .uid = 65534, .gid = 65534,
			     .address_space = 1ull << 30, .file_size = 1 << 20,
			     .cpu_seconds = 1, .processes = 4096 },
	};
	char why[400];
	int i;

	tb_datatype_flatten(&tb_type_int, &ints);
	for (i = 0; i < NFUNCTIONS; i++) {
		planned[i].fn = &functions[i];
		planned[i].nparams = 1;
		planned[i].lists[0] = &ints;
		planned[i].counts[0] = ints.count;
	}
	ck_assert_ptr_nonnull(mkdtemp(root));
	if (cfg.sandbox.drop_privileges)
		ck_assert_int_eq(chown(root, 65534, 65534), 0);
	cfg.scratch_root = root;
	ck_assert_int_eq(tb_server_start(&cfg, srv, why, sizeof(why)), 0);
	ck_assert_int_eq(tb_server_ready(srv, why, sizeof(why)), 0);
}

/* Removes what start_server made, once the server has stopped. */
static void remove_scratch(const char *root)
{
	ck_assert_int_eq(chdir(root), 0);
	ck_assert_int_eq(rmdir("s000"), 0);
	ck_assert_int_eq(rmdir("s001"), 0);
	ck_assert_int_eq(chdir("/"), 0);
	ck_assert_int_eq(rmdir(root), 0);
}

START_TEST(server_classifies_real_processes)
{
	char root[] = "/tmp/check-server-XXXXXX";
	struct tb_server srv;
	struct tb_result res;

	start_server(&srv, root, -1);
	res = run_one(&srv, 0, 3);  /* int:INT_MAX */
	ck_assert_int_eq(res.outcome, TB_PASS);
	ck_assert_int_eq(res.ret, 2147483647);
	ck_assert_uint_eq(res.site_len, 0);
	res = run_one(&srv, 1, 0);
	ck_assert_int_eq(res.outcome, TB_ABORT);
	ck_assert_int_eq(res.signal, SIGSEGV);
	/* where: a write to address 0 in call_crash, in this program */
	ck_assert_int_eq(res.site.signal, SIGSEGV);
	ck_assert_int_eq(res.site.code, SEGV_MAPERR);
	ck_assert(res.site.has_fault_addr);
	ck_assert_uint_eq(res.site.fault_addr, 0);
	ck_assert_int_gt(res.site.stack_depth, 0);
	assert_first_frame_in_self(&res);
	res = run_one(&srv, 2, 0);
	ck_assert_int_eq(res.outcome, TB_RESTART);
	ck_assert_int_ge(res.duration_us, 300000);
	/* asleep at the deadline: sent SIGXCPU, which its handler caught */
	ck_assert_int_eq(res.site.signal, SIGXCPU);
	ck_assert_int_eq(res.site.code, SI_USER);
	ck_assert(!res.site.has_fault_addr);
	ck_assert_uint_gt(res.site.frames_len, 0);
	res = run_one(&srv, 3, 0);
	ck_assert_int_eq(res.outcome, TB_ABORT);
	ck_assert_int_eq(res.exit_status, 3);
	ck_assert_uint_eq(res.site_len, 0);  /* no signal, no site */
	/* computing past the wall deadline: the CPU limit stops it */
	res = run_one(&srv, 4, 0);
	ck_assert_int_eq(res.outcome, TB_RESTART);
	ck_assert_int_eq(res.site.signal, SIGXCPU);
	/* from the CPU limit; or, on a machine so loaded that the call got
	 * less than its second in WALL_LIMIT deadlines, from the watchdog */
	ck_assert(res.site.code == SI_KERNEL || res.site.code == SI_USER);
	assert_first_frame_in_self(&res);
	/* the kernel charges CPU time by ticks, so RLIMIT_CPU's 1 s may
	 * fire a tick early: well past the 0.3 s wall deadline is the point */
	ck_assert_int_ge(res.duration_us, 900000);
	res = run_one(&srv, 5, 0);
	ck_assert_int_eq(res.outcome, TB_PASS);
	ck_assert_int_eq(res.ret, 0);  /* the tree was made */

	/* stderr: a failing case's last whole lines are kept ... */
	res = run_one(&srv, 6, 0);
	ck_assert_int_eq(res.outcome, TB_ABORT);
	ck_assert_uint_le(res.stderr_len, TB_STDERR_TAIL);
	ck_assert_uint_gt(res.stderr_len, TB_STDERR_TAIL - 10);
	ck_assert_mem_eq(res.stderr_tail + res.stderr_len - 8, "line 99\n", 8);
	ck_assert_mem_eq(res.stderr_tail, "line ", 5);  /* a whole line first */
	/* ... a passing one's are not; and the next case in the slot (one
	 * case in flight at a time: always the first slot) starts with an
	 * empty file, so what came before never shows as its words */
	res = run_one(&srv, 7, 0);
	ck_assert_int_eq(res.outcome, TB_PASS);
	ck_assert_uint_eq(res.stderr_len, 0);
	res = run_one(&srv, 1, 0);
	ck_assert_int_eq(res.outcome, TB_ABORT);
	ck_assert_uint_eq(res.stderr_len, 0);

	ck_assert_int_eq(tb_server_stop(&srv), 0);
	/* each slot's directory was emptied as its process was reaped */
	remove_scratch(root);
}
END_TEST

/* A server given a core keeps its test processes on it, and on it alone:
 * the last core this process may use, so that it is not core 0 by chance
 * where there are several. */
START_TEST(server_keeps_its_test_processes_on_its_core)
{
	char root[] = "/tmp/check-server-XXXXXX";
	struct tb_server srv;
	struct tb_result res;
	cpu_set_t set;
	int cpu, last = -1;

	ck_assert_int_eq(sched_getaffinity(0, sizeof(set), &set), 0);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set))
			last = cpu;
	start_server(&srv, root, last);
	res = run_one(&srv, NFUNCTIONS - 1, 0);
	ck_assert_int_eq(res.outcome, TB_PASS);
	ck_assert_int_eq(res.ret, last * 1000 + 1);
	ck_assert_int_eq(tb_server_stop(&srv), 0);
	remove_scratch(root);
}
END_TEST

static Suite *harness_suite(void)
{
	Suite *s = suite_create("harness");
	TCase *cases = tcase_create("cases");
	TCase *contract = tcase_create("contract");
	TCase *files = tcase_create("files");
	TCase *server = tcase_create("server");

	tcase_add_test(cases, decode_is_mixed_radix_last_fastest);
	tcase_add_test(cases, total_overflow_is_refused);
	tcase_add_test(cases, draw_all_when_under_cap);
	tcase_add_test(cases, draw_sample_is_distinct_sorted_and_seeded);
	tcase_add_test(contract, returned_is_pass_with_its_values);
	tcase_add_test(contract, crash_in_cleanup_keeps_pass);
	tcase_add_test(contract, signal_during_call_is_abort);
	tcase_add_test(contract, exit_during_call_is_abort_with_status);
	tcase_add_test(contract, deadline_during_call_is_restart);
	tcase_add_test(contract, cpu_limit_reached_during_call_is_restart);
	tcase_add_test(contract, cpu_limit_counts_from_half_the_allowance);
	tcase_add_test(contract, sigxcpu_raised_by_the_call_itself_is_abort);
	tcase_add_test(contract, dying_mark_of_a_crash_is_abort_even_when_the_watchdog_ended_it);
	tcase_add_test(contract, dying_mark_of_the_watchdogs_signal_is_restart);
	tcase_add_test(contract, forged_dying_mark_is_not_believed);
	tcase_add_test(contract, site_without_frames_mark_has_no_frames);
	tcase_add_test(contract, failed_setup_is_setup_with_param);
	tcase_add_test(contract, scribbled_setup_reason_is_damage);
	tcase_add_test(contract, scribbled_frames_mark_is_damage);
	tcase_add_test(contract, a_mark_off_by_one_is_no_mark);
	tcase_add_test(contract, only_the_watchdog_s_signals_are_the_cpu_limit);
	tcase_add_test(contract, setup_past_its_deadline_is_setup_with_no_signal);
	tcase_add_test(contract, a_reason_without_its_nul_is_cut_and_ended);
	tcase_add_test(contract, crash_in_setup_is_setup);
	tcase_add_test(contract, silent_death_is_a_harness_failure);
	tcase_add_test(contract, forged_marks_are_not_believed);
	tcase_add_test(contract, an_abort_carries_nothing_of_a_pass);
	tcase_add_test(contract, every_mark_is_checked_for_damage);
	tcase_add_test(contract, outcomes_are_stored_by_their_names);
	tcase_add_test(contract, a_mark_is_bound_to_its_nonce);
	tcase_add_test(files, remove_tree_takes_everything);
	tcase_add_test(files, store_refuses_another_schema_version);
	tcase_add_test(files, store_lists_done_cases_and_unfinished_runs);
	tcase_add_test(server, server_classifies_real_processes);
	tcase_add_test(server, server_keeps_its_test_processes_on_its_core);
	tcase_set_timeout(server, 20);
	suite_add_tcase(s, cases);
	suite_add_tcase(s, contract);
	suite_add_tcase(s, files);
	suite_add_tcase(s, server);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(harness_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
