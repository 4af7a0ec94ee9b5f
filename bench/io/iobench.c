/*
 * The I/O benchmarks of the reference study (DeVale & Koopman, DSN 2001,
 * Table 1, SFIO's own set after Korn & Vo 1991), plus a record-processing
 * program.  One source, compiled three times by the Makefile so that every
 * library runs the same program:
 *
 *   -DIO_STDIO      glibc's <stdio.h>
 *   (neither)       SFIO (libgvpr.so.2, declared by sfio_abi.h)
 *   -DROBUST        Robust SFIO (robust_sfio.h, librobust_sfio.so)
 *   -DGUARDED       SFIO behind a guarded call (sfio_guarded.h, libsfio_guarded.so):
 *                   every call, each sfgetc and sfputc too, under a SIGSEGV/SIGBUS guard
 *   -DPROXY         SFIO behind a process boundary (sfio_proxy.h, libsfio_proxy.so):
 *                   every call, each sfgetc and sfputc too, a request to its server
 *
 *   iobench BENCHMARK BLOCK INPUT OUTPUT SIZE
 *
 * BENCHMARK is one of copyrw getc putc read revrd seekrw write records;
 * BLOCK the transfer size of the block benchmarks (ignored by getc, putc
 * and records); INPUT the file read (an existing file of at least SIZE
 * bytes of text lines); OUTPUT the file written from its start (created if
 * missing, never truncated: the caller removes it for a fresh file, and
 * keeps it so that a run rewrites pages the page cache already holds);
 * SIZE the bytes to move.  The program prints one line saying what it did
 * (bytes moved and a checksum of what it read), so that the three builds
 * can be held to doing the same work; timing is the caller's (the rusage
 * of this process).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(IO_STDIO)
#define LIBRARY "stdio"
#elif defined(ROBUST)
#include "robust_sfio.h"
#define LIBRARY "robust_sfio"
#elif defined(GUARDED)
#include "sfio_guarded.h"
#define LIBRARY "sfio_guarded"
#elif defined(PROXY)
#include "sfio_proxy.h"
#define LIBRARY "sfio_proxy"
#else
#include "sfio_abi.h"
#define LIBRARY "sfio"
#endif

/*
 * The shim: each I/O operation the benchmarks make, as the library's own
 * program would write it.  Byte I/O uses each library's in-line form
 * (stdio's getc/putc, SFIO's sfgetc/sfputc macros or Robust SFIO's fast
 * path), since that is what the study's getc and putc measure.
 */
#ifdef IO_STDIO
typedef FILE io_t;
#define io_open(path, mode)      fopen((path), (mode))
#define io_write_fd(fd)          fdopen((fd), "w")
#define io_close(f)              fclose(f)
#define io_read(f, buf, n)       ((long)fread((buf), 1, (n), (f)))
#define io_write(f, buf, n)      ((long)fwrite((buf), 1, (n), (f)))
#define io_seek(f, off)          fseeko((f), (off_t)(off), SEEK_SET)
#define io_getc(f)               getc(f)
#define io_putc(f, c)            putc((c), (f))
#define io_format(s, n, ...)     snprintf((s), (n), __VA_ARGS__)
#define io_printf(f, ...)        fprintf((f), __VA_ARGS__)
#define io_puts_line(f, s)       (fputs((s), (f)) < 0 ? -1 : putc('\n', (f)))

/* one line, its length without the newline in *len; NULL at the end */
static char *io_getline(io_t *f, size_t *len)
{
	static char *line;
	static size_t cap;
	ssize_t n = getline(&line, &cap, f);

	if (n <= 0)
		return NULL;
	if (line[n - 1] == '\n')
		line[--n] = '\0';
	*len = (size_t)n;
	return line;
}
#else
typedef Sfio_t io_t;
#define io_open(path, mode)      sfopen(NULL, (path), (mode))
#define io_write_fd(fd)          sfnew(NULL, NULL, SF_UNBOUND, (fd), SF_WRITE)
#define io_close(f)              sfclose(f)
#define io_read(f, buf, n)       ((long)sfread((f), (buf), (n)))
#define io_write(f, buf, n)      ((long)sfwrite((f), (buf), (n)))
#define io_seek(f, off)          (sfseek((f), (Sfoff_t)(off), SEEK_SET) < 0 ? -1 : 0)
#define io_getc(f)               sfgetc(f)
#define io_putc(f, c)            sfputc((f), (c))
#define io_format(s, n, ...)     sfsprintf((s), (int)(n), __VA_ARGS__)
#define io_printf(f, ...)        sfprintf((f), __VA_ARGS__)
#define io_puts_line(f, s)       sfputr((f), (s), '\n')

/* sfgetr's record ends in the separator, which *len leaves out */
static char *io_getline(io_t *f, size_t *len)
{
	char *line = sfgetr(f, '\n', 0);

	if (!line)
		return NULL;
	*len = (size_t)sfvalue(f) - 1;
	return line;
}
#endif

static void die(const char *what, const char *path)
{
	fprintf(stderr, "iobench (" LIBRARY "): %s %s: %s\n", what, path ? path : "",
		strerror(errno ? errno : EIO));
	exit(1);
}

static io_t *open_or_die(const char *path, const char *mode)
{
	io_t *f = io_open(path, mode);

	if (!f)
		die("cannot open", path);
	return f;
}

/* The output, a write stream from its first byte, not truncated (above):
 * the stream each library's "w" mode makes, over a descriptor opened
 * without O_TRUNC. */
static io_t *open_output(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	io_t *f = fd < 0 ? NULL : io_write_fd(fd);

	if (!f)
		die("cannot open", path);
	return f;
}

static void close_or_die(io_t *f, const char *path)
{
	if (io_close(f))
		die("cannot close", path);
}

/* A checksum of what was read, so that the builds can be held to reading
 * the same bytes: FNV-1a over a sample of each block (its first 16 bytes
 * and its last), cheap beside the I/O so that it does not dilute what the
 * libraries cost. */
static uint64_t fnv(uint64_t h, const unsigned char *p, size_t n)
{
	size_t i, head = n < 16 ? n : 16;

	for (i = 0; i < head; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return n ? (h ^ p[n - 1]) * 0x100000001b3ULL : h;
}

#define FNV_START 0xcbf29ce484222325ULL

/* The same pseudo-random blocks for every library: splitmix64, seed fixed. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

struct job {
	const char *input, *output;
	size_t block;
	long long size;
	long long moved;   /* bytes read or written */
	uint64_t sum;      /* checksum of what was read */
};

static void bench_read(struct job *j)
{
	io_t *in = open_or_die(j->input, "r");
	unsigned char *buf = malloc(j->block);
	long n;

	while (j->moved < j->size && (n = io_read(in, buf, j->block)) > 0) {
		j->sum = fnv(j->sum, buf, (size_t)n);
		j->moved += n;
	}
	free(buf);
	close_or_die(in, j->input);
}

static void fill_block(unsigned char *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf[i] = (unsigned char)('a' + i % 26);
	buf[n - 1] = '\n';
}

static void bench_write(struct job *j)
{
	io_t *out = open_output(j->output);
	unsigned char *buf = malloc(j->block);

	fill_block(buf, j->block);
	while (j->moved < j->size) {
		size_t n = (size_t)(j->size - j->moved) < j->block ? (size_t)(j->size - j->moved) : j->block;
		if (io_write(out, buf, n) != (long)n)
			die("cannot write", j->output);
		j->moved += (long long)n;
	}
	free(buf);
	close_or_die(out, j->output);
}

static void bench_copyrw(struct job *j)
{
	io_t *in = open_or_die(j->input, "r"), *out = open_output(j->output);
	unsigned char *buf = malloc(j->block);
	long n;

	while (j->moved < j->size && (n = io_read(in, buf, j->block)) > 0) {
		if (io_write(out, buf, (size_t)n) != n)
			die("cannot write", j->output);
		j->moved += n;
	}
	free(buf);
	close_or_die(in, j->input);
	close_or_die(out, j->output);
}

static void bench_getc(struct job *j)
{
	io_t *in = open_or_die(j->input, "r");
	uint64_t sum = 0;
	int c;

	/* a plain sum, one add per byte: the loop stays the library's */
	while (j->moved < j->size && (c = io_getc(in)) >= 0) {
		sum += (unsigned)c;
		j->moved++;
	}
	j->sum = sum;
	close_or_die(in, j->input);
}

static void bench_putc(struct job *j)
{
	io_t *out = open_output(j->output);
	long long i;

	for (i = 0; i < j->size; i++)
		if (io_putc(out, i % 64 == 63 ? '\n' : 'a' + (int)(i % 26)) < 0)
			die("cannot write", j->output);
	j->moved = j->size;
	close_or_die(out, j->output);
}

/* Blocks from the last to the first, one seek each. */
static void bench_revrd(struct job *j)
{
	io_t *in = open_or_die(j->input, "r");
	unsigned char *buf = malloc(j->block);
	long long blocks = j->size / (long long)j->block, b;

	for (b = blocks - 1; b >= 0; b--) {
		if (io_seek(in, b * (long long)j->block) < 0 ||
		    io_read(in, buf, j->block) != (long)j->block)
			die("cannot read", j->input);
		j->sum = fnv(j->sum, buf, j->block);
		j->moved += (long long)j->block;
	}
	free(buf);
	close_or_die(in, j->input);
}

/* As many operations as the file has blocks: seek to a random block and
 * read it, then seek the output to position 0 and write it there. */
static void bench_seekrw(struct job *j)
{
	io_t *in = open_or_die(j->input, "r"), *out = open_output(j->output);
	unsigned char *buf = malloc(j->block);
	long long blocks = j->size / (long long)j->block, i;
	uint64_t state = 1991;

	for (i = 0; i < blocks; i++) {
		long long b = (long long)(next_random(&state) % (uint64_t)blocks);
		if (io_seek(in, b * (long long)j->block) < 0 ||
		    io_read(in, buf, j->block) != (long)j->block)
			die("cannot read", j->input);
		j->sum = fnv(j->sum, buf, j->block);
		if (io_seek(out, 0) < 0 || io_write(out, buf, j->block) != (long)j->block)
			die("cannot write", j->output);
		j->moved += (long long)j->block;
	}
	free(buf);
	close_or_die(in, j->input);
	close_or_die(out, j->output);
}

/* A program of the shape real ones have: per line, memory allocated,
 * formatted into and freed between the I/O calls; one line in 16 goes out
 * through printf instead. */
static void bench_records(struct job *j)
{
	io_t *in = open_or_die(j->input, "r"), *out = open_output(j->output);
	unsigned long lineno = 0;
	size_t len;
	char *line;

	while (j->moved < j->size && (line = io_getline(in, &len))) {
		size_t cap = len + 32;
		char *rec = malloc(cap);
		if (!rec)
			die("out of memory", NULL);
		io_format(rec, cap, "%08lu %lu %.*s", ++lineno, (unsigned long)len, (int)len, line);
		if (lineno % 16 == 0 ? io_printf(out, "%lu:%s\n", lineno, rec) < 0
				     : io_puts_line(out, rec) < 0)
			die("cannot write", j->output);
		j->sum = fnv(j->sum, (const unsigned char *)rec, strlen(rec));
		free(rec);
		j->moved += (long long)len + 1;
	}
	close_or_die(in, j->input);
	close_or_die(out, j->output);
}

static const struct {
	const char *name;
	void (*run)(struct job *);
} benchmarks[] = {
	{"copyrw", bench_copyrw}, {"getc", bench_getc}, {"putc", bench_putc},
	{"read", bench_read},     {"revrd", bench_revrd}, {"seekrw", bench_seekrw},
	{"write", bench_write},   {"records", bench_records},
};

int main(int argc, char **argv)
{
	struct job j = {.sum = FNV_START};
	size_t i;

	if (argc != 6) {
		fprintf(stderr, "usage: iobench BENCHMARK BLOCK INPUT OUTPUT SIZE\n");
		return 2;
	}
	j.block = (size_t)strtoul(argv[2], NULL, 10);
	j.input = argv[3];
	j.output = argv[4];
	j.size = strtoll(argv[5], NULL, 10);
	if (j.block == 0 || j.size <= 0) {
		fprintf(stderr, "iobench: BLOCK and SIZE must be positive\n");
		return 2;
	}
	for (i = 0; i < sizeof(benchmarks) / sizeof(benchmarks[0]); i++) {
		if (strcmp(argv[1], benchmarks[i].name))
			continue;
		benchmarks[i].run(&j);
		printf("%s block=%zu moved=%lld sum=%016llx\n", argv[1], j.block, j.moved,
		       (unsigned long long)j.sum);
		return 0;
	}
	fprintf(stderr, "iobench: no benchmark '%s'\n", argv[1]);
	return 2;
}
