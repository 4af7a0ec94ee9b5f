/*
 * The floor the executor is measured against: a tiny process that keeps
 * `jobs` children in flight, each forked and exiting at once, and reaps
 * them.  Prints "cases_per_second N".
 *
 *   bare_fork JOBS COUNT
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

int main(int argc, char **argv)
{
	long jobs = argc > 1 ? atol(argv[1]) : 4, count = argc > 2 ? atol(argv[2]) : 10000;
	long started = 0, done = 0;
	double t0 = now();
	int status;

	for (; started < jobs && started < count; started++)
		spawn();
	while (done < count) {
		if (wait(&status) < 0) {
			perror("wait");
			return 1;
		}
		done++;
		if (started < count) {
			spawn();
			started++;
		}
	}
	printf("cases_per_second %.0f\n", (double)count / (now() - t0));
	return 0;
}
