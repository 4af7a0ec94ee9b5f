/*
 * Sfio_t's BAD_FD behind the process boundary: the descriptor under a
 * stream is the server's, so the server closes it (sfio_stream.c).
 */
#include "sfio_proxy.h"

int tb_sfio_close_descriptor(Sfio_t *f)
{
	return sfio_proxy_close_fd(f);
}
