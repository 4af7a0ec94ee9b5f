/*
 * The SFIO benchmarks of Korn & Vo (the study's Table 1) and a record
 * program, built once on plain SFIO and once on Robust SFIO (-DROBUST) so
 * that both run the same code; bench/robust_io.py times the two.  One
 * benchmark per process, so its CPU time is the child's rusage.
 *
 *   robust_io BENCH BLOCK INPUT OUTPUT
 *
 * BENCH: copyrw getc putc read revrd seekrw write records.  INPUT is a text
 * file of lines (its size sets the work); OUTPUT is written.  seekrw writes
 * back to position 0 the block that was there, so INPUT keeps its bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef ROBUST
#include "robust_sfio.h"
#else
#include "sfio_abi.h"
#endif

static char *block;
static size_t size;
static Sfoff_t total;

static Sfio_t *open_or_die(const char *name, const char *mode)
{
	Sfio_t *f = sfopen(NULL, name, mode);

	if (!f) {
		perror(name);
		exit(2);
	}
	return f;
}

static long copyrw(Sfio_t *in, Sfio_t *out)
{
	ssize_t n;
	long blocks = 0;

	while ((n = sfread(in, block, size)) > 0)
		blocks += sfwrite(out, block, (size_t)n) == n;
	return blocks;
}

static long getc_all(Sfio_t *in, Sfio_t *out)
{
	long bytes = 0;

	while (sfgetc(in) >= 0)
		bytes++;
	return bytes;
}

static long putc_all(Sfio_t *in, Sfio_t *out)
{
	Sfoff_t i;
	long sum = 0;

	for (i = 0; i < total; i++)
		sum += sfputc(out, (int)(i & 63) + ' ');
	return sum;
}

static long read_all(Sfio_t *in, Sfio_t *out)
{
	long blocks = 0;

	while (sfread(in, block, size) > 0)
		blocks++;
	return blocks;
}

static long revrd(Sfio_t *in, Sfio_t *out)
{
	Sfoff_t at = total / (Sfoff_t)size;
	long blocks = 0;

	while (at-- > 0)
		blocks += sfseek(in, at * (Sfoff_t)size, SEEK_SET) >= 0 && sfread(in, block, size) > 0;
	return blocks;
}

/* random blocks, each followed by a write at 0; the same generator on both
 * libraries, so both seek to the same places */
static long seekrw(Sfio_t *f, Sfio_t *out)
{
	Sfoff_t blocks = total / (Sfoff_t)size, i;
	char *head = malloc(size);
	unsigned long x = 88172645463325252ul;
	long done = 0;

	if (!head || sfread(f, head, size) != (ssize_t)size)
		return -1;
	for (i = 0; i < blocks; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		sfseek(f, (Sfoff_t)(x % (unsigned long)blocks) * (Sfoff_t)size, SEEK_SET);
		done += sfread(f, block, size) > 0;
		sfseek(f, 0, SEEK_SET);
		done += sfwrite(f, head, size) == (ssize_t)size;
	}
	free(head);
	return done;
}

static long write_all(Sfio_t *in, Sfio_t *out)
{
	Sfoff_t blocks = total / (Sfoff_t)size, i;
	long done = 0;

	memset(block, 'w', size);
	for (i = 0; i < blocks; i++)
		done += sfwrite(out, block, size) == (ssize_t)size;
	return done;
}

/* a program of the shape real ones have: each line is read, formatted into
 * memory of its own, written, and the memory freed, so that free() falls
 * between every pair of I/O calls */
static long records(Sfio_t *in, Sfio_t *out)
{
	char *line;
	long n = 0;

	while ((line = sfgetr(in, '\n', 1))) {  /* 1: the separator becomes a NUL */
		size_t room = (size_t)sfvalue(in) + 32;
		char *record = malloc(room);

		if (!record)
			return -1;
		sfsprintf(record, (int)room, "%ld\t%s", n, line);
		if (n++ & 1)
			sfputr(out, record, '\n');
		else
			sfprintf(out, "%s\n", record);
		free(record);
	}
	return n;
}

static const struct {
	const char *name;
	long (*run)(Sfio_t *in, Sfio_t *out);
	const char *in_mode;  /* NULL: no output stream */
	int writes;
} benches[] = {
	{ .name = "copyrw", .run = copyrw, .in_mode = "r", .writes = 1 },
	{ .name = "getc", .run = getc_all, .in_mode = "r" },
	{ .name = "putc", .run = putc_all, .in_mode = "r", .writes = 1 },
	{ .name = "read", .run = read_all, .in_mode = "r" },
	{ .name = "revrd", .run = revrd, .in_mode = "r" },
	{ .name = "seekrw", .run = seekrw, .in_mode = "r+" },
	{ .name = "write", .run = write_all, .in_mode = "r", .writes = 1 },
	{ .name = "records", .run = records, .in_mode = "r", .writes = 1 },
	{ 0 }
};

int main(int argc, char **argv)
{
	Sfio_t *in, *out = NULL;
	long result;
	int i;

	if (argc != 5) {
		fprintf(stderr, "usage: robust_io BENCH BLOCK INPUT OUTPUT\n");
		return 2;
	}
	for (i = 0; benches[i].name && strcmp(benches[i].name, argv[1]); i++)
		;
	size = (size_t)atol(argv[2]);
	block = malloc(size ? size : 1);
	if (!benches[i].name || !size || !block) {
		fprintf(stderr, "robust_io: no benchmark %s with block %s\n", argv[1], argv[2]);
		return 2;
	}
	in = open_or_die(argv[3], benches[i].in_mode);
	total = sfsize(in);
	if (benches[i].writes)
		out = open_or_die(argv[4], "w");
	result = benches[i].run(in, out);
	if (out && sfclose(out) < 0)
		return 1;
	sfclose(in);
	printf("%s %ld\n", argv[1], result);
	return result < 0;
}
