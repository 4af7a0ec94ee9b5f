/*
 * Sfdisc_t: disciplines handed to sfdisc(): one whose functions pass I/O
 * through to the stream's own, one whose functions are all NULL, and
 * random bytes, besides the pointer values.
 */
#include <string.h>

#include "datatype.h"
#include "sfio_abi.h"

static ssize_t pass_read(Sfio_t *f, Void_t *buf, size_t n, Sfdisc_t *disc)
{
	return sfrd(f, buf, n, disc);
}

static ssize_t pass_write(Sfio_t *f, const Void_t *buf, size_t n, Sfdisc_t *disc)
{
	return sfwr(f, buf, n, disc);
}

static Sfoff_t pass_seek(Sfio_t *f, Sfoff_t addr, int whence, Sfdisc_t *disc)
{
	return sfsk(f, addr, whence, disc);
}

/* A discipline in memory of its own: sfdisc() links it into the stream. */
static int discipline(union tb_arg *out, const Sfdisc_t *model)
{
	Sfdisc_t *d = tb_guarded_block(sizeof(*d));

	if (!d)
		return -1;
	memcpy(d, model, sizeof(*d));
	out->ptr = d;
	return 0;
}

static int setup_pass_through(union tb_arg *out)
{
	static const Sfdisc_t model = { pass_read, pass_write, pass_seek, NULL, NULL };

	return discipline(out, &model);
}

static int setup_null_functions(union tb_arg *out)
{
	static const Sfdisc_t model = { 0 };

	return discipline(out, &model);
}

static int setup_garbage(union tb_arg *out)
{
	return (out->ptr = tb_garbage_block(sizeof(Sfdisc_t))) ? 0 : -1;
}

static const struct tb_value disc_values[] = {
	{ .name = "PASS_THROUGH", .setup = setup_pass_through, .desc = "read, write, seek via sfrd/sfwr/sfsk" },
	{ .name = "NULL_FUNCTIONS", .setup = setup_null_functions, .desc = "every function pointer NULL" },
	{ .name = "GARBAGE", .setup = setup_garbage, .desc = "random bytes the size of a Sfdisc_t", .misuse = 1 },
	{ 0 },
};

const struct tb_datatype tb_type_sfio_discipline = {
	.name = "Sfdisc_t",
	.parent = &tb_type_pointer,
	.ctype = "Sfdisc_t *",
	.values = disc_values,
};
