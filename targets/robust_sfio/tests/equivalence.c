/*
 * Valid programs for the functional-equivalence test: built once against
 * plain SFIO and once against Robust SFIO (-DROBUST), each must print the
 * same bytes.  Every program reports what SFIO returned and what it read
 * back, on sfstdout, and works in files of the current directory.
 *
 *   equivalence PROGRAM     run one program
 *   equivalence --list      name them
 *   equivalence wild_write  not one of them: sfwrite from an unmapped page,
 *                           which plain SFIO dies of (the preload test)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#ifdef ROBUST
#include "robust_sfio.h"
#else
#include "sfio_abi.h"
#endif

#include "started_list.h"

#define say(...) sfprintf(sfstdout, __VA_ARGS__)

static void write_read_seek(void)
{
	Sfio_t *f = sfopen(NULL, "blocks.dat", "w+");
	char block[757], back[757];
	int i, same = 1;

	for (i = 0; i < (int)sizeof(block); i++)
		block[i] = (char)('a' + i % 26);
	for (i = 0; i < 40; i++)
		say("w%d=%zd ", i, sfwrite(f, block, sizeof(block) - (size_t)i));
	say("\ntell=%lld size=%lld\n", sftell(f), sfsize(f));
	say("seek=%lld\n", sfseek(f, 0, SEEK_SET));
	for (i = 0; i < 40; i++)
		same &= sfread(f, back, sizeof(block) - (size_t)i) == (ssize_t)(sizeof(block) - (size_t)i) &&
			!memcmp(back, block, sizeof(block) - (size_t)i);
	say("same=%d eof-read=%zd eof=%d\n", same, sfread(f, back, 1), sfeof(f) != 0);
	say("end=%lld cur=%lld set=%lld\n", sfseek(f, -100, SEEK_END), sfseek(f, 10, SEEK_CUR),
	    sfseek(f, 5, SEEK_SET));
	say("read5=%zd %.5s\n", sfread(f, back, 5), back);
	say("close=%d\n", sfclose(f));
}

static void records(void)
{
	Sfio_t *f = sfopen(NULL, "records.txt", "w+");
	char *r;
	int i;

	for (i = 0; i < 100; i++)
		say("%zd ", sfputr(f, i % 7 ? "record" : "", i % 3 ? '\n' : ':'));
	sfputr(f, "last, unterminated", -1);
	sfseek(f, 0, SEEK_SET);
	say("\n");
	while ((r = sfgetr(f, '\n', 0)))
		say("[%.*s]%zd ", (int)sfvalue(f) - 1, r, sfvalue(f));
	r = sfgetr(f, '\n', SF_LASTR);
	say("\nlast=%s\n", r ? r : "(none)");
	sfclose(f);
}

static void printf_scanf(void)
{
	Sfio_t *f = sftmp(0);
	char word[64], set[64], buf[32];
	int a = 0, n = 0, got;
	long l = 0;
	double d = 0;

	say("%d|%5s|%-4d|%x|%lld|%.3f|%c|%s|%%\n", 42, "ab", 7, 255, -12345678901LL, 3.14159, 'z', "str");
	got = sfprintf(f, "%d %ld %g hello world%n [abc]\n", 12, 34L, 5.5, &n);
	say("printed=%d n=%d\n", got, n);
	sfseek(f, 0, SEEK_SET);
	got = sfscanf(f, "%d %ld %lf %s %[a-z] [%3c]", &a, &l, &d, word, set, buf);
	buf[3] = 0;
	say("scanned=%d a=%d l=%ld d=%g word=%s set=%s buf=%s\n", got, a, l, d, word, set, buf);
	say("sprintf=%d %s\n", sfsprintf(buf, sizeof(buf), "<%05d|%s>", 99, "xy"), buf);
	say("sprintf-short=%d %s\n", sfsprintf(buf, 6, "%s", "truncated"), buf);
	got = sfsscanf("17 words 2.5", "%d %s %lf", &a, word, &d);
	say("sscanf=%d %d %s %g\n", got, a, word, d);
	sfclose(f);
}

/* Formats whose arguments are all of the integer class, each printed twice
 * (parsed, then kept): %.*s with a precision shorter and longer than the
 * string and negative, a * width, %p, %n, arguments past the six that
 * travel in registers, a list already started, and one with a double. */
static void printf_plans(void)
{
	char buf[128], line[] = "some line of text";
	int i, n = 0, got;
	long long stored = 0;

	for (i = 0; i < 2; i++) {
		got = sfsprintf(buf, sizeof(buf), "%08lu %lu %.*s", 7UL + i, 17UL, 9, line);
		say("plan=%d %s\n", got, buf);
		got = sfsprintf(buf, sizeof(buf), "%.*s|%.*s|%*d", 40, "ab", -1, "cd", 6, i);
		say("precisions=%d %s\n", got, buf);
		got = sfsprintf(buf, sizeof(buf), "%p %hhd %hd %lld %zu%n.", (void *)0, 300, 70000,
				-5LL, (size_t)9, &n);
		say("mixed=%d %s n=%d\n", got, buf, n);
		got = sfsprintf(buf, sizeof(buf), "%d %d %d %d %d %d %d %s %lld%lln", 1, 2, 3, 4, 5,
				6, 7, "eight", 9LL, &stored);
		say("many=%d %s stored=%lld\n", got, buf, stored);
		got = vsprintf_after_first(buf, sizeof(buf), "%d %s %c", 99, 5, "five", 'x');
		say("started=%d %s\n", got, buf);
		got = sfsprintf(buf, sizeof(buf), "%d %.2f %s", i, 2.5, "float");
		say("walked=%d %s\n", got, buf);
		got = sfsprintf(buf, 8, "%lu:%s", 12345UL, "truncated");
		say("short=%d %s\n", got, buf);
		got = sfprintf(sfstdout, "%lu:%s\n", 16UL * (unsigned long)(i + 1), line);
		say("printed=%d\n", got);
	}
}

static void string_streams(void)
{
	char fixed[16], text[] = "alpha beta\ngamma\n";
	Sfio_t *r = sfnew(NULL, text, strlen(text), -1, SF_STRING | SF_READ);
	Sfio_t *w = sfnew(NULL, fixed, sizeof(fixed), -1, SF_STRING | SF_WRITE);
	Sfio_t *grow = sfnew(NULL, NULL, (size_t)-1, -1, SF_STRING | SF_WRITE);
	char *s;
	int i;

	while ((s = sfgetr(r, '\n', 1)))
		say("line=%s ", s);
	say("\nwrite=%zd write=%zd\n", sfwrite(w, "0123456789", 10), sfwrite(w, "abcdefghij", 10));
	say("fixed=%.16s tell=%lld\n", fixed, sftell(w));
	for (i = 0; i < 1000; i++)
		sfprintf(grow, "%04d,", i);
	say("grown=%lld\n", sftell(grow));
	sfseek(grow, 0, SEEK_SET);
	say("reserve=%.20s\n", (char *)sfreserve(grow, 20, 0));
	sfclose(r);
	sfclose(w);
	sfclose(grow);
}

static void stacks(void)
{
	Sfio_t *base = sfopen(NULL, "base.txt", "w+");
	Sfio_t *top = sfnew(NULL, "pushed\n", 7, -1, SF_STRING | SF_READ);
	char *s;

	sfputr(base, "base line", '\n');
	sfseek(base, 0, SEEK_SET);
	say("push=%d stacked=%d\n", sfstack(base, top) == base, sfstacked(base) != 0);
	while ((s = sfgetr(base, '\n', 1)))
		say("read=%s ", s);
	say("\nstacked-after=%d\n", sfstacked(base) != 0);
	sfclose(base);
}

static void pools(void)
{
	Sfio_t *a = sfopen(NULL, "pool.txt", "w");
	Sfio_t *b = sfnew(NULL, NULL, (size_t)-1, sffileno(a), SF_WRITE);
	char line[256];
	FILE *in;
	int i;

	say("pool=%d\n", sfpool(a, b, 0) != NULL);
	for (i = 0; i < 6; i++)
		sfprintf(i % 2 ? a : b, "%c%d ", i % 2 ? 'a' : 'b', i);
	sfsync(a);
	sfsync(b);
	in = fopen("pool.txt", "r");
	say("file=%s\n", in && fgets(line, sizeof(line), in) ? line : "(none)");
	if (in)
		fclose(in);
	sfclose(a);
	sfclose(b);
}

static void getc_putc(void)
{
	Sfio_t *f = sfopen(NULL, "bytes.dat", "w+");
	unsigned long sum = 0;
	int c, i;

	for (i = 0; i < 300000; i++)
		sfputc(f, i * 7);
	say("nputc=%zd tell=%lld\n", sfnputc(f, 'q', 5000), sftell(f));
	sfseek(f, 0, SEEK_SET);
	while ((c = sfgetc(f)) >= 0)
		sum = sum * 31 + (unsigned)c;
	say("sum=%lu eof=%d error=%d fileno-ok=%d\n", sum, sfeof(f) != 0, sferror(f) != 0, sffileno(f) > 2);
	sfclrerr(f);
	say("after-clrerr eof=%d\n", sfeof(f) != 0);
	sfseek(f, 0, SEEK_SET);
	c = sfgetc(f);
	say("ungetc=%d again=%d\n", sfungetc(f, c), sfgetc(f));
	sfclose(f);
}

static void move_and_swap(void)
{
	Sfio_t *in = sfnew(NULL, "one\ntwo\nthree\nfour\n", 19, -1, SF_STRING | SF_READ);
	Sfio_t *out = sfopen(NULL, "moved.txt", "w+"), *moved;
	char *s;

	say("records=%lld bytes=%lld\n", sfmove(in, out, 2, '\n'), sfmove(in, out, 5, -1));
	sfseek(out, 0, SEEK_SET);
	moved = sfswap(out, NULL);
	say("swapped=%d\n", moved != NULL);
	while ((s = sfgetr(moved, '\n', 1)))
		say("%s,", s);
	say("\nresize=%d size=%lld\n", sfresize(moved, 3), sfsize(moved));
	sfclose(moved);
	sfclose(in);
}

static ssize_t upper_write(Sfio_t *f, const Void_t *buf, size_t n, Sfdisc_t *disc)
{
	char copy[4096];
	size_t i;

	n = n < sizeof(copy) ? n : sizeof(copy);
	for (i = 0; i < n; i++)
		copy[i] = (char)(((const char *)buf)[i] >= 'a' && ((const char *)buf)[i] <= 'z'
				 ? ((const char *)buf)[i] - 32 : ((const char *)buf)[i]);
	return sfwr(f, copy, n, disc);
}

static void discipline(void)
{
	static Sfdisc_t upper = { NULL, upper_write, NULL, NULL, NULL };
	Sfio_t *f = sfopen(NULL, "disc.txt", "w");
	char line[64];
	FILE *in;

	say("disc=%d\n", sfdisc(f, &upper) == &upper);
	sfputr(f, "shouted", '\n');
	sfclose(f);
	in = fopen("disc.txt", "r");
	say("file=%s", in && fgets(line, sizeof(line), in) ? line : "(none)\n");
	if (in)
		fclose(in);
}

/* sfputr on the shapes its in-buffer copy takes and leaves to SFIO: records
 * that fit the buffer, end exactly at its end, straddle it and outgrow it,
 * empty ones, no separator, a line-buffered stream and a string stream. */
static void records_in_buffer(void)
{
	Sfio_t *f = sfopen(NULL, "putr.txt", "w+"), *s;
	static char big[20000];
	char area[64], *r;
	size_t lengths[] = { 0, 1, 31, 4095, 4096, 8191, 8192, 9000, 19999 };
	size_t i, k;
	long long total = 0;

	memset(big, 'b', sizeof(big) - 1);
	for (k = 0; k < 3; k++)
		for (i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++) {
			ssize_t n = sfputr(f, big + sizeof(big) - 1 - lengths[i], k == 2 ? -1 : (int)'\n' + (int)k);

			say("%zd ", n);
			total += n;
		}
	say("\ntell=%lld total=%lld\n", sftell(f), total);
	sfseek(f, 0, SEEK_SET);
	for (i = 0; (r = sfgetr(f, '\n', 0)); i++)
		total -= sfvalue(f);
	say("records=%zu left=%lld\n", i, total);
	sfclose(f);
	sfset(sfstdout, SF_LINE, 1);
	say("line=%zd\n", sfputr(sfstdout, "a line-buffered record", '\n'));
	sfset(sfstdout, SF_LINE, 0);
	s = sfnew(NULL, area, sizeof(area), -1, SF_STRING | SF_WRITE);
	say("string=%zd %zd ", sfputr(s, "0123456789", '|'), sfputr(s, "", -1));
	say("%zd tell=%lld\n", sfputr(s, "abc", -1), sftell(s));
	say("area=%.14s\n", area);
	sfclose(s);
}

static const struct program {
	const char *name;
	void (*run)(void);
} programs[] = {
	{ "write_read_seek", write_read_seek },
	{ "records", records },
	{ "records_in_buffer", records_in_buffer },
	{ "printf_scanf", printf_scanf },
	{ "printf_plans", printf_plans },
	{ "string_streams", string_streams },
	{ "stacks", stacks },
	{ "pools", pools },
	{ "getc_putc", getc_putc },
	{ "move_and_swap", move_and_swap },
	{ "discipline", discipline },
	{ 0 },
};

static int wild_write(void)
{
	Sfio_t *f = sfopen(NULL, "wild.dat", "w");
	char *page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ssize_t n;

	errno = 0;
	n = sfwrite(f, page, 100);
	printf("wild_write=%zd errno=%s\n", n, errno == EFAULT ? "EFAULT" : "other");
	return 0;
}

int main(int argc, char **argv)
{
	const struct program *p;

	if (argc == 2 && !strcmp(argv[1], "wild_write"))
		return wild_write();

	for (p = programs; argc == 2 && p->name; p++) {
		if (!strcmp(argv[1], "--list"))
			printf("%s\n", p->name);
		else if (!strcmp(argv[1], p->name)) {
			p->run();
			return sfsync(sfstdout) < 0;
		}
	}
	if (argc == 2 && !strcmp(argv[1], "--list"))
		return 0;
	fprintf(stderr, "usage: equivalence PROGRAM | --list\n");
	return 2;
}
