#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "valve.h"

enum state { NEW, OPEN, FAILED, CLOSED };

struct valve {
	enum state state;
	int fd;
	char *buf;
	int *level;  /* a tap's alone */
};

struct gauge {
	int level;
};

valve_t *valve_new(void)
{
	valve_t *v = calloc(1, sizeof(*v));

	if (v) {
		v->fd = -1;
		v->buf = malloc(64);
	}
	return v;
}

int valve_open(valve_t *v, const char *path)
{
	if (v->state != NEW) {
		errno = EBUSY;
		return -1;
	}
	v->fd = path ? open(path, O_RDONLY) : -1;
	if (v->fd < 0) {
		/* the defect's cause: the buffer goes, the state says failed */
		free(v->buf);
		v->buf = NULL;
		v->state = FAILED;
		return -1;
	}
	v->state = OPEN;
	return 0;
}

int valve_flush(valve_t *v)
{
	if (v->state == NEW)
		return -1;
	if (v->state == CLOSED) {
		errno = EBADF;
		return -1;
	}
	v->buf[0] = 0;  /* a failed valve's buffer is NULL: SIGSEGV */
	return 0;
}

int valve_close(valve_t *v)
{
	if (v->state != OPEN && v->state != CLOSED) {
		errno = EBADF;
		return -1;
	}
	/* the second defect: a closed valve closed again frees its buffer twice
	 * (SIGABRT), a state two calls reach: valve_open, then valve_close */
	free(v->buf);
	close(v->fd);
	v->state = CLOSED;
	return 0;
}

valve_t *tap_new(void)
{
	valve_t *t = calloc(1, sizeof(*t));

	if (t) {
		t->fd = -1;
		t->level = calloc(1, sizeof(*t->level));
	}
	return t;
}

int tap_pour(valve_t *t)
{
	return (*t->level)++;  /* a valve has no level: SIGSEGV */
}

gauge_t *gauge_new(void)
{
	return calloc(1, sizeof(struct gauge));
}

int gauge_read(gauge_t *g)
{
	return g->level;
}
