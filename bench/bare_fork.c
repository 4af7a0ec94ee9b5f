/*
 * The floor the executor is measured against: a tiny process that keeps
 * `jobs` children in flight, each forked and exiting at once, and reaps
 * them.  Prints "cases_per_second N".  With FORKERS > 1, that many such
 * processes share the jobs and the count, as the executor's fork servers do.
 *
 *   bare_fork JOBS COUNT [FORKERS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void spawn(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	if (pid < 0) {
		perror("fork");
		exit(1);
	}
}

/* Keeps jobs children in flight until count have run. */
static void forker(long jobs, long count)
{
	long started = 0, done = 0;
	int status;

	for (; started < jobs && started < count; started++)
		spawn();
	while (done < count) {
		if (wait(&status) < 0) {
			perror("wait");
			exit(1);
		}
		done++;
		if (started < count) {
			spawn();
			started++;
		}
	}
}

int main(int argc, char **argv)
{
	long jobs = argc > 1 ? atol(argv[1]) : 4, count = argc > 2 ? atol(argv[2]) : 10000;
	long forkers = argc > 3 ? atol(argv[3]) : 1, i;
	double t0 = now();
	int status;

	if (forkers <= 1) {
		forker(jobs, count);
	} else {
		for (i = 0; i < forkers; i++) {
			if (fork() == 0) {
				forker(jobs / forkers + (i < jobs % forkers),
				       count / forkers + (i < count % forkers));
				_exit(0);
			}
		}
		while (wait(&status) > 0)
			;
	}
	printf("cases_per_second %.0f\n", (double)count / (now() - t0));
	return 0;
}
